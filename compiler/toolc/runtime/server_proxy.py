"""Proxied tools (decision 0084): each call is validated here, forwarded to the origin
MCP server through the SDK's client session, and answered with the origin's result
unchanged (no envelope). At start the origins are listed and each proxied tool's
published schemas compared with the origin's: a drifted tool is not served, the others
are (decision 0086). An origin that is lost (its process ended) or did not start is
opened again by a task that keeps it (decision 0158)."""

from __future__ import annotations

import logging
import re
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Mapping,
    Sequence,
)
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Protocol

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from .server_call_errors import invalid_arguments
from .server_deadline import cancel_requested
from .server_hooks import CallHooks
from .server_items import BadReturn
from .server_list_changed import ListChanges
from .server_metrics import start_call
from .server_outputs import FormatCheck
from .server_sealing import new_error_id
from .server_served import ServedTool

logger = logging.getLogger(__name__)

# Prose and dialect are not the schema's shape: an origin that words a description
# otherwise, or names its JSON Schema draft, has not drifted (decision 0086).
_PROSE = frozenset({"$schema", "description", "title", "examples", "$comment"})
# How the SDK's client refuses an origin's answer its listed outputSchema does not
# allow: data that fails it, or no data at all (session.py's call_tool).
_SDK_REFUSED = re.compile(
    r"Invalid structured content|Tool .* has an output schema but did not return "
    r"structured content",
    re.DOTALL,
)
# The SDK's own errors for a request no answer came to: timed out, connection closed.
_UNANSWERED = frozenset({types.REQUEST_TIMEOUT, types.CONNECTION_CLOSED})
_NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions"})

# A forwarded answer's outcome, the metric's error_type and the audit's outcome
# (decision 0102): the envelope's spelling where the meaning is the envelope code's,
# ORIGIN_UNAVAILABLE for an origin that failed or could not be reached.
OK, TOOL_ERROR = "ok", "TOOL_ERROR"  # the two whose origin data is audited
Forwarded = tuple[types.CallToolResult, str, str | None]  # answer, outcome, errorId


class ProxyLike(Protocol):
    """The generated `registry.Proxy`."""

    @property
    def tool(self) -> str: ...

    @property
    def command(self) -> tuple[str, ...] | None: ...

    @property
    def url(self) -> str | None: ...

    @property
    def startup_timeout(self) -> float: ...

    @property
    def call_timeout(self) -> float: ...


def proxy_of(spec: object) -> ProxyLike | None:
    """The tool's origin, when it is proxied."""
    found: ProxyLike | None = getattr(spec, "proxy", None)
    return found


def _as_json(value: Any) -> Any:
    """`value` compared as JSON compares it: a boolean is no number (in Python
    `True == 1`, so `enum: [0, 1]` would match `enum: [false, true]`); `1` and `1.0`
    stay equal."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_json(v) for k, v in value.items()}
    return value


def shape(schema: Any, named: bool = False) -> Any:
    """`schema` without its prose, `required` sorted, values as JSON compares them: what
    drift compares."""
    if isinstance(schema, list):
        return [shape(v) for v in schema]
    if not isinstance(schema, dict):
        return _as_json(schema)
    if named:  # names of properties or definitions: each value is a schema
        return {k: shape(v) for k, v in schema.items()}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        # `properties: {}` or `required: []` judges as its absence does: toolc
        # writes them for an origin's bare `{"type": "object"}`, which is no drift.
        if value in ({}, []) and (key in _NAMED or key == "required"):
            continue
        if key in _PROSE or key in ("const", "enum", "default"):
            if key not in _PROSE:
                out[key] = _as_json(value)
            continue
        # `required` sorted when it is a list of names (an origin's malformed one, a
        # draft-03 `required: true`, is compared as it is: drift, not a crash)
        names = key == "required" and isinstance(value, list)
        if names and all(isinstance(n, str) for n in value):
            out[key] = sorted(value)
        else:
            out[key] = shape(value, key in _NAMED)
    return out


def drift(declared: Mapping[str, Any], origin: types.Tool) -> list[str]:
    """Which of the tool's published schemas differ from the origin's listing."""
    found = []
    if shape(declared.get("inputSchema")) != shape(origin.input_schema):
        found.append("inputSchema")
    # Neither declaring one is a match too: the tool publishes none (no `returns`).
    if shape(declared.get("outputSchema")) != shape(origin.output_schema):
        found.append("outputSchema")
    return found


_FIRST_WAIT, _LAST_WAIT = 1.0, 60.0  # seconds before an origin is opened again
# An origin lost sooner than this after it opened is failing, not lost once: the wait
# goes on growing (one that died soon after each start was restarted every second).
_STEADY = 30.0


class _Origin:
    """One origin (a command or a URL, as `proxy` of its first tool names it) and the
    tools proxied to it; `lost` is set by a call that found its connection gone."""

    def __init__(self, names: list[str], proxy: ProxyLike) -> None:
        self.names = names
        self.proxy = proxy
        command = proxy.command
        self.where = " ".join(command) if command is not None else str(proxy.url)
        self.lost = anyio.Event()


# An HTTP origin that restarted knows no session of ours: the SDK's client says so with
# the server's own error, or its own stand-in for a 404 (streamable_http.py).
_SESSION_GONE = re.compile(r"session (not found|terminated)", re.IGNORECASE)


def _gone(exc: BaseException) -> bool:
    """Whether a failed call says the connection to the origin is gone (its process
    ended, its streams closed, an HTTP origin restarted), not that the origin answered
    or was slow."""
    if isinstance(exc, MCPError):
        restarted = exc.code == types.INVALID_REQUEST and _SESSION_GONE.search(str(exc))
        return exc.code == types.CONNECTION_CLOSED or bool(restarted)
    closed = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
    return isinstance(exc, closed)


def _failure(text: str) -> types.CallToolResult:
    """A proxied tool's own failure: an MCP tool error, text only (no envelope)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], is_error=True
    )


