"""The protocol's handlers for what `create_server` was given besides tools
(server_extensions): resources, resource templates, prompts, completions and
logging/setLevel. Each is registered only when given, so the SDK declares only
those capabilities."""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from .server_client import LogLevels
from .server_content import Image
from .server_extensions import (
    Completer,
    CompletionRef,
    Prompt,
    PromptMessage,
    Resource,
    ResourceTemplate,
)
from .server_sealing import new_error_id

logger = logging.getLogger(__name__)
Context = ServerRequestContext[Any, Any]
T = TypeVar("T")
_MAX_COMPLETIONS = 100  # the protocol's limit per answer
_RESOURCE_NOT_FOUND = -32002  # the spec's code for an unknown resource URI


async def _guarded(what: str, answer: Awaitable[T]) -> T:
    """`answer` from the server's own code (a reader, a renderer, the completer); its
    failure reaches the client as a JSON-RPC internal error naming an errorId, the
    particulars only in the server's log (an exception's text could hold secrets)."""
    try:
        return await answer
    except MCPError:
        raise
    except Exception as exc:
        error_id = new_error_id()
        logger.exception("%s failed (errorId %s)", what, error_id)
        text = f"{what} failed; report errorId {error_id}."
        raise MCPError(types.INTERNAL_ERROR, text) from exc


def _matcher(template: str) -> re.Pattern[str]:
    """An RFC 6570 level-1 template as a regex: each `{name}` one path segment."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts)
    )
    return re.compile(pattern + r"\Z")


def _contents(
    resource: Resource,
) -> types.TextResourceContents | types.BlobResourceContents:
    if resource.blob is not None:
        return types.BlobResourceContents(
            uri=resource.uri,
            blob=base64.b64encode(resource.blob).decode("ascii"),
            mime_type=resource.mime_type,
        )
    return types.TextResourceContents(
        uri=resource.uri, text=resource.text or "", mime_type=resource.mime_type
    )


def _block(
    message: PromptMessage,
) -> types.TextContent | types.ImageContent | types.EmbeddedResource:
    content = message.content
    if isinstance(content, str):
        return types.TextContent(type="text", text=content)
    if isinstance(content, Image):
        return content.block()
    return types.EmbeddedResource(type="resource", resource=_contents(content))


class Extensions:
    """The protocol's handlers for what was given (build_server registers each
    only when its feature was given)."""

    def __init__(
        self,
        resources: Sequence[Resource] = (),
        resource_templates: Sequence[ResourceTemplate] = (),
        prompts: Sequence[Prompt] = (),
        complete: Completer | None = None,
        levels: LogLevels | None = None,
    ) -> None:
        self.resources = {r.uri: r for r in resources}
        self.templates = [(t, _matcher(t.uri_template)) for t in resource_templates]
        self.prompts = {p.name: p for p in prompts}
        self.complete = complete
        self.levels = levels if levels is not None else LogLevels()

    @property
    def serves_resources(self) -> bool:
        return bool(self.resources or self.templates)

    async def set_level(
        self, ctx: Context, params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        self.levels.set(ctx, params.level)
        return types.EmptyResult()

    async def list_resources(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri,
                    name=r.name,
                    title=r.title,
                    description=r.description,
                    mime_type=r.mime_type,
                )
                for r in self.resources.values()
            ]
        )

    async def list_templates(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=t.uri_template,
                    name=t.name,
                    title=t.title,
                    description=t.description,
                    mime_type=t.mime_type,
                )
                for t, _ in self.templates
            ]
        )

    async def read_resource(
        self, ctx: Context, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        found = self.resources.get(uri)
        if found is None:
            for template, matcher in self.templates:
                matched = matcher.match(uri)
                if matched:
                    found = await _guarded(
                        f"Reading {uri}", template.read(uri, matched.groupdict())
                    )
                    break
        if found is None:
            raise MCPError(_RESOURCE_NOT_FOUND, f"Resource not found: {uri}")
        return types.ReadResourceResult(contents=[_contents(found)])

    async def subscribe(
        self, ctx: Context, params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        # Accepted, never notified: the resources given here do not change, so there
        # is no resources/updated to send (decision 0093).
        return types.EmptyResult()

    async def unsubscribe(
        self, ctx: Context, params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        return types.EmptyResult()

    async def list_prompts(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    title=p.title,
                    description=p.description,
                    arguments=[
                        types.PromptArgument(
                            name=a.name, description=a.description, required=a.required
                        )
                        for a in p.arguments
                    ]
                    or None,
                )
                for p in self.prompts.values()
            ]
        )

    async def get_prompt(
        self, ctx: Context, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        prompt = self.prompts.get(params.name)
        if prompt is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}")
        given: Mapping[str, str] = params.arguments or {}
        lacking = [
            a.name for a in prompt.arguments if a.required and a.name not in given
        ]
        if lacking:
            raise MCPError(
                types.INVALID_PARAMS,
                f"Prompt {prompt.name} needs the arguments: {', '.join(lacking)}",
            )
        messages = await _guarded(f"Prompt {prompt.name}", prompt.render(given))
        return types.GetPromptResult(
            description=prompt.description,
            messages=[
                types.PromptMessage(role=m.role, content=_block(m)) for m in messages
            ],
        )

    async def completion(
        self, ctx: Context, params: types.CompleteRequestParams
    ) -> types.CompleteResult:
        assert self.complete is not None
        ref = params.ref
        target = (
            CompletionRef("prompt", ref.name)
            if isinstance(ref, types.PromptReference)
            else CompletionRef("resource", ref.uri)
        )
        chosen = params.context.arguments if params.context else None
        argument = params.argument
        values = list(
            await _guarded(
                "Completion",
                self.complete(target, argument.name, argument.value, chosen or {}),
            )
        )
        return types.CompleteResult(
            completion=types.Completion(
                values=values[:_MAX_COMPLETIONS],
                total=len(values),
                has_more=len(values) > _MAX_COMPLETIONS,
            )
        )
