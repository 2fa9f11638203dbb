"""Hypothesis strategies for instances of a JSON Schema in toolc's subset: values built to fit
the schema, and near misses (one thing changed) to probe each rule. Both kinds are judged by the
reference validator in the fidelity test, so a strategy only has to be likely, not exact."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from toolc.model.naming import snake

WRONG = st.sampled_from(["5", 5, 5.5, True, None, [], {}, "", -1, 1e12])


def _resolve(schema: Any, defs: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        extra = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**defs[schema["$ref"].rsplit("/", 1)[-1]], **extra}
    return schema


def valid(schema: Any, defs: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    schema = _resolve(schema, defs)
    if schema is True or schema == {} or not isinstance(schema, dict) or depth > 4:
        return st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    for key in ("anyOf", "oneOf"):  # a branch's values (a `oneOf` judged by the reference)
        branches = [valid(b, defs, depth + 1) for b in schema.get(key, []) if b is not False]
        if branches and "type" not in schema:  # all `false`: any value, the reference judges
            return st.one_of(branches)
    kinds = schema.get(
        "type", ["null", "boolean", "integer", "number", "string", "array", "object"]
    )
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return st.one_of([_of_type(k, schema, defs, depth) for k in kinds])


def _of_type(
    kind: str, schema: dict[str, Any], defs: dict[str, Any], depth: int
) -> st.SearchStrategy[Any]:
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -20))
        high = schema.get("maximum", schema.get("exclusiveMaximum", 20))
        ints = st.integers(int(low) - 1, int(high) + 1)
        if kind == "integer":
            return st.one_of(ints, ints.map(float))  # 5.0 is an integer too
        return st.one_of(ints, st.floats(low - 1, high + 1, allow_nan=False))
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(alphabet="abcxyz-1é", min_size=0, max_size=schema.get("maxLength", 6) + 1)
    if kind in ("array",):
        items = schema.get("items", {})
        return st.lists(valid(items, defs, depth + 1), max_size=schema.get("maxItems", 3) + 1)
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    fixed = {k: valid(v, defs, depth + 1) for k, v in properties.items() if k in required}
    optional = {k: valid(v, defs, depth + 1) for k, v in properties.items() if k not in required}
    for name in required - set(properties):
        fixed[name] = valid({}, defs, depth + 1)
    base = st.fixed_dictionaries(fixed, optional=optional)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        more = st.dictionaries(
            st.sampled_from(["k1", "k2"]), valid(extra, defs, depth + 1), max_size=2
        )
        return st.tuples(base, more).map(lambda t: {**t[1], **t[0]})
    return base


def near_miss(value: Any, schema: Any, defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """`value` with one thing changed somewhere inside it."""
    schema = _resolve(schema, defs)
    options: list[st.SearchStrategy[Any]] = [WRONG]
    if isinstance(value, dict) and isinstance(schema, dict):
        properties = schema.get("properties", {})
        options.append(st.just({**value, "unexpected": 1}))
        for key in value:
            options.append(st.just({k: v for k, v in value.items() if k != key}))
            if snake(key) != key:  # the Python name on the wire: only the wire name counts
                options.append(
                    st.just({(snake(k) if k == key else k): v for k, v in value.items()})
                )
            options.append(WRONG.map(lambda w, key=key: {**value, key: w}))
            if key in properties:
                options.append(
                    near_miss(value[key], properties[key], defs).map(
                        lambda v, key=key: {**value, key: v}
                    )
                )
        for key in properties:
            options.append(st.just({**value, key: None}))
    if isinstance(value, list) and value:
        options.append(st.just(value + value[:1]))  # a duplicate
        options.append(st.just(value[1:]))
        if isinstance(schema, dict) and "items" in schema:
            options.append(
                near_miss(value[0], schema["items"], defs).map(lambda v: [v, *value[1:]])
            )
    if isinstance(value, str):
        options.append(st.just(value + "!"))
        options.append(st.just(value[:-1]))
        options.append(st.just(value.upper() + "\n"))
    if isinstance(value, int | float) and not isinstance(value, bool):
        options += [
            st.just(value + 1),
            st.just(value - 1),
            st.just(float(value) + 0.5),
            st.just(str(value)),
        ]
    return st.one_of(options)
