"""The rule table of contract evolution (issue #5): every change `toolc diff` can report, with its
level. docs/evolution.md and `toolc explain RULE` are rendered from it through the catalogue
(diagnostics/catalogue.py), so that they cannot drift."""

from __future__ import annotations

from typing import Literal

import msgspec

from toolc.evolution.rules_keywords import INPUT_ROWS, OUTPUT_ROWS, TEXT_ROWS

Level = Literal["breaking", "compatible", "docs", "warning"]
LEVELS: tuple[Level, ...] = ("breaking", "warning", "compatible", "docs")  # report order


class Rule(msgspec.Struct, frozen=True):
    id: str
    level: Level
    summary: str
    explanation: str


def _rules(*rows: tuple[str, str, str, str]) -> dict[str, Rule]:
    return {row[0]: Rule(row[0], _level(row[1]), row[2], row[3]) for row in rows}


def _level(name: str) -> Level:
    if name not in LEVELS:
        raise ValueError(f"unknown level {name!r}")
    return name


# Paths name a position inside the contract document; see docs/evolution.md, "Paths".
_LIFECYCLE = _rules(
    ("tool-added", "compatible", "A tool was added.",
     "A new tool breaks no caller: nobody depended on it yet."),
    ("tool-removed", "breaking", "A tool was removed.",
     "Every caller of the tool fails. Retire a tool on purpose with an accepted break "
     "(`to: removed`)."),
    ("tool-disabled", "breaking", "A tool stopped being served (`enabled: false`).",
     "A disabled tool keeps its declaration but is no longer listed: its callers fail as if it "
     "had been removed."),
    ("tool-enabled", "compatible", "A disabled tool is served again.",
     "The tool becomes available; nobody could depend on its absence."),
    ("tool-moved", "breaking", "The tool is served by another `mcp_server`.",
     "The tool leaves its old server's `tools/list`, and its method leaves that server's typed "
     "client class: callers of the old server fail as if it had been removed (decision 0144)."),
    ("multi-item-changed", "breaking", "The tool became multi-item, or stopped being one.",
     "The `data` of a multi-item tool is the normalized `results[]` with its status fields, and a "
     "failed call may carry `data` too: the whole shape of the answer changes."),
    ("proxied-changed", "breaking", "The tool became proxied, or stopped being proxied.",
     "A proxied tool answers with its origin's result unchanged, an enveloped one with "
     "`{ok, data, meta}`: every caller reads the answer in the other shape (decision 0084)."),
)  # fmt: skip

