"""Hypothesis strategies for the pieces of a config (random_projects.py assembles them): names
of every length the language allows up to 64, texts with quotes, backslashes, unicode and
newlines, and the words generated code uses (`Optional`, `Field`, ...: a text naming one names
nothing in the code), values of every JSON kind (floats like 1e16, -0.0, 1.5e-7, huge integers),
and schemas using every keyword of the schema subset. A stated value (default, const, enum,
example) is drawn to fit its schema and kept only if the reference validator agrees, so a
config fails to compile only for a reason worth reporting."""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import strategies as st
from reference import EcmaValidator
from toolc.emit.pyimports import IMPORTABLE

NAME_CHARS = string.ascii_letters + string.digits + "_.-"
# Names the generated modules import or define: in a description or an enum value they are
# words of a string literal, never references (a text read as code once imported `Optional`).
CODE_WORDS = [
    *sorted(IMPORTABLE), "None", "True", "lambda", "TypeAlias", "model_rebuild", "K", "Item",
    "Type", "Args", "Data", " | ", "[", "]", "(", ")", "=", "#",
]  # fmt: skip
CHARS = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("\"'\\\n\t {}[]#:-`é€ß中文🙂")),
        # line and paragraph separators, NEL, form feed, BOM, zero-width space, a combining
        # accent, NUL, DEL, CR: what str.splitlines and tokenizers treat specially
        st.sampled_from(list("\u2028\u2029\x85\x0b\x0c\x1c\ufeff\u200b\u0301\x00\x7f\r")),
        st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs", "Mn", "Cf", "Co"]),
    ),
    min_size=1,
    max_size=90,
)
TEXT = st.one_of(
    CHARS,
    st.lists(st.one_of(CHARS, st.sampled_from(CODE_WORDS)), min_size=1, max_size=6).map(
        lambda parts: " ".join(parts)[:90]
    ),
)
FLOATS = st.one_of(
    st.sampled_from([1e16, -0.0, 1.5e-7, 1e300, 2.5e20, 0.1, -1e16, 5e-324, 1e22]),
    st.floats(allow_nan=False, allow_infinity=False),
)
INTS = st.one_of(st.integers(-(10**30), 10**30), st.integers(-3, 3))
SCALARS = st.one_of(st.none(), st.booleans(), INTS, FLOATS, TEXT.map(lambda s: s[:64]))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(TEXT.map(lambda s: s[:20]), inner, max_size=3)
    ),
    max_leaves=6,
)
PATTERNS = {"^[a-z]+$": "abc", "^[A-Z]{2}-[0-9]+$": "AB-12", "x": "x", "^P-[0-9]+$": "P-7"}
LEAVES = ["string", "integer", "number", "boolean", "null", "enum", "const", "any", "ref", "names"]
FORMATS = ["date", "date-time", "email", "uri", "uuid", "hostname"]


def names(min_size: int = 1, max_size: int = 64) -> st.SearchStrategy[str]:
    """A name of a length drawn evenly (hypothesis's text favours short ones, and the long
    ones are where lines reach black's limit)."""
    return st.integers(min_size, max_size).flatmap(
        lambda n: st.text(alphabet=NAME_CHARS, min_size=n, max_size=n)
    )


def distinct(values: list[str], forms: tuple[Any, ...]) -> list[str]:
    """`values` less those whose Python forms meet an earlier one's (a collision toolc
    refuses, and rightly)."""
    seen: set[tuple[int, str]] = set()
    kept = []
    for v in values:
        keys = {(i, f(v)) for i, f in enumerate(forms)}
        if not keys & seen:
            seen |= keys
            kept.append(v)
    return kept


