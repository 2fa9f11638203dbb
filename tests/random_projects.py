"""Hypothesis strategies for whole projects: tools.yaml and tool_policies.yaml as JSON (which is
YAML 1.2), from the pieces random_configs.py draws. Every tool keyword is drawn (title,
enabled, confirmation_required, args_schema, requires, unknown_args, multi_item, returns,
errors, annotations, content, and `accepts` beside an enabled, fail-closed pre-validation),
`types:`, `bump_policy` and `accepted_breaks`, and every policy keyword (operation_type,
require_confirmation, requires, pre_validation with a validator taking the target's arguments
as its callers send them). Server names are sometimes of the lengths that put server.py's
`create_server` lines at black's limit (`github` beside another server made its `@overload`
too wide once)."""

from __future__ import annotations

import json
import re
import string
from typing import Any

from hypothesis import strategies as st
from random_configs import TEXT, Schemas, distinct, names
from toolc.model.naming import pascal, snake

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def _create_server_widths(server: str) -> tuple[int, int]:
    """How wide server.py's `create_server` lines are for `server` on one line: its
    `@overload` beside other servers, and its definition when it is the only one."""
    cls = pascal(server) + "Handlers"
    overload = (
        f'def create_server(handlers: {cls}, server: Literal["{server}"]) -> Server[Any]: ...'
    )
    single = f'def create_server(handlers: {cls}, server: ServerName = "{server}") -> Server[Any]:'
    return len(overload), len(single)


# Names whose lines are 86 to 91 columns (`github` is 89 with its overload's ` ...`).
EDGE_SERVERS = [
    s
    for s in ["github", *("s" * n for n in range(1, 65)), *("s" * n + "_x" for n in range(1, 63))]
    if any(86 <= w <= 91 for w in _create_server_widths(s))
]


def _annotations(draw: st.DrawFn, tool_type: str) -> dict[str, Any]:
    """Stated MCP hints, agreeing with the operation type (else `annotation-contradiction`)."""
    hints = {h: draw(st.booleans()) for h in HINTS if draw(st.booleans())}
    if "readOnlyHint" in hints:
        hints["readOnlyHint"] = tool_type == "query"
    if tool_type == "query" and "destructiveHint" in hints:
        hints["destructiveHint"] = False
    return hints


def _policy(draw: st.DrawFn, tool: dict[str, Any]) -> dict[str, Any]:
    """A policy agreeing with the tool (else `operation-type-mismatch` and the like)."""
    policy: dict[str, Any] = {}
    if draw(st.booleans()):
        policy["operation_type"] = "read_only" if tool["tool_type"] == "query" else "transactional"
    if draw(st.booleans()):
        policy["require_confirmation"] = tool.get("confirmation_required", draw(st.booleans()))
    if "requires" in tool and draw(st.booleans()):
        policy["requires"] = tool["requires"]
    return policy


def _validator(draw: st.DrawFn, tool: dict[str, Any]) -> dict[str, Any]:
    """A pre-validator of `tool`: the same server and arguments, so it accepts every call."""
    validator: dict[str, Any] = {
        "version": "1.0.0",
        "description": draw(TEXT),
        "mcp_server": tool["mcp_server"],
        "tool_type": "query",
    }
    for key in ("args_schema", "requires", "unknown_args"):
        if key in tool:
            validator[key] = tool[key]
    if "accepts" in tool:  # it is sent what callers send
        validator["args_schema"] = {**tool["args_schema"], **tool["accepts"]}
    return validator


def _free(name: str, tools: dict[str, Any]) -> bool:
    """Whether a tool `name` would clash with none of `tools` in its Python forms."""
    return all(f(name) not in {f(t) for t in tools} for f in (snake, pascal))


def _tool(draw: st.DrawFn, schemas: Schemas, servers: list[str]) -> dict[str, Any]:
    args_names = distinct(
        draw(st.lists(st.one_of(TEXT.map(lambda s: s[:64]), names()), max_size=4)), (snake,)
    )
    args = {a: schemas.schema(1) for a in args_names}
    tool: dict[str, Any] = {
        "version": draw(st.sampled_from(["1.0.0", "0.1.0", "2.10.3-rc.1+b.5"])),
        "description": draw(TEXT),
        "mcp_server": draw(st.sampled_from(servers)),
        "tool_type": draw(st.sampled_from(["query", "action"])),
    }
    if draw(st.booleans()):
        tool["title"] = draw(TEXT)
    if draw(st.integers(0, 5)) == 0:
        tool["enabled"] = False
    if tool["tool_type"] == "action" and draw(st.booleans()):
        tool["confirmation_required"] = True
    if args:
        tool["args_schema"] = args
        tool["requires"] = [a for a in args if draw(st.booleans())]
    if draw(st.booleans()):
        tool["unknown_args"] = draw(st.sampled_from(["ignore", "forbid"]))
    if draw(st.integers(0, 3)) == 0:
        item = schemas.object(2)
        item["type"] = "object"
        item.setdefault("properties", {})["ok"] = {"type": "boolean"}
        item["required"] = [*item.get("required", []), "ok"]
        item.pop("additionalProperties", None)
        tool["multi_item"] = {"item": item, "workflow": draw(st.booleans())}
    elif draw(st.booleans()):
        tool["returns"] = schemas.object(1) if draw(st.booleans()) else schemas.schema(1)
    codes = draw(st.lists(st.from_regex(r"[A-Z][A-Z0-9_]{0,40}", fullmatch=True), max_size=3))
    if codes:
        tool["errors"] = {
            c: {"description": draw(TEXT), "retryable": draw(st.booleans()), "hint": draw(TEXT)}
            for c in codes
        }
    if draw(st.integers(0, 2)) == 0:
        tool["annotations"] = _annotations(draw, tool["tool_type"])
    if draw(st.integers(0, 3)) == 0:
        tool["content"] = _content(draw)
    return tool


