"""The MCP server of a generated package, on the SDK's low-level `Server`.

`build_server(TOOLS, descriptors, handlers, server="retail", name=..., version=...)`
serves the enabled tools of one `mcp_server` exactly as `tools.json` publishes them,
and runs every call through the same steps: arguments validated, pre-validation,
confirmation, the handler, sealing. No failure escapes as a protocol error and none
leaks internals: the details go to the server's log under an `errorId`."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, cast

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPDeprecationWarning

from .server_audit import AuditHook, AuditRecord
from .server_calls import ToolCalls, handler_name
from .server_client import ClientRequestUnavailable, Elicited, Sampled
from .server_confirmation import RequestStates, labels
from .server_content import (
    Audio,
    DeclaredContent,
    EmbeddedBlob,
    EmbeddedText,
    Image,
    ResourceLink,
)
from .server_endpoints import Served, register
from .server_extension_handlers import Extensions
from .server_extensions import (
    Completer,
    CompletionRef,
    Prompt,
    PromptArgument,
    PromptMessage,
    Resource,
    ResourceTemplate,
)
from .server_framework import success_data
from .server_hooks import CallHooks
from .server_http import http_app, run_http, token_from_env
from .server_list_changed import ChangingServer
from .server_metrics import Observation, Observer, prometheus_observer
from .server_outputs import FormatCheck
from .server_process import settle_start_up
from .server_proxy import CallTool, Proxies, forwarded, proxy_of, routed
from .server_served import ServedTool
from .server_state_store import FileStore, MemoryStore, SingleUseStore, signing_key
from .server_types import Items, Reply, ToolContext, ToolFailure, ToolSpecLike

__all__ = [
    "Audio",
    "AuditHook",
    "AuditRecord",
    "ClientRequestUnavailable",
    "Completer",
    "CompletionRef",
    "Elicited",
    "EmbeddedBlob",
    "EmbeddedText",
    "FileStore",
    "Image",
    "Items",
    "MemoryStore",
    "Observation",
    "Observer",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "Reply",
    "Resource",
    "ResourceLink",
    "ResourceTemplate",
    "Sampled",
    "SingleUseStore",
    "ToolContext",
    "ToolFailure",
    "ToolSpecLike",
    "build_server",
    "http_app",
    "run_http",
    "run_stdio",
    "serve_stdio",
    "token_from_env",
]


def build_server(
    tools: Mapping[str, ToolSpecLike],
    descriptors: Sequence[Mapping[str, Any]],
    handlers: object,
    *,
    server: str | None,
    name: str,
    version: str,
    instructions: str | None = None,
    metrics: bool = False,
    observer: Observer | None = None,
    audit: AuditHook | None = None,
    request_state_key: bytes | str | None = None,
    request_state_store: SingleUseStore | None = None,
    resources: Sequence[Resource] = (),
    resource_templates: Sequence[ResourceTemplate] = (),
    prompts: Sequence[Prompt] = (),
    complete: Completer | None = None,
) -> Server[Any]:
    """The low-level SDK server for the enabled tools of `server` (all when None).

    `tools`: the registry (`ALL_TOOLS`); `descriptors`: `tools.json`'s `tools`;
    `handlers`: an object with one `async def <tool module name>(args, ctx)` per
    served tool and per pre-validator they use. `metrics`: record
    `mcp_tool_duration_seconds` with prometheus_client (served at `/metrics` over HTTP);
    `observer`: called with one `Observation` per answered call (any transport);
    `audit`: called with one `AuditRecord` per answered call, after sealing.
    `request_state_key` (else the environment's `TOOLC_REQUEST_STATE_KEY`) and
    `request_state_store` are what several processes share to answer each other's
    confirmations (server_state_store). `resources`, `resource_templates`, `prompts`
    and `complete` (server_extensions) are served beside the tools; logging/setLevel
    is always answered (it filters `ToolContext.log`)."""
    states = RequestStates(
        key=signing_key(request_state_key), store=request_state_store
    )
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
    proxied = {n for n, s in specs.items() if proxy_of(s) is not None}  # no handler
    missing = [
        handler_name(s)
        for s in needed.values()
        if s.name not in proxied
        and not callable(getattr(handlers, handler_name(s), None))
    ]
    if missing:
        raise ValueError(f"handlers lack: {', '.join(sorted(missing))}")
    made = {
        n: ServedTool(s, getattr(handlers, handler_name(s), forwarded))
        for n, s in needed.items()
    }
    for d in served:
        if d.get("_meta", {}).get("version") != specs[d["name"]].version:
            raise ValueError(f"{d['name']}: tools.json and the registry disagree")
        named = labels(d.get("inputSchema", {}))
        items = made[d["name"]].items_arg
        if specs[d["name"]].multi_item and items is not None and items not in named:
            # The question shows the set it confirms (guide §10), labelled or not.
            named = {items: items, **named}
        made[d["name"]].labels = named
        made[d["name"]].content = DeclaredContent(d.get("_meta", {}).get("content"))
        output = d.get("outputSchema", {})
        if (data := success_data(output)) is not None:  # either published form (0106)
            made[d["name"]].formats = FormatCheck(data, output.get("$defs", {}))
    proxies = Proxies({n: made[n] for n in proxied}, served)
    calls = ToolCalls(
        {n: made[n] for n in specs if n not in proxied},
        {
            s.name: made[s.pre_validation.tool]
            for s in specs.values()
            if s.pre_validation is not None
        },
        states,
    )
    observers: list[Observer] = [] if observer is None else [observer]
    registry = None
    if metrics:
        recorder, registry = prometheus_observer()
        observers.append(recorder)
    calls.hooks = proxies.hooks = CallHooks(tuple(observers), audit)
    extensions = Extensions(resources, resource_templates, prompts, complete)
    calls.levels = extensions.levels
    has_res = extensions.serves_resources
    listing = types.ListToolsResult(
        tools=[types.Tool.model_validate(d) for d in served]
    )
    input_schemas = {d["name"]: d["inputSchema"] for d in served}

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if not proxied:
            return listing
        proxies.changes.listed(ctx)
        return types.ListToolsResult(
            tools=[t for t in listing.tools if proxies.serves(t.name)]
        )

    call_tool: CallTool = (
        routed(proxies, calls.call_tool) if proxied else calls.call_tool
    )
    with warnings.catch_warnings():  # logging/setLevel: deprecated at 2026-07-28
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        built = (ChangingServer if proxied else Server)(
            name,
            version=version,
            instructions=instructions,
            get_tool_input_schema=input_schemas.get,
            on_list_tools=list_tools,
            # The SDK's runner takes a handler's wire dict as well as a model (it dumps
            # a model to that dict, then validates either for the negotiated version);
            # `on_call_tool`'s annotation names only the models (decision 0128).
            on_call_tool=cast(Any, call_tool),
            lifespan=proxies.lifespan,  # opens the origins, if any
            on_set_logging_level=extensions.set_level,
            on_list_resources=extensions.list_resources if has_res else None,
            on_list_resource_templates=extensions.list_templates if has_res else None,
            on_read_resource=extensions.read_resource if has_res else None,
            on_subscribe_resource=extensions.subscribe if has_res else None,
            on_unsubscribe_resource=extensions.unsubscribe if has_res else None,
            on_list_prompts=extensions.list_prompts if prompts else None,
            on_get_prompt=extensions.get_prompt if prompts else None,
            on_completion=extensions.completion if complete is not None else None,
            on_subscriptions_listen=proxies.changes.listen if proxied else None,
        )
    if isinstance(built, ChangingServer):
        built.changes = proxies.changes
    versions = {n: s.version for n, s in specs.items()}
    register(built, Served(name, version, versions, registry, proxies.reachable))
    return built


async def serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(server: Server[Any]) -> None:
    """Serve on stdin/stdout until the client closes them."""
    settle_start_up()
    anyio.run(serve_stdio, server)