class Schemas:
    """Draws schemas in toolc's subset and values that fit them."""

    def __init__(self, draw: st.DrawFn, type_names: list[str]) -> None:
        self.draw = draw
        self.type_names = type_names
        self.types: dict[str, Any] = {}  # published form, for the reference validator

    # -- values ---------------------------------------------------------------------------------
    def published(self, schema: Any) -> Any:
        """The schema as toolc publishes it: `list` → `array`, `#/types/` → `#/$defs/`."""
        if isinstance(schema, list):
            return [self.published(s) for s in schema]
        if not isinstance(schema, dict):
            return schema
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key in ("label", "user_prompt"):
                continue
            if key == "type":
                value = (
                    ["array" if t == "list" else t for t in value]
                    if isinstance(value, list)
                    else ("array" if value == "list" else value)
                )
            elif key == "$ref":
                value = value.replace("#/types/", "#/$defs/")
            elif key in ("properties", "patternProperties", "dependentSchemas", "$defs"):
                value = {k: self.published(v) for k, v in value.items()}
            elif key in ("items", "additionalProperties", "not", "contains", "propertyNames"):
                value = self.published(value)
            elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
                value = [self.published(v) for v in value]
            out[key] = value
        return out

    def fits(self, schema: Any, value: Any) -> bool:
        document = {**self.published(schema), "$defs": self.types}
        try:
            return bool(EcmaValidator(document).is_valid(value))
        except Exception:  # a schema the reference validator cannot use: state nothing
            return False

    def value(self, schema: Any, depth: int = 0) -> Any:
        """A value likely to fit `schema` (checked by `fits` before use)."""
        draw = self.draw
        if not isinstance(schema, dict):  # true / false
            return None
        if "prefixItems" in schema:
            return [self.value(sub, depth + 1) for sub in schema["prefixItems"]]
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return draw(st.sampled_from(schema["enum"]))
        if "$ref" in schema:
            target = self.types.get(schema["$ref"].rsplit("/", 1)[-1], {})
            return self.value(target, depth + 1) if depth < 4 else None
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                return self.value(draw(st.sampled_from(schema[key])), depth + 1)
        kinds = schema.get("type", ["string", "integer", "object"])
        kind = draw(st.sampled_from(kinds if isinstance(kinds, list) else [kinds]))
        if kind == "null":
            return None
        if kind == "boolean":
            return draw(st.booleans())
        if kind in ("integer", "number"):
            low = schema.get("minimum", schema.get("exclusiveMinimum"))
            if low is not None:
                return int(low) + 1 if kind == "integer" else low + 1
            return draw(INTS) if kind == "integer" else draw(FLOATS)
        if kind == "string":
            if "pattern" in schema:
                return PATTERNS[schema["pattern"]]
            return draw(TEXT)[: schema.get("maxLength", 64)].ljust(schema.get("minLength", 0), "x")
        if kind in ("array", "list"):
            if depth > 3:
                return []
            size = draw(st.integers(schema.get("minItems", 0), min(schema.get("maxItems", 2), 2)))
            return [self.value(schema.get("items", {}), depth + 1) for _ in range(size)]
        if depth > 3:
            return {}
        props = schema.get("properties", {})
        required = schema.get("required", [])
        chosen = [p for p in props if p in required or draw(st.booleans())]
        return {p: self.value(props[p], depth + 1) for p in chosen}

    def stated(self, schema: dict[str, Any]) -> dict[str, Any]:
        """`schema` with values it states about itself (default, examples), each checked."""
        draw = self.draw
        out = dict(schema)
        if draw(st.integers(0, 2)) == 0:
            candidate = self.value(schema)
            if self.fits(schema, candidate):
                out["default"] = candidate
        if draw(st.integers(0, 3)) == 0:
            examples = [self.value(schema) for _ in range(draw(st.integers(1, 2)))]
            examples = [e for e in examples if self.fits(schema, e)]
            if examples:
                out["examples"] = examples
        return out

    # -- schemas --------------------------------------------------------------------------------
    def annotations(self) -> dict[str, Any]:
        draw = self.draw
        picked: dict[str, Any] = {}
        for key, strategy in (
            ("description", TEXT),
            ("title", TEXT),
            ("label", TEXT),
            ("user_prompt", TEXT),
            ("deprecated", st.booleans()),
            ("$comment", TEXT),
            ("readOnly", st.booleans()),
        ):
            if draw(st.integers(0, 4)) == 0:
                picked[key] = draw(strategy)
        return picked

    def leaf(self) -> dict[str, Any]:
        draw = self.draw
        kind = draw(st.sampled_from(LEAVES))
        if kind == "ref" and self.type_names:
            return {"$ref": "#/types/" + draw(st.sampled_from(self.type_names))}
        if kind == "names":  # strings only: the `Literal[...]` of long, odd names
            return {
                "enum": draw(
                    st.lists(
                        st.one_of(TEXT.map(lambda s: s[:64]), names()),
                        min_size=1,
                        max_size=5,
                        unique=True,
                    )
                )
            }
        if kind in ("enum", "const", "ref"):
            values = draw(st.lists(JSON, min_size=1, max_size=4))
            unique = list({json.dumps(v, sort_keys=True): v for v in values}.values())
            return {"enum": unique} if kind == "enum" else {"const": unique[0]}
        if kind == "any":
            return {}
        schema: dict[str, Any] = {"type": kind}
        nullable = draw(st.integers(0, 3)) == 0
        if kind == "string":
            if draw(st.booleans()):
                schema["pattern"] = draw(st.sampled_from(sorted(PATTERNS)))
            else:
                if draw(st.booleans()):
                    schema["minLength"] = draw(st.integers(0, 3))
                if draw(st.booleans()):
                    schema["maxLength"] = draw(st.integers(3, 70))
            if draw(st.integers(0, 3)) == 0:
                schema["format"] = draw(st.sampled_from(FORMATS))
        elif kind in ("integer", "number"):
            bounded = st.floats(-1e300, 1e300, allow_nan=False)  # room for the upper bound
            # an integer's bounds need not be whole, nor within 64 bits (0.5, 1e19)
            fractions = st.sampled_from([0.5, -2.5, 3.0, 1e19, -1e19])
            low = draw(
                st.one_of(INTS, fractions)
                if kind == "integer"
                else st.one_of(bounded, st.sampled_from([1e16, -0.0, 1.5e-7]))
            )
            if draw(st.booleans()):
                schema[draw(st.sampled_from(["minimum", "exclusiveMinimum"]))] = low
            if draw(st.booleans()):
                high = abs(low) * 2 + 10
                schema[draw(st.sampled_from(["maximum", "exclusiveMaximum"]))] = high
            if draw(st.integers(0, 3)) == 0:
                schema["multipleOf"] = draw(st.sampled_from([2, 5, 0.5, 0.01]))
        if nullable:
            schema["type"] = [kind, "null"] if kind != "null" else "null"
        return schema

    def schema(self, depth: int = 0) -> dict[str, Any]:
        draw = self.draw
        shape = draw(st.integers(0, 7)) if depth < 3 else 0
        if shape <= 2:
            schema = self.leaf()
        elif shape == 6:
            schema = self.applicator(depth)
        elif shape == 7:
            schema = self.array_2020(depth)
        elif shape == 3:
            schema = {"type": draw(st.sampled_from(["array", "list", ["array", "null"]]))}
            schema["items"] = self.schema(depth + 1)
            if draw(st.booleans()):
                schema["minItems"] = draw(st.integers(0, 2))
            if draw(st.booleans()):
                schema["maxItems"] = draw(st.integers(2, 5))
            if draw(st.booleans()):
                schema["uniqueItems"] = True
        elif shape == 4:
            schema = self.object(depth)
        else:
            kinds = draw(
                st.lists(
                    st.sampled_from(["string", "integer", "number", "boolean", "array", "object"]),
                    min_size=2,
                    max_size=3,
                    unique=True,
                )
            )
            schema = {"type": kinds + (["null"] if draw(st.booleans()) else [])}
            if "array" in kinds:
                schema["items"] = self.leaf()
            if "object" in kinds and draw(st.booleans()):
                schema["properties"] = {draw(TEXT)[:30]: self.leaf()}
        if "$ref" in schema:
            extra = {k: v for k, v in self.annotations().items() if k != "deprecated"}
            return self.stated({**schema, **extra})
        return self.stated({**schema, **self.annotations()})

    def object(self, depth: int) -> dict[str, Any]:
        draw = self.draw
        keys = draw(st.lists(st.one_of(TEXT.map(lambda s: s[:64]), names()), max_size=4))
        keys = list(dict.fromkeys(keys))
        props = {k: self.schema(depth + 1) for k in keys}
        schema: dict[str, Any] = {"type": draw(st.sampled_from(["object", ["object", "null"]]))}
        if props:
            schema["properties"] = props
            schema["required"] = [k for k in keys if draw(st.booleans())]
        if draw(st.integers(0, 3)) == 0:
            schema["patternProperties"] = {draw(st.sampled_from(sorted(PATTERNS))): self.leaf()}
        if draw(st.integers(0, 3)) == 0:
            schema["propertyNames"] = {"maxLength": draw(st.integers(1, 70))}
        if len(keys) >= 2 and draw(st.integers(0, 3)) == 0:
            schema["dependentRequired"] = {keys[0]: [keys[1]]}
        extra = draw(st.integers(0, 4))
        if extra == 1:
            schema["additionalProperties"] = False
        elif extra == 2:
            schema["additionalProperties"] = self.leaf()
        elif extra == 3:
            schema["additionalProperties"] = True
            if draw(st.booleans()):  # required but not declared: any value
                schema["required"] = [*schema.get("required", []), draw(names(1, 20))]
        if draw(st.integers(0, 3)) == 0:  # bounds that leave room for the required (and a flag)
            low = draw(st.integers(0, 2))
            high = max(low + draw(st.integers(0, 3)), len(set(schema.get("required", ()))) + 2)
            schema["minProperties"], schema["maxProperties"] = low, high
        return schema

    def applicator(self, depth: int) -> dict[str, Any]:
        """`anyOf` / `oneOf` / `allOf` of two schemas, a discriminated `oneOf` of objects, or
        a `not`, `if`/`then`/`else`."""
        draw = self.draw
        kind = draw(st.sampled_from(["anyOf", "oneOf", "allOf", "tagged", "not", "if"]))
        if kind == "tagged":
            tag = draw(names(1, 20).filter(lambda n: n.isidentifier() and n == n.lower()))
            values = draw(st.lists(names(1, 30), min_size=2, max_size=3, unique=True))
            branches = []
            for value in values:
                branch = self.object(depth + 1)
                branch["type"] = "object"
                for key in ("patternProperties", "minProperties", "maxProperties"):
                    branch.pop(key, None)
                branch.setdefault("properties", {})[tag] = {"const": value}
                branch["required"] = [*dict.fromkeys([*branch.get("required", []), tag])]
                branches.append(branch)
            return {"oneOf": branches}
        if kind == "not":
            return {"type": "string", "not": {"const": draw(TEXT)[:10]}}
        if kind == "if":
            return {"type": "integer", "if": {"minimum": 10}, "then": {"multipleOf": 2}}
        return {kind: [self.schema(depth + 1), self.schema(depth + 1)]}

    def array_2020(self, depth: int) -> dict[str, Any]:
        """An array with `prefixItems` (a closed tuple or an open one) or `contains`."""
        draw = self.draw
        schema: dict[str, Any] = {"type": "array"}
        if draw(st.booleans()):
            schema["prefixItems"] = [self.leaf() for _ in range(draw(st.integers(1, 3)))]
            schema["items"] = False if draw(st.booleans()) else self.leaf()
        else:
            schema["items"] = self.leaf()
            schema["contains"] = self.leaf()
            if draw(st.booleans()):
                schema["minContains"], schema["maxContains"] = 1, draw(st.integers(1, 3))
        return schema
