"""The typed model of the reference docs, read from what the build publishes: each served
tool's descriptor in `tools.json` (version, title, description, schemas, annotations) and its
contract in `contracts/` (policy, error catalogue). Nothing comes from tools.yaml directly, so
the docs say exactly what an agent is served and cannot drift from it (decision 0064)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import msgspec

from toolc.contract.framework import FRAMEWORK_ERRORS, success_data
from toolc.contract.reserve import reserve_bytes
from toolc.diagnostics.printable import code_span
from toolc.reference.examples import example
from toolc.reference.markdown import inline
from toolc.reference.schema_text import Field, fields, literal, type_text


class Argument(msgspec.Struct, frozen=True):
    name: str
    type: str
    required: bool
    default: str  # the JSON literal, or "" when none is declared
    label: str
    user_prompt: str
    description: str


class ErrorCode(msgspec.Struct, frozen=True):
    code: str
    domain: bool  # declared by the tool, not one of the framework's own
    retryable: str  # "yes", "no", or "varies" (the framework decides per failure)
    hint: str


class Policy(msgspec.Struct, frozen=True):
    operation_type: str
    confirmation: bool
    pre_validator: str  # the tool's name, or ""
    fail_open: bool
    unknown_args: str  # the contract's mode: "ignore" or "forbid"
    unknown: str  # what the published inputSchema does with them, in words


class ToolDoc(msgspec.Struct, frozen=True):
    name: str
    version: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    result: tuple[Field, ...]
    multi_item: bool
    errors: tuple[ErrorCode, ...]
    policy: Policy
    hints: tuple[tuple[str, str], ...]  # the published MCP annotations, title aside
    content: tuple[tuple[str, str], ...]  # declared content kind → its media types, in order
    example: str  # example arguments as pretty JSON, or "" when the schemas offer none
    proxied: str = ""  # the origin tool of a proxied tool (decision 0084), or ""
    ceiling: int | None = None  # its response ceiling in bytes, envelope included
    budget: int | None = None  # the ceiling less the envelope's reserve: the data's bytes


class ServerDoc(msgspec.Struct, frozen=True):
    name: str
    tools: tuple[ToolDoc, ...]  # by name
    default_ceiling: int | None = None  # `servers.<name>.response_ceiling_bytes`


def servers(
    files: Mapping[str, bytes],
    served_by: Mapping[str, str],
    defaults: Mapping[str, int] | None = None,
) -> tuple[ServerDoc, ...]:
    """The reference of each mcp_server that serves a tool, by name: `files` are the package's
    (`tools.json`, `contracts/*.json`), `served_by` each enabled tool's server, `defaults`
    each server's default response ceiling (not published: the config's)."""
    listed = json.loads(files["tools.json"])["tools"]
    by_server: dict[str, list[ToolDoc]] = {}
    for published in sorted(listed, key=lambda d: d["name"]):
        name = published["name"]
        contract = json.loads(files[f"contracts/{name}.json"])
        by_server.setdefault(served_by[name], []).append(_tool(published, contract))
    found = defaults or {}
    return tuple(
        ServerDoc(name, tuple(by_server[name]), found.get(name)) for name in sorted(by_server)
    )


def _tool(published: dict[str, Any], contract: dict[str, Any]) -> ToolDoc:
    inputs = published["inputSchema"]
    output = published.get("outputSchema", {})
    defs = {**inputs.get("$defs", {}), **output.get("$defs", {})}
    found = success_data(output)  # in either published form (decision 0106)
    data = {} if found is None else found
    proxied = str(contract.get("proxied", {}).get("tool", ""))
    if proxied:  # no envelope: the outputSchema is the origin's structured content
        data = {k: v for k, v in output.items() if k != "$defs"}
    ceiling = contract.get("response_ceiling_bytes")
    hints = tuple(
        (key, literal(value))
        for key, value in published.get("annotations", {}).items()
        if key != "title"
    )
    return ToolDoc(
        name=published["name"],
        version=published["_meta"]["version"],
        title=published.get("title", ""),
        description=published.get("description", ""),
        arguments=_arguments(inputs),
        result=tuple(fields(data, "" if proxied else "data", defs)),
        multi_item=contract.get("multi_item") is not None,
        errors=() if proxied else _errors(output, contract.get("errors", {})),
        policy=_policy(contract, inputs),
        hints=hints,
        content=tuple(
            (kind, ", ".join(media))
            for kind, media in published["_meta"].get("content", {}).items()
        ),
        example=example(inputs),
        proxied=proxied,
        ceiling=ceiling,
        budget=None
        if ceiling is None
        else max(0, ceiling - _reserve(published, contract, ceiling)),
    )


def _reserve(published: dict[str, Any], contract: dict[str, Any], ceiling: int) -> int:
    """The envelope's worst case around the data, as the build gives the handler."""
    errors = {
        code: (bool(spec.get("retryable")), spec.get("hint"))
        for code, spec in sorted(contract.get("errors", {}).items())
    }
    multi = contract.get("multi_item") is not None
    return reserve_bytes(published["name"], published["_meta"]["version"], multi, errors, ceiling)


