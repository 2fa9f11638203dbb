"""Handlers of tests/runtime_support/ext and what serve.py gives create_server beside
them (`server_extras`): resources (text, binary, templates, one whose reader fails), prompts (simple, with
arguments, with an image and an embedded resource) and a completion handler."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ext_tools import TrabalharArgs
from ext_tools.server_runtime import (
    ClientRequestUnavailable,
    CompletionRef,
    Image,
    Prompt,
    PromptArgument,
    PromptMessage,
    Resource,
    ResourceTemplate,
    ToolContext,
)

PNG = b"\x89PNG\r\n\x1a\n-not-really"
FORM = {
    "type": "object",
    "properties": {"name": {"type": "string"}},
    "required": ["name"],
}


class Handlers:
    async def trabalhar(self, args: TrabalharArgs, ctx: ToolContext) -> Any:
        mode = str(args.mode.value if hasattr(args.mode, "value") else args.mode)
        if mode == "log":
            for level in ("debug", "info", "warning", "error"):
                await ctx.log(level, {"at": level}, logger="ext")  # type: ignore[arg-type]
            return {"result": "logged"}
        if mode == "progress":
            for step in (1, 2, 3):
                await ctx.progress(step, total=3, message=f"step {step}")
            return {"result": "done"}
        if mode == "sample-uncaught":
            sampled = await ctx.sample("Say hi", max_tokens=10)
            return {"result": sampled.text or ""}
        try:
            if mode == "sample":
                sampled = await ctx.sample(
                    [("user", "Say hi")], max_tokens=10, system_prompt="Be brief"
                )
                return {"result": f"{sampled.model}:{sampled.text}"}
            answer = await ctx.elicit("Your name?", FORM)
            return {"result": f"{answer.action}:{(answer.content or {}).get('name')}"}
        except ClientRequestUnavailable as unavailable:
            return {"result": f"unavailable: {unavailable}"}


async def _item(uri: str, variables: Mapping[str, str]) -> Resource:
    return Resource(uri, f"item {variables['id']}", text=f"item {variables['id']}")


async def _broken(uri: str, variables: Mapping[str, str]) -> Resource:
    raise RuntimeError("reader exploded: secret-token")


async def _simple(arguments: Mapping[str, str]) -> list[PromptMessage]:
    return [PromptMessage("user", "A simple prompt.")]


async def _greet(arguments: Mapping[str, str]) -> list[PromptMessage]:
    return [PromptMessage("user", f"Hello {arguments['name']}, {arguments.get('tone', 'hi')}")]


async def _rich(arguments: Mapping[str, str]) -> list[PromptMessage]:
    return [
        PromptMessage("user", Image(PNG, "image/png")),
        PromptMessage("user", Resource("res://doc", "doc", text="embedded text")),
        PromptMessage("assistant", "Seen."),
    ]


async def _complete(
    ref: CompletionRef, argument: str, value: str, context: Mapping[str, str]
) -> list[str]:
    if ref.kind == "prompt":
        return [n for n in ("ana", "bruno", "bia") if n.startswith(value)]
    return [f"{value}{n}" for n in range(150)]  # more than one answer may carry


def server_extras() -> dict[str, Any]:
    return {
        "resources": [
            Resource("res://readme", "readme", text="read me", mime_type="text/plain"),
            Resource("res://logo", "logo", blob=PNG, mime_type="image/png"),
        ],
        "resource_templates": [
            ResourceTemplate("res://items/{id}", "item", read=_item),
            ResourceTemplate("res://broken/{id}", "broken", read=_broken),
        ],
        "prompts": [
            Prompt("simple", _simple, description="No arguments."),
            Prompt(
                "greet",
                _greet,
                arguments=[PromptArgument("name", required=True), PromptArgument("tone")],
            ),
            Prompt("rich", _rich),
        ],
        "complete": _complete,
    }