_INPUTS = _rules(
    ("arg-removed", "breaking", "An argument (or a property of an object argument) was removed.",
     "Callers still send it: the call is refused (`unknown_args: forbid`, closed objects) or the "
     "value is silently dropped."),
    ("arg-added-required", "breaking", "A required argument (or property) was added.",
     "Existing calls do not send it and are refused."),
    ("arg-added-optional", "compatible", "An optional argument (or property) was added.",
     "Existing calls remain valid."),
    ("arg-became-required", "breaking", "An optional argument (or property) became required.",
     "Calls that omitted it are refused."),
    ("arg-became-optional", "compatible", "A required argument (or property) became optional.",
     "Every call that was valid still is."),
    ("arg-type-changed", "breaking", "The type of an argument was narrowed or changed.",
     "Some values callers sent are no longer accepted (`number` → `integer`, `string` → "
     "`object`, a type added where any value was allowed)."),
    ("arg-type-widened", "compatible", "An argument accepts more types than before.",
     "Every value that was accepted still is (`integer` → `number`, `string` → "
     "`[string, integer]`)."),
    ("nullability-removed", "breaking", "An argument no longer accepts `null`.",
     "Callers sending `null` are refused."),
    ("nullability-added", "compatible", "An argument now accepts `null`.",
     "A widening: every value that was accepted still is."),
    ("input-enum-value-removed", "breaking", "An argument no longer accepts an enum value.",
     "Callers sending that value are refused. (A `const` counts as an enum of one value.)"),
    ("input-enum-value-added", "compatible", "An argument accepts a new enum value.",
     "A widening: every value that was accepted still is."),
    ("input-enum-introduced", "breaking", "An argument that took any value is now an enum.",
     "Only the listed values are accepted from now on."),
    ("input-enum-dropped", "compatible", "An argument is no longer restricted to an enum.",
     "A widening: every value that was accepted still is."),
    ("bound-tightened", "breaking", "An input bound was added or tightened.",
     "One of `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, "
     "`maxLength`, `minItems`, `maxItems`, `minProperties`, `maxProperties`, `minContains`, "
     "`maxContains`, `multipleOf`, `uniqueItems` now refuses values it accepted. A `multipleOf` "
     "m → k·m tightens; m → m' where neither divides the other loses m too, so it counts here "
     "(and as loosened on `data`, where m' is new)."),
    ("bound-loosened", "compatible", "An input bound was removed or loosened.",
     "The same keywords, in the direction that accepts more values."),
    ("pattern-changed", "breaking", "An input `pattern` was added or changed.",
     "toolc cannot decide whether one regex accepts everything another accepts, so any new or "
     "different pattern on an input is treated as a narrowing."),
    ("pattern-removed", "compatible", "An input `pattern` was removed.",
     "Every string that matched the old pattern is still accepted."),
    ("input-object-closed", "breaking",
     "An object inside an argument stopped accepting undeclared properties.",
     "`additionalProperties` became `false`: callers sending extra properties are refused."),
    ("input-object-opened", "compatible",
     "An object inside an argument accepts undeclared properties again.",
     "`additionalProperties: false` was removed: a widening."),
    ("unknown-args-forbidden", "breaking", "`unknown_args` went from `ignore` to `forbid`.",
     "Calls carrying arguments the tool does not declare used to pass (the extras were dropped) "
     "and are now refused."),
    ("unknown-args-ignored", "compatible", "`unknown_args` went from `forbid` to `ignore`.",
     "Calls with undeclared arguments are accepted (the extras are dropped)."),
    *INPUT_ROWS,
    ("default-changed", "warning", "A `default` was added, removed or changed.",
     "Callers that omit the value now get a different behaviour, though every call stays valid."),
    ("format-changed", "warning", "A `format` was added, removed or changed.",
     "On an argument `format` is an annotation toolc does not enforce, but models and "
     "callers read it (a `date-time` parsed as such); on `data` the server enforces it as the "
     "TypeScript SDK client does, so callers rely on it. Conforming calls stay valid either "
     "way."),
)  # fmt: skip

