"""The HTTP server's own endpoints beside `/mcp`: `/healthz` (serving, the tool count
and each tool's version, as JSON) and, when metrics are on, `/metrics` (Prometheus'
text format). They answer GET only, pass the same Host/Origin checks as `/mcp` (a
rebinding page must not read them) and, when the server has a bearer token, require
it too (decision 0081). What they report is registered by `build_server` beside the
SDK server, which has no room for it."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp.server.lowlevel import Server
from mcp.server.transport_security import (
    TransportSecurityMiddleware,
    TransportSecuritySettings,
)
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .server_metrics import exposition


@dataclass(frozen=True, slots=True)
class Served:
    """What a built server serves, for its endpoints."""

    name: str
    version: str
    tools: Mapping[str, str]  # tool -> version
    registry: Any = field(default=None)  # the metrics' registry, when metrics are on
    # Whether a tool is served now: a proxied tool whose origin did not start, drifted
    # or was lost (until it is open again) is not (server_proxy), and a probe must not
    # be told otherwise.
    serves: Callable[[str], bool] = field(default=lambda name: True)

    def serving(self) -> dict[str, str]:
        return {n: v for n, v in sorted(self.tools.items()) if self.serves(n)}


_SERVED: weakref.WeakKeyDictionary[Server[Any], Served] = weakref.WeakKeyDictionary()


def register(server: Server[Any], served: Served) -> None:
    _SERVED[server] = served


def served_by(server: Server[Any]) -> Served | None:
    return _SERVED.get(server)


def routes(
    server: Server[Any], security: TransportSecuritySettings, token: bool
) -> list[Route]:
    """`/healthz`, and `/metrics` when the server records metrics."""
    served = served_by(server)
    if served is None:
        return []
    checks = TransportSecurityMiddleware(security)

    async def refused(request: Request) -> Response | None:
        failed = await checks.validate_request(request, is_post=False)
        if failed is not None:
            return failed
        if token and not request.user.is_authenticated:
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        return None

    async def healthz(request: Request) -> Response:
        if (failed := await refused(request)) is not None:
            return failed
        serving = served.serving()
        answer: dict[str, Any] = {
            "status": "serving",
            "server": served.name,
            "version": served.version,
            "tools": len(serving),
            "versions": serving,
        }
        if len(serving) < len(served.tools):
            answer["unavailable"] = sorted(set(served.tools) - set(serving))
        return JSONResponse(answer)

    async def metrics(request: Request) -> Response:
        if (failed := await refused(request)) is not None:
            return failed
        body, content_type = exposition(served.registry)
        return Response(body, media_type=content_type)

    found = [Route("/healthz", healthz, methods=["GET"])]
    if served.registry is not None:
        found.append(Route("/metrics", metrics, methods=["GET"]))
    return found
