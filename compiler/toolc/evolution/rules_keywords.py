"""The rows of the rule table for the JSON Schema 2020-12 keywords beyond toolc's first subset
(issue #12, item 6): unions, subschemas, dependencies, annotations and what toolc cannot decide.
`rules` puts each row in its section (inputs, outputs, text), so docs/evolution.md, `toolc explain`
and `toolc diff --list-rules` show them with the rest. Each row: id, level, summary, explanation.

Where inclusion cannot be decided (a `not` or an `if` changed, a `oneOf` whose branches may
overlap, patterns against patterns), the change counts as breaking in both directions, never as
a patch: the `*-schema-undecided` rules."""

from __future__ import annotations

_SUBSCHEMAS = "a `not`, an `if` with its `then`/`else` or a `contains`"
_KEYWORDWISE = (
    " Other subschemas (an `allOf` branch, `propertyNames`, a `dependentSchemas` or "
    "`patternProperties` entry, `unevaluatedItems`/`unevaluatedProperties`) are compared keyword "
    "by keyword with the empty schema they replace, so their findings name the keyword: "
    "`bound-tightened` at `.../propertyNames/maxLength`."
)
_UNDECIDED = (
    "A `not` or an `if` changed, a `oneOf` whose branches toolc cannot prove disjoint changed, "
    "a `contains` changed beside a `maxContains`, a `patternProperties` entry added or removed "
    "beside `additionalProperties`, applicators changed beside `unevaluatedItems`/"
    "`unevaluatedProperties`, a `$schema` naming another dialect, or `$dynamicRef`, `$id`, "
    "`$vocabulary` or an unresolved `$ref`: toolc cannot decide whether one schema accepts "
    "everything the other does, so the change counts as breaking, never as a patch."
)

INPUT_ROWS = (
    ("input-union-branch-added", "compatible", "An argument's `anyOf` or `oneOf` accepts a new "
     "branch.",
     "Every value an old branch accepted still matches it. A `oneOf` counts as a union only "
     "while its branches are provably disjoint (different types, different listed values, or a "
     "required property whose schemas are disjoint: a discriminator); otherwise a new branch may "
     "make a value match two and be refused (`input-schema-undecided`). A schema that becomes a "
     "union, `{type: string}` → `anyOf: [{type: string}, {type: 'null'}]`, gains a branch."),
    ("input-union-branch-removed", "breaking", "An argument's `anyOf` or `oneOf` lost a branch.",
     "Callers sending values only that branch accepted are refused."),
    ("input-subschema-added", "breaking", "An argument gained a subschema that refuses values.",
     f"{_SUBSCHEMAS[0].upper()}{_SUBSCHEMAS[1:]} was added, or a subschema became `false`: "
     "values the old schema accepted may be refused." + _KEYWORDWISE),
    ("input-subschema-removed", "compatible", "An argument lost a subschema that refused values.",
     "The same keywords removed, or a `false` schema that now accepts values: every value that "
     "was accepted still is."),
    ("input-dependent-required-added", "breaking", "A `dependentRequired` entry requires more.",
     "Calls that send the triggering property without the newly dependent one are refused."),
    ("input-dependent-required-removed", "compatible",
     "A `dependentRequired` entry requires less.",
     "Every call that was valid still is."),
    ("input-schema-undecided", "breaking",
     "An argument's schema changed in a way toolc cannot prove accepts every old value.",
     _UNDECIDED),
    ("content-changed", "warning",
     "A `contentEncoding`, `contentMediaType` or `contentSchema` was added, removed or changed.",
     "In 2020-12 these describe the content a string encodes without being asserted: every "
     "value stays valid, but callers and models read them (a payload decoded as base64, parsed "
     "as JSON), so a change of meaning needs more than a patch."),
)  # fmt: skip

OUTPUT_ROWS = (
    ("output-union-branch-added", "breaking", "A field of `data` can match a new `anyOf` or "
     "`oneOf` branch.",
     "Callers receive values of a shape they did not handle, as with a new type."),
    ("output-union-branch-removed", "compatible", "A field of `data` lost an `anyOf` or `oneOf` "
     "branch.",
     "Callers receive a subset of what they handled."),
    ("output-subschema-added", "compatible", "A subschema on `data` now refuses values.",
     f"{_SUBSCHEMAS[0].upper()}{_SUBSCHEMAS[1:]} was added, or a subschema became `false`: "
     "callers receive a subset of what they handled." + _KEYWORDWISE),
    ("output-subschema-removed", "breaking", "A subschema on `data` that refused values was "
     "removed.",
     "Callers may receive values the old schema excluded (a shape an `allOf` branch or a "
     "`not` ruled out, a `false` schema that now admits values)."),
    ("output-dependent-required-added", "compatible",
     "A `dependentRequired` entry on `data` guarantees more.",
     "Callers always receive what they already handled."),
    ("output-dependent-required-removed", "breaking",
     "A `dependentRequired` entry on `data` guarantees less.",
     "Callers that relied on the dependent field whenever the triggering one is present can "
     "find it missing."),
    ("output-schema-undecided", "breaking",
     "A schema of `data` changed in a way toolc cannot prove holds only old values.",
     _UNDECIDED),
)  # fmt: skip

TEXT_ROWS = (
    ("annotation-changed", "docs",
     "A `$comment`, `readOnly`, `writeOnly` or `$anchor` changed.",
     "Annotations no validator reads: every value is accepted or refused as before. (`$anchor` "
     "is kept as an annotation: toolc resolves no reference to it.)"),
)  # fmt: skip
