"""The MCP server of a generated package, on the SDK's low-level `Server`.

`build_server(TOOLS, descriptors, handlers, server="retail", name=..., version=...)`
serves the enabled tools of one `mcp_server` exactly as `tools.json` publishes them,
and runs every call through the same steps: arguments validated, pre-validation,
confirmation, the handler, sealing. No failure escapes as a protocol error and none
leaks internals: the details go to the server's log under an `errorId`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, TypeAdapter, ValidationError

from .server_confirmation import RequestStates, ask, binding, labels, message
from .server_sealing import (
    Image,
    Items,
    Reply,
    Sealed,
    SpecLike,
    ToolFailure,
    framework_error,
    internal_error,
    seal_error,
    seal_failure,
    seal_return,
    to_wire,
)

__all__ = [
    "Image",
    "Items",
    "Reply",
    "ToolContext",
    "ToolFailure",
    "build_server",
    "run_http",
    "run_stdio",
    "serve_stdio",
]

logger = logging.getLogger(__name__)


class PreValidationLike(Protocol):
    @property
    def tool(self) -> str: ...

    @property
    def fail_open(self) -> bool: ...


class ToolSpecLike(SpecLike, Protocol):
    """What the server needs to know of a tool (the generated `registry.ToolSpec`)."""

    @property
    def title(self) -> str: ...

    @property
    def mcp_server(self) -> str: ...

    @property
    def enabled(self) -> bool: ...

    @property
    def module(self) -> str: ...

    @property
    def require_confirmation(self) -> bool: ...

    @property
    def pre_validation(self) -> PreValidationLike | None: ...

    @property
    def args_model(self) -> type[BaseModel]: ...

    @property
    def data_model(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a handler knows about the call besides its arguments."""

    tool: str
    version: str
    request_id: str | int | None
    protocol_version: str
    meta: Mapping[str, Any]
    # The user confirmed this call (always False for a tool that asks no question).
    confirmed: bool
    # The pre-validator's data when it ran and accepted the call.
    decision: Mapping[str, Any] | None
    request: ServerRequestContext[Any, Any]


Handler = Callable[[Any, ToolContext], Awaitable[Any]]


def handler_name(spec: ToolSpecLike) -> str:
    """The handler's method name: the tool's module name, a Python identifier."""
    return spec.module.rpartition(".")[2]