class Proxies:
    """The proxied tools of one server, the sessions to their origins, and which tools
    the origins' listings allow to be served."""

    def __init__(
        self, tools: Mapping[str, ServedTool], descriptors: Sequence[Mapping[str, Any]]
    ):
        self.tools = dict(tools)
        self.descriptors = {d["name"]: d for d in descriptors if d["name"] in tools}
        for name, descriptor in self.descriptors.items():
            output = descriptor.get("outputSchema")
            if output is not None:  # the formats JSON clients refuse, as for any tool
                data = {k: v for k, v in output.items() if k != "$defs"}
                self.tools[name].formats = FormatCheck(data, output.get("$defs", {}))
        self.sessions: dict[str, ClientSession] = {}  # by tool name, while open
        self.origins: dict[str, _Origin] = {}  # by tool name
        self.hooks = CallHooks()  # metrics, audit: build_server sets them
        self.served: set[str] = set()
        self.changes = ListChanges()  # who is told when `served` changes
        self._tasks: TaskGroup | None = None  # the keepers' group, while serving

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def serves(self, name: str) -> bool:
        return name not in self.tools or name in self.served

    def reachable(self, name: str) -> bool:
        """Whether a call of `name` reaches its origin now: served, and its origin open
        (a lost one's tools stay listed, but a probe must not count them)."""
        return name not in self.tools or name in self.sessions

    @asynccontextmanager
    async def lifespan(self, _: object) -> AsyncIterator[dict[str, Any]]:
        """Open each origin once, list it, serve the tools that match it; each origin is
        kept by a task of its own, which opens it again when it is lost (decision 0158).
        """
        groups: dict[tuple[tuple[str, ...] | None, str | None], list[str]] = {}
        for name, tool in self.tools.items():
            proxy = proxy_of(tool.spec)
            assert proxy is not None
            groups.setdefault((proxy.command, proxy.url), []).append(name)
        async with anyio.create_task_group() as keepers:
            self._tasks = keepers
            started = []
            for names in groups.values():
                origin = _Origin(names, self._proxy(names[0]))
                for name in names:
                    self.origins[name] = origin
                started.append(anyio.Event())
                keepers.start_soon(self._keep, origin, started[-1])
            for ready in started:
                await ready.wait()
            try:
                yield {}
            finally:
                self.changes.close()
                keepers.cancel_scope.cancel()

    def _proxy(self, name: str) -> ProxyLike:
        proxy = proxy_of(self.tools[name].spec)
        assert proxy is not None
        return proxy

    async def _keep(self, origin: _Origin, ready: anyio.Event) -> None:
        """Open the origin, and again each time it is lost: its session lives in this
        task, where the SDK's client opens and must close it, in one `async with`, so a
        transport that fails (an HTTP origin gone) ends here as an exception, never as
        a cancel scope left open. An origin that cannot be opened, or is lost again
        soon after, is tried again, waiting longer each time (at most a minute)."""
        wait, failing = _FIRST_WAIT, False
        while True:
            opened, since = False, 0.0  # since: when it opened, once it has
            try:
                async with _session(origin.proxy, origin.lost.set) as session:
                    try:
                        await self._open(session, origin)
                    finally:
                        ready.set()  # the server starts whatever became of it
                    opened, failing, since = True, False, anyio.current_time()
                    await origin.lost.wait()
                    self._drop(origin.names)  # before it is said: a probe agrees
                    logger.error("origin %s was lost: opening it again", origin.where)
            except Exception as exc:  # it did not start, its transport failed, closing
                said = "failed" if opened else "did not start"
                names = ", ".join(origin.names)
                if failing:  # the traceback was logged once: each retry in one line
                    logger.error(
                        "origin %s %s again (%s): not serving %s; next try in %g s",
                        origin.where, said, type(exc).__name__, names, wait,
                    )  # fmt: skip
                else:
                    logger.exception(
                        "origin %s %s: not serving %s", origin.where, said, names
                    )
                failing = not opened
            finally:
                self._drop(origin.names)  # closed, however it ended
                ready.set()
            if opened and anyio.current_time() - since >= _STEADY:
                wait = _FIRST_WAIT  # it served a while: this loss is a new one
            origin.lost = anyio.Event()
            await anyio.sleep(wait)
            wait = min(wait * 2, _LAST_WAIT)

    def _drop(self, names: list[str]) -> None:
        """The sessions of `names` closed: their calls answer ORIGIN_UNAVAILABLE until
        the origin is open again (the tools stay listed)."""
        for name in names:
            self.sessions.pop(name, None)

    async def _open(self, session: ClientSession, origin: _Origin) -> None:
        """Initialize and list `origin` within its tools' startup timeout; serve the
        tools whose schemas match it (decision 0086)."""
        names, where = origin.names, origin.where
        with anyio.fail_after(max(self._proxy(n).startup_timeout for n in names)):
            await session.initialize()
            listed = await session.list_tools()
        theirs = {t.name: t for t in listed.tools}
        before = set(self.served)
        for name in names:
            origin_tool = self._proxy(name).tool
            found = theirs.get(origin_tool)
            if found is None:
                logger.error(
                    "%s: origin %s lists no tool %r: not served",
                    name,
                    where,
                    origin_tool,
                )
                self.served.discard(name)
                continue
            differs = drift(self.descriptors[name], found)
            if differs:
                logger.error(
                    "%s: its %s differs from origin tool %r of %s: not served",
                    name, " and ".join(differs), origin_tool, where,
                )  # fmt: skip
                self.served.discard(name)
                continue
            self.sessions[name] = session
            self.served.add(name)
        if self.served != before and self._tasks is not None:  # decision 0159
            self._tasks.start_soon(self.changes.changed)  # never holding up the keeper

    async def call(
        self, params: types.CallToolRequestParams, request_id: str | int | None = None
    ) -> types.CallToolResult:
        """The call forwarded, then observed and audited once with its outcome."""
        watch = start_call()
        result, code, error_id = await self._forward(params)
        data = result.structured_content if code in (OK, TOOL_ERROR) else None
        spec = self.tools[params.name].spec
        await self.hooks.forwarded(spec, code, error_id, data, watch, request_id)
        return result

    async def _forward(self, params: types.CallToolRequestParams) -> Forwarded:
        """Validate, forward, check the origin's answer against its outputSchema."""
        tool = self.tools[params.name]
        proxy = self._proxy(params.name)
        try:
            tool.parse(params.arguments or {})
        except ValidationError as exc:
            text = invalid_arguments(params.name, exc, tool.args_model)["message"]
            return _failure(text), "VALIDATION_ERROR", None
        error_id = new_error_id()  # as an enveloped failure's: 32 hex digits
        try:
            result = await self._origin_call(params, proxy.tool, proxy.call_timeout)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception as exc:  # an origin that fails or times out: logged
            if isinstance(exc, RuntimeError) and _SDK_REFUSED.match(str(exc)):
                # the SDK's client checks the origin's own outputSchema first
                return self._mismatch(params.name, error_id, exc)
            logger.exception(
                "%s: origin call failed [errorId %s]", params.name, error_id
            )
            late = isinstance(exc, MCPError) and exc.code == types.REQUEST_TIMEOUT
            # An origin that answered with a protocol error did answer: say so.
            answered = isinstance(exc, MCPError) and exc.code not in _UNANSWERED
            what = "failed" if answered else "did not answer"
            text = f"The origin of {params.name} {what}; report errorId {error_id}."
            code = "TOOL_TIMEOUT" if late else "ORIGIN_UNAVAILABLE"
            return _failure(text), code, error_id
        if result.is_error:  # the origin's own, unchanged (outputSchema: successes)
            return result, TOOL_ERROR, None
        try:  # without an outputSchema (the origin declares none) nothing to check
            if "outputSchema" in self.descriptors[params.name]:
                tool.check(result.structured_content)
        except BadReturn as exc:
            return self._mismatch(params.name, error_id, exc)
        return result, OK, None

    async def _origin_call(
        self, params: types.CallToolRequestParams, tool: str, timeout: float
    ) -> types.CallToolResult:
        session = self.sessions.get(params.name)
        if session is None:  # lost, and not open again yet
            raise RuntimeError("the origin is being opened again")
        try:
            return await session.call_tool(
                tool, params.arguments, read_timeout_seconds=timeout
            )
        except anyio.get_cancelled_exc_class() as exc:
            if cancel_requested():
                raise  # the call itself was cancelled: there is nobody to answer
            # The origin's session was cancelled, not this call: an origin failure.
            self._lost(params.name, session)
            raise RuntimeError("the call to the origin was cancelled") from exc
        except Exception as exc:
            if _gone(exc):
                self._lost(params.name, session)
            raise

    def _lost(self, name: str, session: ClientSession) -> None:
        """The origin of `name` is gone: its keeper opens it again (once, however many
        calls found it gone, and only the session they used)."""
        origin = self.origins.get(name)
        if origin is not None and self.sessions.get(name) is session:
            self._drop(origin.names)
            origin.lost.set()

    def _mismatch(self, name: str, error_id: str, exc: Exception) -> Forwarded:
        """Decision 0085: logged, and answered as a tool error naming the errorId, the
        origin's data withheld (the caller's schema does not describe it)."""
        logger.error(
            "%s: origin result outside its outputSchema [errorId %s]: %s",
            name, error_id, exc,
        )  # fmt: skip
        text = (
            f"The origin's result for {name} does not match its declared "
            f"outputSchema; report errorId {error_id}."
        )
        return _failure(text), "INVALID_RESULT", error_id