_MEDIA = {
    "image": ["image/png", "image/*", "image/svg+xml"],
    "audio": ["audio/wav", "audio/*"],
    "resource_link": ["application/pdf", "*/*", "text/*"],
    "resource": ["text/plain", "application/json", "*/*"],
}


def _content(draw: st.DrawFn) -> dict[str, Any]:
    """A `content:` declaration: some kinds (maybe none), each with distinct media types."""
    kinds = draw(st.lists(st.sampled_from(sorted(_MEDIA)), unique=True, max_size=4))
    return {k: draw(st.lists(st.sampled_from(_MEDIA[k]), min_size=1, unique=True)) for k in kinds}


def _types(draw: st.DrawFn, schemas: Schemas) -> dict[str, Any]:
    identifiers = st.tuples(
        st.sampled_from(string.ascii_letters + "_"),
        names(0, 63).map(lambda rest: "".join(c if c.isalnum() else "_" for c in rest)),
    ).map("".join)
    type_names = distinct(draw(st.lists(identifiers, max_size=3)), (pascal,))
    types: dict[str, Any] = {}
    for name in type_names:  # each may use the ones before it
        types[name] = schemas.schema(1)
        schemas.types[name] = schemas.published(types[name])
        schemas.type_names.append(name)
    if type_names and draw(st.booleans()):  # a recursive type, through properties
        name = type_names[0] + "Tree"
        if pascal(name) not in {pascal(n) for n in types}:
            ref = {"$ref": f"#/types/{name}"}
            tree: dict[str, Any] = {
                "type": "object",
                "properties": {"child": ref, "children": {"type": "array", "items": ref}},
            }
            if draw(st.booleans()):
                tree["properties"]["child"] = {**ref, "default": {}}
            types[name] = tree
            schemas.types[name] = schemas.published(tree)
            schemas.type_names.append(name)
    return types


@st.composite
def projects(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """tools.yaml's content, and tool_policies.yaml's (None: no such file)."""
    schemas = Schemas(draw, [])
    types = _types(draw, schemas)
    servers = distinct(
        draw(st.lists(st.one_of(names(), st.sampled_from(EDGE_SERVERS)), min_size=1, max_size=3)),
        (pascal,),
    )
    tool_names = distinct(draw(st.lists(names(), min_size=1, max_size=4)), (snake, pascal))
    tools = {name: _tool(draw, schemas, servers) for name in tool_names}
    policies: dict[str, Any] = {}
    for name in tool_names:
        if draw(st.integers(0, 2)) == 0:
            policies[name] = _policy(draw, tools[name])
        validator = f"{name}_pv"
        if draw(st.integers(0, 2)) == 0 and _free(validator, tools):
            check: dict[str, Any] = {"tool": validator}
            if draw(st.booleans()):
                check["fail_open"] = draw(st.booleans())
            if draw(st.booleans()):
                check["enabled"] = draw(st.booleans())
            args = list(tools[name].get("args_schema", {}))
            resolving = check.get("fail_open") is not True and check.get("enabled") is not False
            if resolving and args and draw(st.integers(0, 3)) > 0:  # callers send another form
                sent = draw(st.lists(st.sampled_from(args), min_size=1, unique=True))
                tools[name]["accepts"] = {a: schemas.schema(1) for a in sent}
            tools[validator] = _validator(draw, tools[name])
            policies.setdefault(name, {})["pre_validation"] = check
    config: dict[str, Any] = {"tools": tools}
    if types:
        config["types"] = types
    if draw(st.integers(0, 3)) == 0:
        config["bump_policy"] = draw(st.sampled_from(["semver", "any"]))
    if draw(st.integers(0, 3)) == 0:  # a break accepted ahead of its release
        broken = draw(st.sampled_from(tool_names))
        config["accepted_breaks"] = [
            {"tool": broken, "from": tools[broken]["version"], "to": "99.0.0",
             "rule": "arg-removed", "reason": draw(TEXT)}
        ]  # fmt: skip
    return config, {"tool_policies": policies} if policies else None


def _astral(match: re.Match[str]) -> str:
    pair = (int(match[1], 16), int(match[2], 16))
    return f"\\U{0x10000 + ((pair[0] - 0xD800) << 10) + (pair[1] - 0xDC00):08x}"


def as_yaml(config: dict[str, Any]) -> str:
    """JSON text, which YAML 1.2 reads as the same values (non-ASCII escaped: YAML forbids
    some characters raw, and every escape reads back; YAML spells a character beyond the BMP
    `\\U0001f600`, not as JSON's surrogate pair)."""
    text = json.dumps(config, ensure_ascii=True, indent=1) + "\n"
    return re.sub(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", _astral, text)
