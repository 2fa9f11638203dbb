"""`notifications/tools/list_changed` from a gateway (decision 0159): its `tools/list`
changes when an origin's tools start or stop being served (an origin that did not start
comes up, one opened again has drifted or no longer drifts). Clients are told as each
protocol era says: on a handshake connection (2025-11-25 and before) the notification
goes to every connection that listed the tools; at 2026-07-28 to the
`subscriptions/listen` streams that asked for tool changes. A server without proxied
tools never changes its list and declares neither."""

from __future__ import annotations

import logging
import weakref
from typing import Any

import anyio
from mcp.server.connection import Connection
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ToolsListChanged,
)

logger = logging.getLogger(__name__)

_TELLING_SECONDS = 5.0


class ListChanges:
    """Who is told that the tools changed, and telling them."""

    def __init__(self) -> None:
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)  # subscriptions/listen, at 2026-07-28
        # Weakly: a client that went away is forgotten with its connection.
        self._listed: weakref.WeakSet[Connection] = weakref.WeakSet()

    def listed(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """A client listed the tools: it is told when they change. The SDK keeps a
        request's connection private; without one there is nobody to tell later."""
        connection = getattr(ctx.session, "_connection", None)
        if isinstance(connection, Connection):
            self._listed.add(connection)

    async def changed(self) -> None:
        """Tell every client that listed the tools, and every listen stream. A client
        that cannot be told is skipped: its failure is not the origin's, whose keeper
        calls this (at 2026-07-28 the SDK drops the notification, and the listen
        streams carry it)."""
        await self.bus.publish(ToolsListChanged())
        async with anyio.create_task_group() as telling:  # side by side: none waits
            for connection in list(self._listed):
                telling.start_soon(_tell, connection)

    def close(self) -> None:
        """Shutting down: the listen streams end as the spec's graceful closure."""
        self.listen.close()


async def _tell(connection: Connection) -> None:
    try:  # a client that does not read is not waited for long
        with anyio.move_on_after(_TELLING_SECONDS):
            await connection.send_tool_list_changed()
    except Exception:  # the SDK drops a closed stream's; anything else, here
        logger.debug("tools/list_changed not sent", exc_info=True)


class ChangingServer(Server[Any]):
    """A server whose tools may change: it declares `tools.listChanged` to handshake
    clients (the SDK's default options declare no change). `changes`: who it tells."""

    changes: ListChanges | None = None

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True),
            experimental_capabilities,
            extensions,
        )


def end_listening(server: Server[Any]) -> None:
    """A server stopping: its `subscriptions/listen` streams end now, gracefully. Over
    HTTP, uvicorn waits for the requests open before it ends the lifespan, and a listen
    stream stays open until it is closed: each kept a stopped gateway up for the whole
    grace period, then was cut."""
    if isinstance(server, ChangingServer) and server.changes is not None:
        server.changes.close()
