"""One listed tool as a tools.yaml entry (and its policy): name, title, description and hints
kept; MCP's annotation defaults made explicit (`readOnlyHint: true` → `tool_type: query`,
otherwise `action`, confirmed when `destructiveHint` is true or absent, the spec's default);
the version from `_meta`; the schemas through `adopt.dialect` and `adopt.schemas`. A key with
no source gets a marked placeholder; what toolc has no key for is dropped and named. Imported as
proxied (`proxy`: the origin's `command` or `url`), the tool names its origin tool and asks for
no confirmation: a proxied tool answers with the origin's result, never an envelope."""

from __future__ import annotations

import re
from typing import Any

import msgspec
from msgspec import field

from toolc.adopt.dialect import DRAFT_07, DRAFT_2020_12, Notes, translate
from toolc.adopt.schemas import NotCarried, Types, returns_of, split_root

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
PLACEHOLDER = "TODO(toolc import)"
_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?"
    r"(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"
)
_KEPT = {"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"}


class Translated(msgspec.Struct, dict=True):
    name: str
    body: dict[str, Any]
    policy: dict[str, Any] | None
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (code, message)
    placeholders: dict[str, str] = field(default_factory=dict)  # key → why it is made up


def _dialect(schema: dict[str, Any], what: str, tool: Translated) -> tuple[Any, bool]:
    """`schema` in 2020-12, and whether it was draft-07."""
    stated = schema.get("$schema")
    if stated is not None and stated not in DRAFT_07 + DRAFT_2020_12:
        raise NotCarried(
            f"{what}/$schema: the dialect {stated!r} (toolc reads draft-07 and 2020-12)"
        )
    draft07 = stated in DRAFT_07
    body = {k: v for k, v in schema.items() if k != "$schema"}
    notes: Notes = []
    out = translate(body, draft07, body, notes, [])
    for at, message in notes:
        tool.warnings.append(("import-not-carried", f"tool '{tool.name}' {what}{at}: {message}"))
    return out, draft07


def translate_tool(
    data: dict[str, Any], server: str, types: Types, draft: list[str],
    origin: dict[str, Any] | None = None,
) -> Translated:  # fmt: skip
    """The tool's entry; `draft` collects the schemas found in draft-07; with `origin` (the
    `command` or `url` of the `proxy:` key) the tool is proxied to its namesake there."""
    name = data["name"]
    tool = Translated(name, {}, None)
    body = tool.body
    meta: dict[str, Any] = data["_meta"] if isinstance(data.get("_meta"), dict) else {}
    version = meta.get("version")
    if isinstance(version, str) and _SEMVER.match(version):
        body["version"] = version
    else:
        body["version"] = "1.0.0"
        if version is not None:
            tool.placeholders["version"] = f"_meta.version {version!r} is no semantic version"
    annotations = data.get("annotations") if isinstance(data.get("annotations"), dict) else {}
    assert isinstance(annotations, dict)
    title = data.get("title") or annotations.get("title")
    if isinstance(title, str) and title:
        body["title"] = title
    if data.get("title") and annotations.get("title") not in (None, data["title"]):
        tool.warnings.append(
            (
                "import-not-carried",
                f"tool '{name}': dropped annotations.title "
                "(toolc publishes the tool's title there)",
            )
        )
    description = data.get("description")
    if isinstance(description, str) and description.strip():
        body["description"] = description
    else:
        body["description"] = f"{PLACEHOLDER}: describe what {name} does and when to use it."
        tool.placeholders["description"] = "the tool has no description"
    body["mcp_server"] = server
    _operation(tool, annotations, origin is not None)
    for key in ("inputSchema", "outputSchema"):
        schema = data.get(key)
        if schema is None and key == "outputSchema":
            continue
        if not isinstance(schema, dict):
            raise NotCarried(f"/{key}: not a JSON Schema object")
        translated, draft07 = _dialect(schema, f"/{key}", tool)
        if draft07:
            draft.append(key)
        if key == "inputSchema":
            body.update(
                split_root(
                    translated,
                    types,
                    f"/{key}",
                    lambda at, m: tool.warnings.append(
                        ("import-not-carried", f"tool '{name}' {at}: {m}")
                    ),
                    # a proxied tool publishes the origin's schema as it is: nothing dropped
                    keep_defaults=origin is not None,
                )
            )
        else:
            body["returns"] = returns_of(translated, types, f"/{key}")
    dropped = sorted(k for k in data if k not in _KEPT)
    dropped += [f"_meta.{k}" for k in meta if k != "version"]
    if dropped:
        tool.warnings.append(
            (
                "import-not-carried",
                f"tool '{name}': dropped {', '.join(dropped)} (toolc's config has no key for them)",
            )
        )
    if origin is not None:
        body["proxy"] = {"tool": name, **origin}
    return tool


def _operation(tool: Translated, annotations: dict[str, Any], proxied: bool) -> None:
    hints = {k: annotations[k] for k in HINTS if isinstance(annotations.get(k), bool)}
    # A hint that is no boolean (`"true"`) is none MCP defines: MCP's default stands for it
    # (a confirmation the server may have meant to spare), so it is named, as are other keys.
    odd = [
        f"annotations.{k} {annotations[k]!r} (not a boolean)"
        for k in HINTS
        if k in annotations and k not in hints
    ]
    odd += [f"annotations.{k} (no MCP hint)" for k in annotations if k not in (*HINTS, "title")]
    if odd:
        tool.warnings.append(
            (
                "import-not-carried",
                f"tool '{tool.name}': dropped {', '.join(odd)}: MCP's defaults stand for the hints",
            )
        )
    read_only = hints.get("readOnlyHint") is True
    if read_only and hints.get("destructiveHint") is True:
        del hints["destructiveHint"]
        tool.warnings.append(
            (
                "import-not-carried",
                f"tool '{tool.name}': dropped destructiveHint "
                "true beside readOnlyHint true (MCP: it only means something for "
                "a tool that writes)",
            )
        )
    body = tool.body
    body["tool_type"] = "query" if read_only else "action"
    if not read_only:
        if hints.get("destructiveHint", True) and proxied:
            tool.warnings.append(
                (
                    "import-not-carried",
                    f"tool '{tool.name}': destructive, but a proxied tool asks for no "
                    "confirmation (its origin's answer is forwarded as it is): calls reach "
                    "the origin unconfirmed",
                )
            )
        elif hints.get("destructiveHint", True):
            tool.policy = {"operation_type": "transactional", "require_confirmation": True}
        else:
            body["confirmation_required"] = False  # stated: it only adds
    if hints:
        body["annotations"] = hints
