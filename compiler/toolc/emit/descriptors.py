"""What `tools/list` publishes for each tool, and the contract document that records everything a
caller depends on (what `toolc diff` and the version guard compare)."""

from __future__ import annotations

from typing import Any

import msgspec

from toolc.contract.canonical import sha256
from toolc.contract.framework import ENVELOPE_VERSION
from toolc.emit.schemas import input_schema, origin_output_schema, output_schema
from toolc.model import ToolDecl
from toolc.model.portable import portable as portable_form


def display_title(tool: ToolDecl) -> str:
    """The declared title, or one made from the name: `cancelar_pedidos` → `Cancelar pedidos`."""
    if tool.decl.title:
        return tool.decl.title
    words = tool.name.replace("_", " ").replace("-", " ").replace(".", " ").split()
    text = " ".join(words)
    return text[:1].upper() + text[1:]


# The `_meta` key of a descriptor's digest (decision 0062): reverse-DNS prefixed, as MCP asks of
# keys that are not its own, so no client mistakes it for a field of the protocol.
DIGEST_KEY = "dev.toolc/sha256"
# The `_meta` key saying a tool answers with its origin's result, not an envelope (decision 0084).
PROXIED_KEY = "dev.toolc/proxied"

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def tool_annotations(tool: ToolDecl) -> dict[str, Any]:
    """The MCP annotations: derived from the operation type (read-only, or destructive), then
    each hint the tool states in `annotations:` as stated (the checks refuse one that
    contradicts the operation type). Hints neither derived nor stated are left out: clients
    apply MCP's defaults."""
    read_only = tool.operation_type == "read_only"
    hints: dict[str, Any] = {"readOnlyHint": read_only}
    if not read_only:
        hints["destructiveHint"] = True
    stated = tool.decl.annotations
    if stated is not None:
        hints.update(msgspec.to_builtins(stated))  # the hints it states (unset: None, left out)
    return {"title": display_title(tool), **{k: hints[k] for k in HINTS if k in hints}}


# The content kinds in the order the server sends them (decision 0057), and what a tool that
# declares none may return: neither is published for it (decision 0058).
CONTENT_KINDS = ("image", "audio", "resource_link", "resource")
DEFAULT_CONTENT = {"image": ["image/*"]}


def declared_content(tool: ToolDecl) -> dict[str, list[str]] | None:
    """The tool's `content:` (kind → media types, kinds in sending order), or None when it
    declares nothing beyond the default."""
    stated = tool.decl.content
    if stated is None:
        return None
    kinds = {k: list(v) for k in CONTENT_KINDS if (v := getattr(stated, k))}
    return None if kinds == DEFAULT_CONTENT else kinds


def descriptor(
    tool: ToolDecl, types: dict[str, Any], validates: list[str], portable: bool = False
) -> dict[str, Any]:
    """The tool as `tools/list` publishes it (the MCP `Tool` object, wire names). `_meta`
    carries the SHA-256 of the canonical JSON (RFC 8785) of everything else, so a client or a
    gateway can pin the exact tool it reviewed. With `portable` its inputSchema and
    outputSchema are in the portable form (decisions 0075, 0106): what is served, hashed and
    recorded is that one form."""
    arguments = input_schema(tool, types)
    output = output_schema(tool, types, validates)
    published: dict[str, Any] = {
        "name": tool.name,
        "title": display_title(tool),
        "description": tool.decl.description,
        "inputSchema": portable_form(arguments) if portable else arguments,
        "outputSchema": portable_form(output) if portable else output,
        "annotations": tool_annotations(tool),
    }
    meta: dict[str, Any] = {"version": tool.decl.version, "envelopeVersion": ENVELOPE_VERSION}
    if tool.decl.proxy is not None:  # the origin's answer, unwrapped (decision 0084)
        published.pop("outputSchema")
        if (origin := origin_output_schema(tool, types)) is not None:
            published["outputSchema"] = origin
        meta = {"version": tool.decl.version, PROXIED_KEY: True}
    if (content := declared_content(tool)) is not None:
        meta["content"] = content
    return {**published, "_meta": {**meta, DIGEST_KEY: sha256(published)}}


def contract(
    tool: ToolDecl, published: dict[str, Any], handler: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The canonical record of the tool's contract: the descriptor without `_meta`, the policy,
    the error catalogue, whether it is served and by which `mcp_server`, the envelope
    version; the declared content, media types sorted, only when the tool declares more than
    the default (decision 0058); and for a tool whose callers send another form, the
    arguments its pre-validator must resolve to (decision 0054). Both only then, so no
    other tool's fingerprint moves."""
    pre = tool.policy.pre_validation if tool.policy is not None else None
    # New keys only when declared, so no other tool's fingerprint moves.
    timeout = tool.policy.handler_timeout_seconds if tool.policy is not None else None
    errors = {
        code: {
            "retryable": bool(spec.retryable),
            **({"hint": spec.hint} if spec.hint is not None else {}),
        }
        for code, spec in sorted((tool.decl.errors or {}).items())
    }
    document: dict[str, Any] = {
        "tool": {k: v for k, v in published.items() if k != "_meta"},
        "policy": {
            "operation_type": tool.operation_type,
            "require_confirmation": tool.require_confirmation,
            "pre_validation": None
            if pre is None
            else {
                "tool": pre.tool,
                "enabled": pre.enabled is not False,
                "fail_open": bool(pre.fail_open),
            },
            **({} if timeout is None else {"handler_timeout_seconds": timeout}),
        },
        "errors": errors,
        "multi_item": None
        if (multi := tool.decl.multi_item) is None
        else {
            "workflow": bool(multi.workflow),
            **({} if multi.operation_id is None else {"operation_id": multi.operation_id}),
        },
        "unknown_args": tool.decl.unknown_args or "ignore",
        "enabled": tool.enabled,
        # Where callers find the tool (decision 0144). Not in the `contract` fingerprint: the
        # snapshot line records it as `server`, so fingerprints made before it stay valid.
        "mcp_server": tool.decl.mcp_server,
        "envelope_version": ENVELOPE_VERSION if tool.decl.proxy is None else None,
        **(
            {}
            if (content := declared_content(tool)) is None
            else {"content": {kind: sorted(media) for kind, media in content.items()}}
        ),
    }
    if handler is not None:
        document["handler_input_schema"] = handler
    if tool.ceiling is not None:  # only then, so no other tool's fingerprint moves (0080)
        document["response_ceiling_bytes"] = tool.ceiling
    if tool.decl.proxy is not None:  # the origin tool, not where it runs (a setting)
        document["proxied"] = {"tool": tool.decl.proxy.tool, "version": tool.decl.version}
    return document
