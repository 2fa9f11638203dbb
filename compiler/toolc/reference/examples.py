"""A tool's example arguments: values its published inputSchema itself offers (`examples`,
`default`, `const`, enum members, arrays of its items' values), assembled, then judged by that
inputSchema as the server's model judges a call. An agent reading llms.txt may send the
example as it is, so an example the schema refuses is never shown: another candidate is tried,
else there is none."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import jsonschema_rs

from toolc.validate.rust_patterns import with_model_patterns

_MAX_DEPTH = 6  # a recursive type ($ref to itself through `items`) offers nothing deeper
_MAX_ITEMS = 20  # an array asking for more items (`minItems: 1000000`) gets no example


def example(inputs: Mapping[str, Any]) -> str:
    """The example arguments as pretty JSON, or "" when no candidate is offered and valid."""
    judge = _judge(inputs)
    if judge is None:
        return ""
    for candidate in _candidates(inputs, judge):
        if candidate and judge(candidate):
            return json.dumps(candidate, ensure_ascii=False, indent=2, sort_keys=True)
    return ""


def _candidates(inputs: Mapping[str, Any], judge: Callable[[Any], bool]) -> Iterator[Any]:
    """The inputSchema's own `examples` first (whole arguments, as their author wrote them),
    then every argument that offers a value, then the required ones with each optional one
    that keeps them valid (an optional value may break a rule across arguments)."""
    declared = inputs.get("examples")
    yield from (e for e in declared if isinstance(e, dict)) if isinstance(declared, list) else ()
    defs = inputs.get("$defs", {})
    required = inputs.get("required", [])
    properties = inputs.get("properties", {})
    values: dict[str, Any] = {}
    for name, schema in sorted(properties.items() if isinstance(properties, Mapping) else ()):
        found = offered(schema, defs)
        if found:
            values[name] = found[0]
        elif name in required:
            return  # a required argument without a value: no example can be made
    yield values
    # The required ones, with the first optional one that makes them valid if they are not
    # (`oneOf: [{required: [a]}, {required: [b]}]`), then each other that keeps them valid.
    chosen = {name: value for name, value in values.items() if name in required}
    optional = [name for name in values if name not in chosen]
    for name in [None, *optional]:
        trial = chosen if name is None else {**chosen, name: values[name]}
        if judge(trial):
            chosen = trial
            break
    else:
        return
    for name in optional:
        if name not in chosen and judge({**chosen, name: values[name]}):
            chosen[name] = values[name]
    yield chosen


def offered(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> list[Any]:
    """The values a schema itself offers, the first preferred: its `$ref`'s, its `examples`,
    `default`, `const` and enum members; an array without any, one made of its items'."""
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return []
    found: list[Any] = []
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found += offered(defs.get(ref.removeprefix("#/$defs/")), defs, depth + 1)
    examples = schema.get("examples")
    found += examples if isinstance(examples, list) else []
    found += [schema[key] for key in ("default", "const") if key in schema]
    members = schema.get("enum")
    found += members if isinstance(members, list) else []
    return found or _arrays(schema, defs, depth)


def _arrays(schema: Mapping[str, Any], defs: Mapping[str, Any], depth: int) -> list[Any]:
    """An array as long as `minItems` asks (one item at least, `maxItems` at most): each
    `prefixItems` place's value, then the items' values in turn (distinct while they last,
    for `uniqueItems`). None when a place it needs offers nothing."""
    prefix = schema.get("prefixItems")
    places = prefix if isinstance(prefix, list) else []
    rest = schema["items"] if "items" in schema else schema.get("unevaluatedItems")
    high = _count(schema.get("maxItems"))
    if high == 0:
        return [[]]
    if not places and not isinstance(rest, Mapping):
        return []
    want = max(_count(schema.get("minItems")) or 0, 1)
    want = want if high is None else min(want, high)
    if want > _MAX_ITEMS:  # an example nobody reads, built in time and memory it asks for
        return []
    items: list[Any] = []
    for index in range(want):
        place = places[index] if index < len(places) else rest
        choices = offered(place, defs, depth + 1)
        if not choices:
            return []
        turn = 0 if index < len(places) else (index - len(places)) % len(choices)
        items.append(choices[turn])
    return [items]


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def _judge(inputs: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """Whether the published inputSchema accepts a value, its patterns read as the model reads
    them (ECMA-262, translated for the Rust engine, decision 0024) and `format` an annotation,
    as the model treats it. None when the schema cannot be judged: no example is then shown."""
    try:
        schema = with_model_patterns(inputs, strict=True)
        validator = jsonschema_rs.validator_for(
            schema, validate_formats=False, pattern_options=jsonschema_rs.RegexOptions()
        )
    except (jsonschema_rs.ValidationError, ValueError):  # Untranslatable too
        return None
    return validator.is_valid
