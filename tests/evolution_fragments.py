"""The before/after corpus of contract evolution for the JSON Schema 2020-12 keywords beyond
toolc's first subset (issue #12, item 6), at the level of published fragments: each case is one
schema before and after, placed as an argument (`inputSchema.properties.value`) and as a field
of `data` (`envelope.Data` `.properties.value`), or at the root of both (`root`); the same
cases run as whole configs too (tests/evolution_configs.py writes them into the rule corpus). Each expectation is `rule level path`,
the path relative to where the fragment sits (`/` for the fragment itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    name: str
    old: Any
    new: Any
    input: tuple[str, ...]
    output: tuple[str, ...]
    root: bool = False


S: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NULL: dict[str, Any] = {"type": "null"}
OBJ: dict[str, Any] = {"type": "object"}
ARR: dict[str, Any] = {"type": "array"}


def kind(value: str) -> dict[str, Any]:
    """A branch of a discriminated union: an object whose required `kind` is `value`."""
    return {"type": "object", "properties": {"kind": {"const": value}}, "required": ["kind"]}


COND = {"if": {"required": ["a"]}, "then": {"required": ["b"]}}
ARGS = {"type": "object", "properties": {"a": S, "b": S}}

CASES: tuple[Case, ...] = (
    # unions
    Case("anyOf-branch-added", {"anyOf": [S, INT]}, {"anyOf": [S, INT, NULL]},
         ("input-union-branch-added compatible /anyOf/2",),
         ("output-union-branch-added breaking /anyOf/2",)),
    Case("anyOf-branch-removed", {"anyOf": [S, INT, NULL]}, {"anyOf": [S, INT]},
         ("input-union-branch-removed breaking /anyOf/2",),
         ("output-union-branch-removed compatible /anyOf/2",)),
    Case("anyOf-became-nullable", S, {"anyOf": [S, NULL]},
         ("input-union-branch-added compatible /anyOf/1",),
         ("output-union-branch-added breaking /anyOf/1",)),
    Case("anyOf-branch-by-ref", S, {"anyOf": [{"$ref": "#/$defs/Name"}, NULL],
                                    "$defs": {"Name": S}},
         ("input-union-branch-added compatible /anyOf/1", "unclassified-change docs /anyOf/0"),
         ("output-union-branch-added breaking /anyOf/1", "unclassified-change docs /anyOf/0")),
    Case("anyOf-branch-narrowed", {"anyOf": [{**S, "maxLength": 9}, NULL]},
         {"anyOf": [{**S, "maxLength": 5}, NULL]},
         ("bound-tightened breaking /anyOf/0/maxLength",),
         ("output-constraint-tightened compatible /anyOf/0/maxLength",)),
    Case("anyOf-siblings-merged", {**OBJ, "anyOf": [{"required": ["a"]}]},
         {**OBJ, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
         ("input-union-branch-added compatible /anyOf/1",),
         ("output-union-branch-added breaking /anyOf/1",)),
    Case("oneOf-disjoint-branch-added", {"oneOf": [kind("a"), kind("b")]},
         {"oneOf": [kind("a"), kind("b"), kind("c")]},
         ("input-union-branch-added compatible /oneOf/2",),
         ("output-union-branch-added breaking /oneOf/2",)),
    Case("oneOf-disjoint-branch-removed", {"oneOf": [S, INT]}, {"oneOf": [S]},
         ("input-union-branch-removed breaking /oneOf/1",),
         ("output-union-branch-removed compatible /oneOf/1",)),
    Case("oneOf-overlapping-branch-added", {"oneOf": [S, INT]},
         {"oneOf": [S, INT, {"type": "number"}]},
         ("input-schema-undecided breaking /oneOf",), ("output-schema-undecided breaking /oneOf",)),
    # allOf, not, if/then/else
    Case("allOf-branch-added", INT, {**INT, "allOf": [{"minimum": 0}]},
         ("bound-tightened breaking /allOf/0/minimum",),
         ("output-constraint-tightened compatible /allOf/0/minimum",)),
    Case("allOf-branch-removed", {**INT, "allOf": [{"minimum": 0}]}, INT,
         ("bound-loosened compatible /allOf/0/minimum",),
         ("output-constraint-loosened warning /allOf/0/minimum",)),
    Case("allOf-property-narrowed", {**OBJ, "properties": {"n": {"type": "number"}}},
         {**OBJ, "properties": {"n": {"type": "number"}}, "allOf": [{"properties": {"n": INT}}]},
         ("arg-type-changed breaking /allOf/0/properties/n/type",),
         ("data-field-type-narrowed compatible /allOf/0/properties/n/type",)),
    Case("not-added", S, {**S, "not": {"const": ""}},
         ("input-subschema-added breaking /not",), ("output-subschema-added compatible /not",)),
    Case("not-removed", {**S, "not": {"const": ""}}, S,
         ("input-subschema-removed compatible /not",), ("output-subschema-removed breaking /not",)),
    Case("not-changed", {"not": {"const": ""}}, {"not": {"const": "x"}},
         ("input-schema-undecided breaking /not",), ("output-schema-undecided breaking /not",)),
    Case("if-added", OBJ, {**OBJ, **COND},
         ("input-subschema-added breaking /if",), ("output-subschema-added compatible /if",)),
    Case("if-removed", {**OBJ, **COND}, OBJ,
         ("input-subschema-removed compatible /if",), ("output-subschema-removed breaking /if",)),
    Case("if-changed", {**OBJ, **COND}, {**OBJ, **COND, "if": {"required": ["c"]}},
         ("input-schema-undecided breaking /if",), ("output-schema-undecided breaking /if",)),
    Case("then-tightened", {**OBJ, **COND}, {**OBJ, **COND, "then": {"required": ["b", "c"]}},
         ("arg-became-required breaking /then/properties/c",),
         ("data-field-became-required compatible /then/properties/c",)),
    Case("else-loosened", {**OBJ, **COND, "else": {"maxProperties": 1}},
         {**OBJ, **COND, "else": {"maxProperties": 2}},
         ("bound-loosened compatible /else/maxProperties",),
         ("output-constraint-loosened warning /else/maxProperties",)),
    # boolean schemas
    Case("false-schema", S, False,
         ("input-subschema-added breaking /",), ("output-subschema-added compatible /",)),
    Case("false-schema-lifted", False, S,
         ("input-subschema-removed compatible /",), ("output-subschema-removed breaking /",)),
    Case("true-schema-typed", True, S,
         ("arg-type-changed breaking /type",), ("data-field-type-narrowed compatible /type",)),
    Case("property-false-lifted", {**OBJ, "properties": {"x": False}}, {**OBJ, "properties": {"x": S}},
         ("input-subschema-removed compatible /properties/x",),
         ("output-subschema-removed breaking /properties/x",)),
    # arrays
    Case("prefixItems-entry-added", {**ARR, "prefixItems": [S]}, {**ARR, "prefixItems": [S, INT]},
         ("arg-type-changed breaking /prefixItems/1/type",),
         ("data-field-type-narrowed compatible /prefixItems/1/type",)),
    Case("prefixItems-entry-nullable", {**ARR, "prefixItems": [S]},
         {**ARR, "prefixItems": [{"type": ["string", "null"]}]},
         ("nullability-added compatible /prefixItems/0/type",),
         ("data-field-became-nullable breaking /prefixItems/0/type",)),
    Case("items-closed-after-prefix", {**ARR, "prefixItems": [S]},
         {**ARR, "prefixItems": [S], "items": False},
         ("input-subschema-added breaking /items",), ("output-subschema-added compatible /items",)),
    Case("contains-added", ARR, {**ARR, "contains": INT},
         ("input-subschema-added breaking /contains",),
         ("output-subschema-added compatible /contains",)),
    Case("contains-widened", {**ARR, "contains": INT}, {**ARR, "contains": {"type": "number"}},
         ("arg-type-widened compatible /contains/type",),
         ("data-field-type-changed breaking /contains/type",)),
    Case("minContains-raised", {**ARR, "contains": INT}, {**ARR, "contains": INT, "minContains": 2},
         ("bound-tightened breaking /minContains",),
         ("output-constraint-tightened compatible /minContains",)),
    Case("maxContains-lowered", {**ARR, "contains": INT, "maxContains": 3},
         {**ARR, "contains": INT, "maxContains": 2},
         ("bound-tightened breaking /maxContains",),
         ("output-constraint-tightened compatible /maxContains",)),
    Case("contains-changed-beside-maxContains", {**ARR, "contains": INT, "maxContains": 3},
         {**ARR, "contains": {"type": "number"}, "maxContains": 3},
         ("input-schema-undecided breaking /contains",),
         ("output-schema-undecided breaking /contains",)),
    Case("unevaluatedItems-closed", {**ARR, "prefixItems": [S]},
         {**ARR, "prefixItems": [S], "unevaluatedItems": False},
         ("input-subschema-added breaking /unevaluatedItems",),
         ("output-subschema-added compatible /unevaluatedItems",)),
    # numbers
    Case("multipleOf-tightened", {**INT, "multipleOf": 2}, {**INT, "multipleOf": 4},
         ("bound-tightened breaking /multipleOf",),
         ("output-constraint-tightened compatible /multipleOf",)),
    Case("multipleOf-relaxed", {**INT, "multipleOf": 4}, {**INT, "multipleOf": 2},
         ("bound-loosened compatible /multipleOf",),
         ("output-constraint-loosened warning /multipleOf",)),
    Case("multipleOf-neither-divides", {**INT, "multipleOf": 2}, {**INT, "multipleOf": 3},
         ("bound-tightened breaking /multipleOf",),
         ("output-constraint-loosened warning /multipleOf",)),
    # decimals, as the models read them: 0.01 divides 0.1, though their doubles do not (review)
    Case("multipleOf-decimal-relaxed", {"type": "number", "multipleOf": 0.1},
         {"type": "number", "multipleOf": 0.01},
         ("bound-loosened compatible /multipleOf",),
         ("output-constraint-loosened warning /multipleOf",)),
    # objects
    Case("minProperties-raised", {**OBJ, "minProperties": 1}, {**OBJ, "minProperties": 2},
         ("bound-tightened breaking /minProperties",),
         ("output-constraint-tightened compatible /minProperties",)),
    Case("maxProperties-raised", {**OBJ, "maxProperties": 5}, {**OBJ, "maxProperties": 9},
         ("bound-loosened compatible /maxProperties",),
         ("output-constraint-loosened warning /maxProperties",)),
    Case("patternProperties-narrowed", {**OBJ, "patternProperties": {"^x-": S}},
         {**OBJ, "patternProperties": {"^x-": {**S, "maxLength": 5}}},
         ("bound-tightened breaking /patternProperties/^x-/maxLength",),
         ("output-constraint-tightened compatible /patternProperties/^x-/maxLength",)),
    Case("patternProperties-added", OBJ, {**OBJ, "patternProperties": {"^x-": S}},
         ("arg-type-changed breaking /patternProperties/^x-/type",),
         ("data-field-type-narrowed compatible /patternProperties/^x-/type",)),
    Case("patternProperties-removed", {**OBJ, "patternProperties": {"^x-": S}}, OBJ,
         ("arg-type-widened compatible /patternProperties/^x-/type",),
         ("data-field-type-changed breaking /patternProperties/^x-/type",)),
    Case("patternProperties-added-closed", {**OBJ, "additionalProperties": False},
         {**OBJ, "additionalProperties": False, "patternProperties": {"^x-": S}},
         ("input-schema-undecided breaking /patternProperties/^x-",),
         ("output-schema-undecided breaking /patternProperties/^x-",)),
    # A property declared where `additionalProperties` or `patternProperties` already judged
    # its name: compared with what they accepted (it passed as a plain addition, session 27).
    Case("property-declared-beside-additional-schema", {**OBJ, "additionalProperties": S},
         {**OBJ, "properties": {"x": INT}, "additionalProperties": S},
         ("arg-added-optional compatible /properties/x",
          "arg-type-changed breaking /properties/x/type"),
         ("data-field-added compatible /properties/x",
          "data-field-type-changed breaking /properties/x/type")),
    Case("property-declared-beside-patternProperties", {**OBJ, "patternProperties": {"^x": S}},
         {**OBJ, "properties": {"xa": INT}, "patternProperties": {"^x": S}},
         ("arg-added-optional compatible /properties/xa",
          "input-schema-undecided breaking /properties/xa"),
         ("data-field-added compatible /properties/xa",
          "output-schema-undecided breaking /properties/xa")),
    Case("propertyNames-added", OBJ, {**OBJ, "propertyNames": {"maxLength": 8}},
         ("bound-tightened breaking /propertyNames/maxLength",),
         ("output-constraint-tightened compatible /propertyNames/maxLength",)),
    Case("propertyNames-pattern-removed", {**OBJ, "propertyNames": {"pattern": "^[a-z]+$"}}, OBJ,
         ("pattern-removed compatible /propertyNames/pattern",),
         ("output-constraint-loosened warning /propertyNames/pattern",)),
    Case("dependentRequired-added", OBJ, {**OBJ, "dependentRequired": {"a": ["b"]}},
         ("input-dependent-required-added breaking /dependentRequired/a",),
         ("output-dependent-required-added compatible /dependentRequired/a",)),
    Case("dependentRequired-removed", {**OBJ, "dependentRequired": {"a": ["b", "c"]}},
         {**OBJ, "dependentRequired": {"a": ["b"]}},
         ("input-dependent-required-removed compatible /dependentRequired/a",),
         ("output-dependent-required-removed breaking /dependentRequired/a",)),
    Case("dependentSchemas-added", OBJ, {**OBJ, "dependentSchemas": {"a": {"required": ["b"]}}},
         ("arg-became-required breaking /dependentSchemas/a/properties/b",),
         ("data-field-became-required compatible /dependentSchemas/a/properties/b",)),
    Case("unevaluatedProperties-closed", {**OBJ, "properties": {"a": S}},
         {**OBJ, "properties": {"a": S}, "unevaluatedProperties": False},
         ("input-subschema-added breaking /unevaluatedProperties",),
         ("output-subschema-added compatible /unevaluatedProperties",)),
    Case("unevaluatedProperties-beside-change",
         {**OBJ, "properties": {"a": S}, "unevaluatedProperties": False},
         {**OBJ, "properties": {"a": S, "b": S}, "unevaluatedProperties": False},
         ("arg-added-optional compatible /properties/b",
          "input-schema-undecided breaking /unevaluatedProperties"),
         ("data-field-added compatible /properties/b",
          "output-schema-undecided breaking /unevaluatedProperties")),
    # annotations, content, references
    Case("comment-and-readOnly", S, {**S, "$comment": "why", "readOnly": True, "writeOnly": False},
         ("annotation-changed docs /$comment", "annotation-changed docs /readOnly",
          "annotation-changed docs /writeOnly"),
         ("annotation-changed docs /$comment", "annotation-changed docs /readOnly",
          "annotation-changed docs /writeOnly")),
    Case("anchor", S, {**S, "$anchor": "a"},
         ("annotation-changed docs /$anchor",), ("annotation-changed docs /$anchor",)),
    Case("content", S, {**S, "contentEncoding": "base64", "contentMediaType": "image/png"},
         ("content-changed warning /contentEncoding", "content-changed warning /contentMediaType"),
         ("content-changed warning /contentEncoding",
          "content-changed warning /contentMediaType")),
    Case("contentSchema", {**S, "contentMediaType": "application/json", "contentSchema": OBJ},
         {**S, "contentMediaType": "application/json", "contentSchema": ARR},
         ("content-changed warning /contentSchema",), ("content-changed warning /contentSchema",)),
    Case("ref-target-tightened", {"$ref": "#/$defs/A", "$defs": {"A": {**S, "maxLength": 5}}},
         {"$ref": "#/$defs/A", "$defs": {"A": {**S, "maxLength": 3}}},
         ("bound-tightened breaking /maxLength",),
         ("output-constraint-tightened compatible /maxLength",)),
    Case("ref-with-sibling-bound", {"$ref": "#/$defs/A", "$defs": {"A": {**S, "maxLength": 5}}},
         {"$ref": "#/$defs/A", "maxLength": 2, "$defs": {"A": {**S, "maxLength": 5}}},
         ("bound-tightened breaking /maxLength",),
         ("output-constraint-tightened compatible /maxLength",)),
    Case("dynamicRef", {"$dynamicRef": "#a"}, {"$dynamicRef": "#b"},
         ("input-schema-undecided breaking /$dynamicRef",),
         ("output-schema-undecided breaking /$dynamicRef",)),
    # keywords on the arguments object itself (and on `data` as a whole)
    Case("root-anyOf-added", ARGS, {**ARGS, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
         ("arg-became-required breaking /anyOf/0/properties/a",
          "input-union-branch-added compatible /anyOf/1"),
         ("data-field-became-required compatible /anyOf/0/properties/a",
          "data-field-became-required compatible /anyOf/1/properties/b"), root=True),
    Case("root-allOf-added", ARGS, {**ARGS, "allOf": [{"properties": {"a": {"minLength": 1}}}]},
         ("bound-tightened breaking /allOf/0/properties/a/minLength",),
         ("output-constraint-tightened compatible /allOf/0/properties/a/minLength",), root=True),
    Case("root-if-added", ARGS, {**ARGS, **COND},
         ("input-subschema-added breaking /if",), ("output-subschema-added compatible /if",),
         root=True),
    Case("root-dependentRequired", ARGS, {**ARGS, "dependentRequired": {"a": ["b"]}},
         ("input-dependent-required-added breaking /dependentRequired/a",),
         ("output-dependent-required-added compatible /dependentRequired/a",), root=True),
    Case("root-minProperties", ARGS, {**ARGS, "minProperties": 1},
         ("bound-tightened breaking /minProperties",),
         ("output-constraint-tightened compatible /minProperties",), root=True),
    Case("root-schema-restated", ARGS,
         {**ARGS, "$schema": "https://json-schema.org/draft/2020-12/schema"},
         ("unclassified-change docs /$schema",), ("unclassified-change docs /$schema",), root=True),
    Case("root-schema-other-dialect", ARGS,
         {**ARGS, "$schema": "http://json-schema.org/draft-07/schema#"},
         ("input-schema-undecided breaking /$schema",),
         ("output-schema-undecided breaking /$schema",), root=True),
)  # fmt: skip

RULES_EXERCISED = frozenset(
    line.split()[0] for case in CASES for line in (*case.input, *case.output)
)
