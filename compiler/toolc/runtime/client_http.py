"""Streamable HTTP that sends headers with every request (a bearer token, say), for the
typed client's `connect(url, headers=...)` and toolc's commands that list a server: the
SDK's transport over an HTTP client made with them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

import httpx2
from mcp.client import Transport
from mcp.client.streamable_http import streamable_http_client

# The SDK's own defaults for its HTTP client: 30 s, and 300 s to read a stream the
# server holds open.
_TIMEOUT = httpx2.Timeout(30.0, read=300.0)


def http_transport(
    url: str,
    headers: Mapping[str, str],
    refused: Callable[[int], object] | None = None,
) -> Transport:
    """The Streamable HTTP transport to `url`, its requests carrying `headers`.
    `refused` hears the status of each answer of 400 or more (the SDK's own error for
    one does not say which it was: a 401 reads "Server returned an error response")."""
    return cast(Transport, _connected(url, dict(headers), refused))


def bearer(token: str) -> dict[str, str]:
    """The header a server run with `--auth-token-env` asks for."""
    return {"Authorization": f"Bearer {token}"}


@asynccontextmanager
async def _connected(
    url: str, headers: dict[str, str], refused: Callable[[int], object] | None
) -> AsyncIterator[Any]:
    async def heard(response: httpx2.Response) -> None:
        if refused is not None and response.status_code >= 400:
            refused(response.status_code)

    hooks = {"response": [heard]}
    async with (
        httpx2.AsyncClient(
            headers=headers, timeout=_TIMEOUT, event_hooks=hooks
        ) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams
