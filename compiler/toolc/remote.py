"""A live MCP server's `tools/list`, read with the official SDK client over stdio (a command) or
Streamable HTTP (a URL), every page: what `toolc verify` compares with a build and what
`toolc import` translates. The tools come back as their wire JSON (`_meta`, camelCase)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

# Pages a listing may take before it counts as a server that never stops paging.
MAX_PAGES = 10_000


class RemoteError(Exception):
    """The server could not be started, reached or listed (the message says which)."""


class Listing(msgspec.Struct, frozen=True):
    server: str | None  # the name the server gives in `initialize`
    tools: list[dict[str, Any]]


def list_remote(
    command: Sequence[str] | None,
    url: str | None,
    timeout: float = 30,
    headers: Mapping[str, str] | None = None,
) -> Listing:
    """Every tool the server lists. Exactly one of `command` (stdio) and `url` is given;
    `headers` go with each HTTP request (a bearer token)."""
    import anyio

    refused: list[int] = []  # the HTTP statuses of 400 or more answered
    with _sdk_logs() as noise:
        try:
            return anyio.run(_list, command, url, timeout, headers, refused.append)
        except RemoteError:
            raise
        except Exception as exc:  # the SDK's and the transport's errors alike: say what failed
            target = " ".join(command) if command is not None else url
            detail = _innermost(exc)
            if noise.count:
                detail += f" (the SDK also logged {noise.count} problem(s): {noise.first})"
            denied = next((s for s in (401, 403) if s in refused), None)
            if denied is not None:
                fix = "not this one" if headers else "pass it with --auth-token-env VAR"
                detail += f" (HTTP {denied}: the server asks for a bearer token: {fix})"
            elif refused:
                detail += f" (HTTP {refused[0]})"
            raise RemoteError(f"cannot list the tools of {target}: {detail}") from exc


class _Noise(logging.Handler):
    """What the SDK's client logged, counted: with no handler of the user's, Python prints
    each record with its traceback (a server's start-up banner on stdout is one)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        self.first = self.first or record.getMessage()


@contextmanager
def _sdk_logs() -> Iterator[_Noise]:
    """The SDK's log records kept out of toolc's output: a listing that succeeds says
    nothing of them; one that fails names them in its error."""
    sdk = logging.getLogger("mcp")
    noise, propagated = _Noise(), sdk.propagate
    sdk.addHandler(noise)
    sdk.propagate = False
    try:
        yield noise
    finally:
        sdk.removeHandler(noise)
        sdk.propagate = propagated


def _innermost(exc: BaseException) -> str:
    """The first real cause inside exception groups (anyio wraps a transport's failure)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


async def _list(
    command: Sequence[str] | None,
    url: str | None,
    timeout: float,
    headers: Mapping[str, str] | None,
    refused: Callable[[int], object],
) -> Listing:
    from mcp import Client, StdioServerParameters
    from mcp.client import Transport

    target: StdioServerParameters | str | Transport
    if command is not None:
        if not command:
            raise RemoteError("--stdio needs a command: `--stdio -- CMD ARGS...`")
        # The server gets this environment (the SDK passes only a minimal safe one by default):
        # a server started by hand here would see it too.
        target = StdioServerParameters(
            command=command[0], args=list(command[1:]), env=dict(os.environ)
        )
    else:
        assert url is not None
        from toolc.runtime.client_http import http_transport

        target = http_transport(url, headers or {}, refused)
    tools: list[dict[str, Any]] = []
    async with Client(target, read_timeout_seconds=timeout) as client:
        info = client.server_info
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools += [
                t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools
            ]
            cursor = page.next_cursor
            if cursor is None:
                return Listing(info.name if info is not None else None, tools)
    raise RemoteError(f"the server was still paging after {MAX_PAGES} pages of tools/list")
