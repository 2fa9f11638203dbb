"""Serving on Streamable HTTP: the SDK's own app, with its Host/Origin checks (DNS
rebinding protection) on for any address, and optional bearer-token authentication
through the SDK's own auth support (its bearer middleware and `TokenVerifier`). The
token comes from the environment at run time, never from committed settings."""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import logging
import os
import socket
import sys
from collections.abc import Sequence
from typing import Any

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl

from .server_endpoints import routes
from .server_list_changed import end_listening
from .server_process import settle_start_up

logger = logging.getLogger(__name__)

_LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
_LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class StaticToken:
    """A `TokenVerifier` that accepts one secret token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        if not token:
            raise ValueError("an empty bearer token would let anyone in")
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token="<redacted>", client_id="bearer", scopes=[])
        return None


def token_from_env(name: str) -> str:
    """The bearer token the environment variable `name` holds (ValueError if unset)."""
    token = os.environ.get(name, "")
    if not token:
        raise ValueError(f"the environment variable {name} holds no bearer token")
    return token


def http_app(
    server: Server[Any],
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    path: str = "/mcp",
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    token: str | None = None,
) -> Any:
    """The Starlette app serving `server` at `path`. Requests must name an allowed Host
    (the loopback names, plus `allowed_hosts`, e.g. `mcp.example.com` or `10.0.0.5:*`)
    and, when they carry one, an allowed Origin; with `token`, every request needs
    `Authorization: Bearer <token>`."""
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*_LOOPBACK_HOSTS, *allowed_hosts],
        allowed_origins=[*_LOOPBACK_ORIGINS, *allowed_origins],
    )
    if not is_loopback(host) and token is None:
        logger.warning(
            "serving on %s:%s without authentication: anyone who can reach this "
            "address can call the tools; pass a bearer token (--auth-token-env VAR) "
            "or bind to 127.0.0.1",
            host,
            port,
        )
    if not is_loopback(host) and not allowed_hosts:
        logger.warning(
            "serving on %s:%s: only requests naming a loopback Host are accepted until "
            "you allow the names clients use (--allow-host NAME)",
            host,
            port,
        )
    auth = None
    verifier = None
    if token is not None:
        verifier = StaticToken(token)
        # The SDK installs its bearer middleware only beside AuthSettings; no OAuth
        # server is announced (no resource_server_url, so no metadata routes).
        issuer = AnyHttpUrl(f"http://127.0.0.1:{port}")
        auth = AuthSettings(issuer_url=issuer, resource_server_url=None)
    return server.streamable_http_app(
        streamable_http_path=path,
        host=host,
        transport_security=security,
        auth=auth,
        token_verifier=verifier,
        custom_starlette_routes=routes(server, security, token is not None),
    )


# How long a stopped server waits for the calls under way (decision 0146): without a
# bound, one hung handler kept the process alive until SIGKILL.
SHUTDOWN_GRACE_SECONDS = 30
_STARTUP_FAILURE = 3  # uvicorn's exit status when it could not start (uvicorn.config)


def run_http(
    server: Server[Any],
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    path: str = "/mcp",
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    token: str | None = None,
    grace_seconds: int = SHUTDOWN_GRACE_SECONDS,
) -> None:
    """Serve on Streamable HTTP at `http://host:port/path` (see `http_app`). Stopped
    (SIGTERM, Ctrl-C), it lets the calls under way finish for `grace_seconds`, then
    cancels them and exits."""
    import uvicorn

    app = http_app(
        server,
        host,
        port,
        path=path,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
        token=token,
    )
    settle_start_up()

    class Stopping(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            end_listening(server)  # else waited for as a call under way (decision 0159)
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=grace_seconds,
    )
    stopping = Stopping(config)
    # uvicorn raises Ctrl-C again once it has stopped; uvicorn.run ends quietly there.
    with contextlib.suppress(KeyboardInterrupt):
        stopping.run()
    if not stopping.started:  # as uvicorn.run ends when it could not start
        sys.exit(_STARTUP_FAILURE)