_OUTPUTS = _rules(
    ("data-field-removed", "breaking", "A field of `data` (at any depth) was removed.",
     "Callers reading it find nothing."),
    ("result-item-field-removed", "breaking",
     "A field of a multi-item tool's per-item result was removed.",
     "Callers reading `results[]` entries find nothing where the field was."),
    ("data-field-added", "compatible", "A field of `data` or of a result item was added.",
     "Callers receive more than before and ignore what they do not know."),
    ("data-field-became-optional", "breaking", "A required field of `data` became optional.",
     "Callers that relied on its presence can find it missing."),
    ("data-field-became-required", "compatible", "An optional field of `data` became required.",
     "Callers always receive what they already handled."),
    ("data-field-type-changed", "breaking", "A field of `data` can hold values of a new type.",
     "Callers receive values of a type they did not handle (`integer` → `number`, `string` → "
     "`object`)."),
    ("data-field-type-narrowed", "compatible", "A field of `data` holds fewer types than before.",
     "Callers receive a subset of what they handled."),
    ("data-field-became-nullable", "breaking", "A field of `data` can now be `null`.",
     "Callers that did not expect `null` break."),
    ("data-field-nullability-removed", "compatible", "A field of `data` can no longer be `null`.",
     "Callers receive a subset of what they handled."),
    ("output-enum-value-added", "warning", "A field of `data` can hold a new enum value.",
     "Conforming callers ignore it, but exhaustive matches over the values break."),
    ("output-enum-value-removed", "compatible", "A field of `data` no longer holds an enum value.",
     "Callers receive a subset of what they handled."),
    ("output-enum-introduced", "compatible", "A field of `data` is now restricted to an enum.",
     "Callers receive a subset of what they handled."),
    ("output-enum-dropped", "warning", "A field of `data` is no longer restricted to an enum.",
     "Like a new enum value: exhaustive matches break."),
    ("output-constraint-tightened", "compatible",
     "A bound, `pattern` or closed object on `data` was added or tightened.",
     "Callers receive a subset of what they handled."),
    ("output-constraint-loosened", "warning",
     "A bound, `pattern` or closed object on `data` was removed, loosened or changed.",
     "Conforming callers do not care; callers that validate the answer strictly may refuse it."),
    ("content-added", "warning",
     "The tool may return a content kind or media type it did not declare before (`content:`).",
     "Like a new enum value: a client that handles only the declared images, audio or "
     "resources meets one it does not know. (No `content:` declares images of any type.)"),
    ("content-removed", "compatible",
     "The tool no longer returns a content kind or media type it declared (`content:`).",
     "Callers receive a subset of what they handled."),
    ("response-ceiling-lowered", "breaking",
     "The tool's response ceiling was lowered, or set where there was none.",
     "An answer that used to be sent may now be refused (`RESPONSE_TOO_LARGE`): a caller that "
     "got its data gets an error."),
    ("response-ceiling-raised", "compatible",
     "The tool's response ceiling was raised, or removed.",
     "Every answer that was sent still is."),
    *OUTPUT_ROWS,
)  # fmt: skip

_ERRORS_AND_POLICY = _rules(
    ("error-code-added", "compatible", "The tool declares a new error code.",
     "Generated clients tolerate codes they do not know."),
    ("error-code-removed", "compatible", "The tool no longer declares an error code.",
     "Callers stop receiving it; code handling it is merely dead."),
    ("error-retryable-changed", "breaking", "An error code's `retryable` changed.",
     "Callers decide whether to call again from it: a retry loop starts or stops."),
    ("confirmation-added", "breaking", "Calls now require the user's confirmation.",
     "Automated callers that cannot ask the user are refused (`CONFIRMATION_UNAVAILABLE`)."),
    ("confirmation-removed", "compatible", "Calls no longer require confirmation.",
     "Every call that passed still does."),
    ("operation-type-changed", "breaking", "The tool went from `read_only` to `transactional`.",
     "Callers that call read-only tools freely (retries, prefetching) now change state."),
    ("annotation-hint-relaxed", "warning",
     "A tool's annotation now claims less risk: `destructiveHint` true → false, "
     "`idempotentHint` false → true or `openWorldHint` true → false.",
     "Hosts read the hints to decide whether to ask the user before a call, or to retry one: "
     "a tool that claims less risk may now run or be retried without a question. Conforming "
     "callers are unaffected; make sure the new claim holds. (A hint left out counts as MCP's "
     "default; `readOnlyHint` follows the operation type.)"),
    ("annotation-hint-tightened", "compatible",
     "A tool's annotation now claims more risk: `destructiveHint` false → true, "
     "`idempotentHint` true → false or `openWorldHint` false → true.",
     "Hosts become more careful with the tool; no call that worked is refused."),
    ("operation-type-read-only", "compatible",
     "The tool went from `transactional` to `read_only`.",
     "It changes less than before."),
    ("pre-validation-added", "warning", "Pre-validation was added or switched on.",
     "The validator may refuse calls that used to pass."),
    ("pre-validation-removed", "compatible", "Pre-validation was removed or switched off.",
     "Calls are no longer refused by a validator."),
    ("pre-validation-changed", "warning",
     "Another validator, or `fail_open` went from `true` to `false`.",
     "The calls refused before confirmation are not the same as before."),
    ("pre-validation-relaxed", "compatible", "`fail_open` went from `false` to `true`.",
     "A failing validator no longer refuses the call."),
    ("handler-form-changed", "warning",
     "The handler's form of the arguments of a tool declaring `accepts` changed (its "
     "`args_schema`, `handler_input_schema` in the contract).",
     "Callers send the caller's form (the inputSchema, compared as ever): none is refused. What "
     "changed is what the server hands the handler and what the pre-validator must resolve "
     "into (`resolved_arguments`, else `PRE_VALIDATION_FAILED`): the handler's author codes "
     "against it, so a patch would say too little; a minor step (decision 0067)."),
    ("handler-timeout-changed", "warning",
     "`handler_timeout_seconds` was set, removed or changed.",
     "Calls that ran longer than the new limit are cancelled and answered TOOL_TIMEOUT (a code "
     "every contract has), or run longer before an answer. No call is refused."),
    ("operation-id-added", "compatible",
     "A multi-item tool declares its per-item operation id (`multi_item.operation_id`).",
     "Callers get each item's operation id surfaced; nothing they read before moves."),
    ("operation-id-changed", "breaking",
     "`multi_item.operation_id` names another item property, or is no longer declared.",
     "Callers reading the surfaced operation ids find another field's values, or none."),
)  # fmt: skip