@asynccontextmanager
async def _session(
    proxy: ProxyLike, ended: Callable[[], object]
) -> AsyncIterator[ClientSession]:
    """A session to the origin; `ended` is called when a stdio origin's process ends
    while the session is open (an HTTP transport that fails ends the session itself)."""
    async with AsyncExitStack() as stack:
        read: Any  # the SDK's stream types differ by transport
        if proxy.command is not None:
            program, *args = proxy.command
            streams = await stack.enter_async_context(
                stdio_client(StdioServerParameters(command=program, args=args))
            )
            read = await _watched(stack, streams[0], ended)
            write = streams[1]
        else:
            assert proxy.url is not None
            read, write, *_ = await stack.enter_async_context(
                streamable_http_client(proxy.url)
            )
        yield await stack.enter_async_context(ClientSession(read, write))


async def _watched(
    stack: AsyncExitStack,
    read: AsyncIterable[SessionMessage | Exception],
    ended: Callable[[], object],
) -> MemoryObjectReceiveStream[SessionMessage | Exception]:
    """`read` relayed, calling `ended` at its end: the SDK's session closes quietly when
    a stdio origin's process exits, so an origin that died idle was noticed only by the
    next call, which failed, and `/healthz` counted its tools as served until then."""
    relay, relayed = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    relays = await stack.enter_async_context(anyio.create_task_group())
    stack.callback(relays.cancel_scope.cancel)  # closing: before the group's exit

    async def forward() -> None:
        async with relay:
            try:
                async for item in read:
                    await relay.send(item)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return  # the session closed first: not the origin's end
        ended()

    relays.start_soon(forward)
    return relayed


async def forwarded(args: Any, ctx: Any) -> Any:
    """The handler slot of a proxied tool: its calls go to the origin, never here."""
    raise RuntimeError("a proxied tool has no handler")


# A served call's answer: a model, or the wire dict of a sealed one (decision 0128).
CallTool = Callable[
    [ServerRequestContext[Any, Any], types.CallToolRequestParams],
    Awaitable[types.CallToolResult | types.InputRequiredResult | dict[str, Any]],
]


def routed(proxies: Proxies, others: CallTool) -> CallTool:
    """`tools/call`: a proxied tool's call to its origin, any other to `others`."""

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult | dict[str, Any]:
        if params.name not in proxies:
            return await others(ctx, params)
        if not proxies.serves(params.name):
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        return await proxies.call(params, ctx.request_id)

    return call_tool
