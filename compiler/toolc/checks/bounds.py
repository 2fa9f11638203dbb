"""Bounds that leave no value: `minimum` above `maximum`, `minLength` above `maxLength` (and
the same for items, properties and `contains` matches), more required properties than
`maxProperties`, a closed `prefixItems` shorter than `minItems`, an empty `enum`, a closed
object requiring a property it does not declare."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.model.tools_file import SchemaKeywords


def _number_bounds_empty(kw: SchemaKeywords) -> str | None:
    """Whether the numeric bounds leave no number: the tightest lower bound against the
    tightest upper bound, each inclusive or exclusive."""
    lows = [(v, False) for v in (kw.minimum,) if v is not None]
    lows += [(v, True) for v in (kw.exclusiveMinimum,) if v is not None]
    highs = [(v, False) for v in (kw.maximum,) if v is not None]
    highs += [(v, True) for v in (kw.exclusiveMaximum,) if v is not None]
    if not lows or not highs:
        return None
    low, low_open = max(lows, key=lambda b: (b[0], b[1]))
    high, high_open = min(highs, key=lambda b: (b[0], not b[1]))
    if low > high or (low == high and (low_open or high_open)):
        return f"the bounds leave no valid number (from {low} to {high}): nothing is valid"
    return None


def bound_problems(kw: SchemaKeywords) -> Iterator[tuple[str, str]]:
    pairs = (
        ("minLength", kw.minLength, "maxLength", kw.maxLength),
        ("minItems", kw.minItems, "maxItems", kw.maxItems),
        ("minProperties", kw.minProperties, "maxProperties", kw.maxProperties),
        ("minContains", kw.minContains, "maxContains", kw.maxContains),
    )
    for low_name, low, high_name, high in pairs:
        if low is not None and high is not None and low > high:
            yield low_name, f"{low_name} {low} is greater than {high_name} {high}: nothing is valid"
    empty = _number_bounds_empty(kw)
    if empty is not None:
        first = next(k for k in ("minimum", "exclusiveMinimum") if getattr(kw, k) is not None)
        yield first, empty
    required = set(kw.required or ())
    if kw.maxProperties is not None and len(required) > kw.maxProperties:
        yield (
            "maxProperties",
            f"{len(required)} properties are required but maxProperties is {kw.maxProperties}: "
            "nothing is valid",
        )
    closed = kw.items is False
    if closed and kw.minItems is not None and kw.minItems > len(kw.prefixItems or ()):
        yield (
            "minItems",
            f"minItems {kw.minItems} is more than the {len(kw.prefixItems or ())} elements "
            "`prefixItems` allows with `items: false`: nothing is valid",
        )
    if kw.enum is not None and not kw.enum:
        yield "enum", "`enum` is empty: nothing is valid"
    extra = kw.additionalProperties
    if extra is False and not kw.patternProperties:
        declared = set(kw.properties or {})
        for name in kw.required or ():
            if name not in declared:
                yield (
                    "required",
                    f"'{name}' is required but not declared in `properties`, and "
                    "`additionalProperties: false` forbids it",
                )