def _field(loc: Sequence[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


def invalid_arguments(tool: str, exc: ValidationError) -> dict[str, Any]:
    """VALIDATION_ERROR naming each failing field and why (never the value sent)."""
    details = [
        {"field": _field(e["loc"]), "reason": e["msg"], "type": e["type"]}
        for e in exc.errors(include_url=False, include_input=False)
    ]
    fields = ", ".join(dict.fromkeys(d["field"] or "(arguments)" for d in details))
    return framework_error(
        "VALIDATION_ERROR", f"Invalid arguments for {tool}: {fields}.", details
    )


class _Tool:
    """One served (or pre-validating) tool, with what its calls need, made once."""

    def __init__(self, spec: ToolSpecLike, handler: Handler) -> None:
        self.spec = spec
        self.handler = handler
        self.labels: dict[str, str] = {}

    @cached_property
    def args_model(self) -> type[BaseModel]:
        return self.spec.args_model

    @cached_property
    def _data(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.spec.data_model)

    def check(self, data: Any) -> object:
        return self._data.validate_python(data)

    def parse(self, arguments: Mapping[str, Any]) -> BaseModel:
        return self.args_model.model_validate(arguments)


def _wire_args(args: BaseModel) -> dict[str, Any]:
    wire: dict[str, Any] = args.model_dump(
        mode="json", by_alias=True, exclude_unset=True
    )
    return wire


class _Runtime:
    def __init__(self, tools: dict[str, _Tool], validators: dict[str, _Tool]) -> None:
        self.tools = tools
        self.validators = validators
        self.states = RequestStates()

    def context(
        self,
        tool: _Tool,
        ctx: ServerRequestContext[Any, Any],
        confirmed: bool = False,
        decision: Mapping[str, Any] | None = None,
    ) -> ToolContext:
        meta: Mapping[str, Any] = dict(ctx.meta) if ctx.meta else {}
        return ToolContext(
            tool=tool.spec.name,
            version=tool.spec.version,
            request_id=ctx.request_id,
            protocol_version=ctx.protocol_version,
            meta=meta,
            confirmed=confirmed,
            decision=decision,
            request=ctx,
        )

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        tool = self.tools.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        try:
            outcome = await self._call(tool, ctx, params)
        except Exception:
            outcome = seal_error(tool.spec, internal_error(tool.spec, "Server failure"))
        return outcome.result() if isinstance(outcome, Sealed) else outcome

    async def _call(
        self,
        tool: _Tool,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
    ) -> Sealed | types.InputRequiredResult:
        spec = tool.spec
        try:
            args = tool.parse(params.arguments or {})
        except ValidationError as exc:
            return seal_error(spec, invalid_arguments(spec.name, exc))
        decision: Mapping[str, Any] | None = None
        validator = self.validators.get(spec.name)
        if validator is not None:
            checked = await self._pre_validate(tool, validator, args, ctx)
            if isinstance(checked, Sealed):
                return checked
            args, decision = checked
        confirmed = False
        if spec.require_confirmation:
            asked = await self._confirm(tool, ctx, params, args, decision)
            if asked is not None:
                return asked
            confirmed = True
        try:
            returned = await tool.handler(
                args, self.context(tool, ctx, confirmed, decision)
            )
        except ToolFailure as failure:
            return seal_failure(spec, failure, tool.check)
        except Exception:
            return seal_error(spec, internal_error(spec, "Handler exception"))
        return seal_return(spec, returned, tool.check)

    async def _pre_validate(
        self,
        tool: _Tool,
        validator: _Tool,
        args: BaseModel,
        ctx: ServerRequestContext[Any, Any],
    ) -> Sealed | tuple[BaseModel, Mapping[str, Any] | None]:
        spec = tool.spec
        policy = spec.pre_validation
        assert policy is not None
        try:
            returned = await validator.handler(
                validator.parse(_wire_args(args)), self.context(validator, ctx)
            )
            data = to_wire(returned.data if isinstance(returned, Reply) else returned)
            validator.check(data)
            target = (data.get("transaction_decision") or {}).get(
                "target_tool", spec.name
            )
            if target != spec.name:
                raise ValueError(f"decision for another tool: {target!r}")
        except Exception:
            error = internal_error(spec, f"Pre-validator {policy.tool} failed")
            if policy.fail_open:
                logger.warning("%s: proceeding without pre-validation", spec.name)
                return args, None
            error.update(
                code="PRE_VALIDATION_FAILED",
                message=f"The pre-validation of {spec.name} failed; "
                f"report errorId {error['errorId']}.",
            )
            return seal_error(spec, error)
        if not data["eligible"]:
            reason = data.get("reason")
            text = reason if isinstance(reason, str) and reason else "Not eligible."
            details = {"reason": reason} if reason is not None else None
            return seal_error(
                spec, framework_error("PRE_VALIDATION_REJECTED", text, details)
            )
        decided = data.get("transaction_decision")
        if decided is None:
            return args, data
        try:
            return tool.parse(decided["resolved_arguments"]), data
        except ValidationError as exc:
            logger.warning("%s: pre-validator resolved invalid arguments", spec.name)
            wrong = invalid_arguments(spec.name, exc)
            return seal_error(
                spec,
                framework_error(
                    "PRE_VALIDATION_FAILED",
                    f"The pre-validator of {spec.name} resolved arguments this tool "
                    "does not accept.",
                    wrong["details"],
                ),
            )

    async def _confirm(
        self,
        tool: _Tool,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        args: BaseModel,
        decision: Mapping[str, Any] | None,
    ) -> Sealed | types.InputRequiredResult | None:
        spec = tool.spec
        wire = _wire_args(args)
        decided = (decision or {}).get("transaction_decision") or {}
        text = decided.get("confirmation_message") or message(
            spec.title, tool.labels, wire
        )
        try:
            answer = await ask(ctx, params, self.states, binding(spec.name, wire), text)
        except Exception:
            logger.warning("%s: elicitation failed", spec.name, exc_info=True)
            answer = "unavailable"
        if isinstance(answer, types.InputRequiredResult):
            return answer
        if answer == "declined":
            return seal_error(
                spec,
                framework_error(
                    "CONFIRMATION_DECLINED", f"The user did not confirm {spec.name}."
                ),
            )
        if answer == "unavailable":
            return seal_error(
                spec,
                framework_error(
                    "CONFIRMATION_UNAVAILABLE",
                    f"{spec.name} needs the user's confirmation, and this client "
                    "cannot ask for it.",
                ),
            )
        return None


def build_server(
    tools: Mapping[str, ToolSpecLike],
    descriptors: Sequence[Mapping[str, Any]],
    handlers: object,
    *,
    server: str | None,
    name: str,
    version: str,
    instructions: str | None = None,
) -> Server[Any]:
    """The low-level SDK server for the enabled tools of `server` (all when None).

    `tools`: the registry (`ALL_TOOLS`); `descriptors`: `tools.json`'s `tools`;
    `handlers`: an object with one `async def <tool module name>(args, ctx)` per
    served tool and per pre-validator they use."""
    specs = {
        d["name"]: tools[d["name"]]
        for d in descriptors
        if tools[d["name"]].enabled
        and (server is None or tools[d["name"]].mcp_server == server)
    }
    served = [d for d in descriptors if d["name"] in specs]
    needed = dict(specs)
    for spec in specs.values():
        if spec.pre_validation is not None:
            validator = tools.get(spec.pre_validation.tool)
            if validator is None or validator.mcp_server != spec.mcp_server:
                raise ValueError(
                    f"{spec.name}: pre-validator {spec.pre_validation.tool!r} is not "
                    f"a tool of mcp_server {spec.mcp_server!r}"
                )
            needed[validator.name] = validator
    missing = [
        handler_name(s)
        for s in needed.values()
        if not callable(getattr(handlers, handler_name(s), None))
    ]
    if missing:
        raise ValueError(f"handlers lack: {', '.join(sorted(missing))}")
    made = {n: _Tool(s, getattr(handlers, handler_name(s))) for n, s in needed.items()}
    for d in served:
        if d.get("_meta", {}).get("version") != specs[d["name"]].version:
            raise ValueError(f"{d['name']}: tools.json and the registry disagree")
        made[d["name"]].labels = labels(d.get("inputSchema", {}))
    runtime = _Runtime(
        {n: made[n] for n in specs},
        {
            s.name: made[s.pre_validation.tool]
            for s in specs.values()
            if s.pre_validation is not None
        },
    )
    listing = types.ListToolsResult(
        tools=[types.Tool.model_validate(d) for d in served]
    )
    input_schemas = {d["name"]: d["inputSchema"] for d in served}

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    return Server(
        name,
        version=version,
        instructions=instructions,
        get_tool_input_schema=input_schemas.get,
        on_list_tools=list_tools,
        on_call_tool=runtime.call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(server: Server[Any]) -> None:
    """Serve on stdin/stdout until the client closes them."""
    anyio.run(serve_stdio, server)


def run_http(
    server: Server[Any],
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    path: str = "/mcp",
) -> None:
    """Serve on Streamable HTTP at `http://host:port/path`."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=path, host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning")