_DOCS = _rules(
    ("description-changed", "docs", "A `description` changed (tool, argument or field).",
     "The model reads descriptions to decide when and how to call the tool: review the wording."),
    ("title-changed", "docs", "A `title` changed.", "A display text; the model may read it."),
    ("label-changed", "docs", "An argument's `label` (`x-toolc-label`) changed.",
     "How an agent names the argument to the user."),
    ("user-prompt-changed", "docs",
     "An argument's `user_prompt` (`x-toolc-user-prompt`) changed.",
     "The question an agent asks the user to collect the argument."),
    ("examples-changed", "docs", "An `examples` list changed.", "The model reads examples."),
    ("deprecation-changed", "docs", "`deprecated` was set or cleared.",
     "An annotation: nothing is refused, but models and IDEs steer away from deprecated items."),
    ("error-hint-changed", "docs", "An error code's `hint` changed.",
     "The text sent to the caller as `error.hint`."),
    *TEXT_ROWS,
    ("unclassified-change", "docs", "The contract changed in a way no rule classifies.",
     "A `$def` renamed, a type moved between inline and `types`, a schema merely rewritten "
     "(`type: [string]` for `type: string`), `multi_item.workflow`: the contract document's "
     "bytes changed, so the version must change, but nothing a caller depends on did. Reported "
     "once per tool; it needs a patch bump."),
    ("envelope-changed", "breaking", "The response envelope of every tool changed.",
     "The envelope (the `ok` / `error` / `meta` shape, `ErrorInfo`, `Meta`, the multi-item "
     "normalization and the framework's error codes) belongs to toolc, which keeps it "
     "byte-stable. A toolc release that changes it is reported once, naming the envelope "
     "versions and the tools affected, not once per tool; every affected tool needs the bump "
     "of a break (major; minor below 1.0.0), because the shape every caller parses first "
     "changed."),
)  # fmt: skip

RULES: dict[str, Rule] = {**_LIFECYCLE, **_INPUTS, **_OUTPUTS, **_ERRORS_AND_POLICY, **_DOCS}

# The sections of docs/evolution.md (diagnostics/docs.py renders it).
SECTIONS = (
    ("Lifecycle", _LIFECYCLE),
    ("Inputs: what callers send (narrowing breaks)", _INPUTS),
    ("Outputs: what callers receive (widening breaks)", _OUTPUTS),
    ("Error codes and policies", _ERRORS_AND_POLICY),
    ("Text the model reads, and the rest", _DOCS),
)

