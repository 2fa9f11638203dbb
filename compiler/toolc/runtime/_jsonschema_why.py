"""Where a value fails a published schema, for an error a user can read: the JSON
pointer of the failing value, the keyword that refused it and where that keyword sits
in the schema. Run only once the evaluator has said "invalid" (so it costs nothing on
valid data); it descends where one subschema decides (`$ref`, `allOf`, the branch `if`
took, `dependentSchemas`, properties and items) and stops at a keyword that judges the
value as a whole (`anyOf`, `oneOf`, `not`, `contains`, `unevaluated*`)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from ._jsonschema_eval import Evaluator, segment

Where = tuple[str, str, str]  # instance pointer, schema pointer, keyword
_ASSERTIONS = (
    "type", "const", "enum", "multipleOf", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
    "uniqueItems", "minProperties", "maxProperties", "required", "dependentRequired",
)  # fmt: skip


def _seg(name: Any) -> str:
    return str(name).replace("~", "~0").replace("/", "~1")


def why(ev: Evaluator, schema: Any, value: Any, at: str = "", s_at: str = "") -> Where:
    """The first place `value` fails `schema` (which it is known to fail)."""
    if not isinstance(schema, dict):
        return at, s_at, "false"
    for key in _ASSERTIONS:
        if key in schema and not ev.holds(schema, key, value):
            return at, f"{s_at}/{key}", key
    if "$ref" in schema and not ev.valid(ev.resolve(schema["$ref"]), value):
        return why(
            ev, ev.resolve(schema["$ref"]), value, at, schema["$ref"].lstrip("#")
        )
    for i, sub in enumerate(schema.get("allOf", ())):
        if not ev.valid(sub, value):
            return why(ev, sub, value, at, f"{s_at}/allOf/{i}")
    for key in ("anyOf", "oneOf", "not"):
        if key in schema and not _logic(ev, key, schema[key], value):
            return at, f"{s_at}/{key}", key
    if "if" in schema:
        branch = "then" if ev.valid(schema["if"], value) else "else"
        if not ev.valid(schema.get(branch, True), value):
            return why(ev, schema[branch], value, at, f"{s_at}/{branch}")
    if isinstance(value, dict):
        found = _object(ev, schema, value, at, s_at)
        if found is not None:
            return found
    if isinstance(value, list):
        found = _array(ev, schema, value, at, s_at)
        if found is not None:
            return found
    for key in ("unevaluatedProperties", "unevaluatedItems"):
        if key in schema:
            return at, f"{s_at}/{key}", key
    return at, s_at, "schema"


# The keywords that judge a value as a whole, judged alone. Not through a schema made
# for the occasion: the evaluator memoizes by node, and would keep each one.
def _logic(ev: Evaluator, key: str, subs: Any, value: Any) -> bool:
    if key == "not":
        return not ev.valid(subs, value)
    passed = sum(1 for sub in subs if ev.valid(sub, value))
    return passed >= 1 if key == "anyOf" else passed == 1


def _contained(ev: Evaluator, s: dict[str, Any], v: list[Any]) -> bool:
    found = sum(1 for item in v if ev.valid(s["contains"], item))
    return bool(s.get("minContains", 1) <= found <= s.get("maxContains", len(v)))


def _object(
    ev: Evaluator, s: dict[str, Any], v: dict[str, Any], at: str, s_at: str
) -> Where | None:
    for name, sub in s.get("dependentSchemas", {}).items():
        if name in v and not ev.valid(sub, v):
            return why(ev, sub, v, at, f"{s_at}/dependentSchemas/{_seg(name)}")
    props, patterns = s.get("properties", {}), s.get("patternProperties", {})
    for name, item in v.items():
        here = f"{at}/{_seg(name)}"
        matched = name in props
        if matched and not ev.valid(props[name], item):
            return why(ev, props[name], item, here, f"{s_at}/properties/{_seg(name)}")
        for pattern, sub in patterns.items():
            if ev._search(pattern, name):
                matched = True
                if not ev.valid(sub, item):
                    return why(
                        ev, sub, item, here, f"{s_at}/patternProperties/{_seg(pattern)}"
                    )
        extra = s.get("additionalProperties", True)
        if not matched and not ev.valid(extra, item):
            return why(ev, extra, item, here, f"{s_at}/additionalProperties")
        if "propertyNames" in s and not ev.valid(s["propertyNames"], name):
            return here, f"{s_at}/propertyNames", "propertyNames"
    return None


def _array(
    ev: Evaluator, s: dict[str, Any], v: list[Any], at: str, s_at: str
) -> Where | None:
    prefix = s.get("prefixItems", ())
    for index, item in enumerate(v):
        where = (
            f"{s_at}/prefixItems/{index}" if index < len(prefix) else f"{s_at}/items"
        )
        sub = prefix[index] if index < len(prefix) else s.get("items", True)
        if not ev.valid(sub, item):
            return why(ev, sub, item, f"{at}/{index}", where)
    if "contains" in s and not _contained(ev, s, v):
        key = next((k for k in ("minContains", "maxContains") if k in s), "contains")
        return at, f"{s_at}/{key}", key
    return None


def schema_error(ctx: dict[str, str]) -> PydanticCustomError:
    """The error of a value the published schema refuses: `ctx` holds the `instance`
    pointer inside the value checked, the failing `value` as JSON, the `keyword` and the
    `schema` (`<document>#<pointer>` of the keyword)."""
    return PydanticCustomError(
        "json_schema",
        ("at {instance}: " if ctx["instance"] else "")
        + "{value} fails `{keyword}` of the published schema ({schema})",
        ctx,
    )


def joined(own: PydanticCustomError, members: ValidationError, value: Any) -> Exception:
    """An object's own check's error (`own`) and its members' (`members`), as one
    error: every independent mistake is reported. Where `own` is about a member that
    reports its own error, that is the same mistake: `members` alone. `own` alone if
    pydantic cannot make one of the members' errors again."""
    errors = members.errors(include_url=False)
    at = str((own.context or {}).get("instance", ""))
    if at:  # a member the object's check judges too (`_rest`: a bounded number)
        name = segment(at.split("/")[1])
        if any(e["loc"][:1] == (name,) for e in errors):
            return members
    details: list[Any] = [{"type": own, "loc": (), "input": value}]
    try:
        for e in errors:
            again = {"type": e["type"], "loc": e["loc"], "input": e["input"]}
            ctx = e.get("ctx")
            if e["type"] == "json_schema" and ctx:  # ours: made again with its text
                again["type"] = schema_error(ctx)
            elif ctx:  # pydantic's own: its type and context make its text
                again["ctx"] = ctx
            details.append(again)
        return ValidationError.from_exception_data(members.title, details)
    except Exception:  # noqa: BLE001 -- an error type pydantic cannot make again
        return own