def _arguments(inputs: dict[str, Any]) -> tuple[Argument, ...]:
    required = set(inputs.get("required", ()))
    return tuple(
        Argument(
            name,
            type_text(schema),
            name in required,
            literal(notes["default"]) if "default" in notes else "",
            str(notes.get("x-toolc-label", "")),
            str(notes.get("x-toolc-user-prompt", "")),
            str(notes.get("description", "")),
        )
        for name, schema in sorted(inputs.get("properties", {}).items())
        for notes in [schema if isinstance(schema, dict) else {}]  # `true`/`false`: no notes
    )


def _errors(output: dict[str, Any], domain: dict[str, Any]) -> tuple[ErrorCode, ...]:
    """Every code the tool's envelope may carry (its published enum): the tool's own first,
    then the framework's, each by name."""
    info = output.get("$defs", {}).get("envelope.ErrorInfo", {})
    codes = info.get("properties", {}).get("code", {}).get("enum", [*domain, *FRAMEWORK_ERRORS])
    own = sorted(c for c in codes if c in domain)
    framework = sorted(c for c in codes if c not in domain)
    found = [
        ErrorCode(c, True, "yes" if domain[c].get("retryable") else "no", domain[c].get("hint", ""))
        for c in own
    ]
    for code in framework:
        retryable, hint = FRAMEWORK_ERRORS.get(code, (None, None))
        said = "varies" if retryable is None else "yes" if retryable else "no"
        found.append(ErrorCode(code, False, said, hint or ""))
    return tuple(found)


def _policy(contract: dict[str, Any], inputs: dict[str, Any]) -> Policy:
    policy = contract.get("policy", {})
    pre = policy.get("pre_validation") or {}
    mode = str(contract.get("unknown_args", "ignore"))
    return Policy(
        operation_type=str(policy.get("operation_type", "")),
        confirmation=bool(policy.get("require_confirmation")),
        pre_validator=str(pre.get("tool", "")) if pre.get("enabled", True) else "",
        fail_open=bool(pre.get("fail_open")),
        unknown_args=mode,
        unknown=_unknown(inputs, mode),
    )


def _unknown(inputs: dict[str, Any], mode: str) -> str:
    """What a call's argument outside `properties` meets: the published root decides (the
    model checks it before `ignore` drops anything), so `unevaluatedProperties: false` from
    args_keywords refuses it even where the contract says `ignore`. `additionalProperties`
    leaves `unevaluatedProperties` nothing to see."""
    rest = inputs.get("additionalProperties", inputs.get("unevaluatedProperties", True))
    if mode == "forbid" or rest is False:
        said = "refused"
    elif type_text(rest) == "any":
        said = "ignored"
    else:
        said = f"ignored when each is {type_text(rest)}, else refused"
    patterns = inputs.get("patternProperties")
    notes = [
        f"a name matching {code_span(pattern)} must be {inline(type_text(schema))}"
        for pattern, schema in (patterns.items() if isinstance(patterns, dict) else ())
    ]
    names = inputs.get("propertyNames")
    if isinstance(names, dict) and isinstance(names.get("pattern"), str):
        notes.append(f"every name must match {code_span(names['pattern'])}")
    return f"{said} ({'; '.join(notes)})" if notes else said