DOC_INTRO = """\
# Contract evolution

<!-- Generated from compiler/toolc/evolution/rules.py by `make docs`. DO NOT EDIT. -->

`toolc diff` compares each tool's contract document (`contracts/<tool>.json`) with a baseline and
classifies every change by the direction it moves: what callers *send* (the input schema) may
only widen, what they *receive* (the `data` of a successful answer, and the per-item results of
a multi-item tool) may only narrow. Every finding has a rule ID, a level, the tool, a path and a
message. `toolc explain RULE` prints a rule's explanation below; `toolc diff --list-rules` lists
the rules (`toolc explain --list-rules` lists them with the diagnostic codes).

Levels: **breaking** (some valid caller fails), **warning** (conforming callers are fine, strict
or exhaustive ones may not be), **compatible** (nothing a caller depends on is lost), **docs**
(text the model reads, or a change no rule classifies).

## The required bump

Per tool, the highest level among its findings decides the smallest version step:

| findings | version ≥ 1.0.0 | version 0.x |
| --- | --- | --- |
| any breaking | major | minor |
| any warning or compatible | minor | minor |
| only docs (including `unclassified-change`) | patch | patch |

A warning needs a minor step: a patch release says "nothing you rely on changed", which a new
enum value or a new validator does not honour, while a major step for a change conforming
callers survive would teach people to ignore majors. For 0.x versions semver promises nothing,
and the usual convention (Cargo's) puts breaking changes in the minor step.

A pre-release is one of the release it leads to (as npm's `semver.inc` counts steps): from
`2.0.0-rc.1` the major step is `2.0.0`, and a version meets a step when it is that release,
a higher one, or a pre-release of either, so a break may go out as `2.0.0-rc.1`, then
`2.0.0-rc.2`, then `2.0.0` (semver promises nothing of a pre-release).

## How schemas are compared

Schemas are compared by meaning, not by bytes. Local `$ref`s are followed on both sides (a
recursive type is compared once per pair of definitions), so a type moved from inline to
`types`, or a `$def` renamed, yields no removed/added findings, only one `unclassified-change`
(the document's bytes changed). `required` and `enum` are compared as sets. Reordering them
is no change at all where the snapshot's fingerprint sorts them too (in `properties`, `$defs`,
`items`, `additionalProperties` and `oneOf`/`anyOf`/`allOf`, docs/snapshot.md); elsewhere
(inside `prefixItems`, `if`/`then`/`else`, `not`, `contains`, `dependentSchemas`,
`patternProperties`) a reordered one changes the fingerprint, so it is an
`unclassified-change` (a patch), as a reordered `type` list is. The fingerprint's positions
stay as they are: widening them would change the fingerprints of snapshots already committed.
A tool has no finding exactly when its contract fingerprint is unchanged (the envelope aside).
The envelope's `oneOf` is never compared per tool: the envelope is separated from each tool's
own `data` and reported once (`envelope-changed`, whose tool is `*`).

Every keyword of JSON Schema 2020-12 is compared by the direction it moves. A union (`anyOf`,
or a `oneOf` whose branches are provably disjoint) is compared branch by branch, the node's
other keywords merged into each branch, and a schema without one as the union of itself alone:
`{type: string}` → `anyOf: [{type: string}, {type: 'null'}]` is a branch added. `allOf`
branches, `then`/`else` under an unchanged `if`, `prefixItems`, `contains`, `patternProperties`,
`propertyNames`, `dependentSchemas` and `unevaluated*` are compared keyword by keyword, an absent
subschema as `{}` (as `true`), `false` as accepting nothing; keywords beside a `$ref` apply with
its target. Where toolc cannot decide inclusion (a `not` or an `if` changed, a `oneOf` whose
branches may overlap, `contains` beside `maxContains`, a pattern against `additionalProperties`,
applicators beside `unevaluated*`, another `$schema` dialect, `$dynamicRef`), the change is
`input-schema-undecided` or `output-schema-undecided`: breaking, never a patch.

## Paths

A finding's path is a JSON pointer into the contract document, written through followed
`$ref`s as if every schema were inline: `/tool/inputSchema/properties/order_ids/items/pattern`
even when `items` is `{"$ref": "#/$defs/OrderId"}`. The data of a successful answer is under
`/tool/outputSchema/$defs/envelope.Data`. Messages name arguments and fields in a readable form:
`order_ids[]` for the items of an array, `customer.address` for a property of an object,
`tags.*` for `additionalProperties`; fields of `data` are named from inside it (`status`,
`results[].reason` for a field of a multi-item tool's result item).
"""
