"""The one table of diagnostic codes. It sets the severity of every diagnostic (a code that is not
here cannot be emitted) and, through the catalogue (catalogue.py), drives ``toolc explain`` and
``docs/diagnostics.md``."""

from __future__ import annotations

import msgspec

from toolc.contract.framework import FRAMEWORK_ERROR_CODES
from toolc.diagnostics.model import Diagnostic, Note, Severity, Span

E, W = Severity.ERROR, Severity.WARNING
# Named from the envelope's own table, so that the explanation lists every one of them.
_FRAMEWORK_CODES = ", ".join(FRAMEWORK_ERROR_CODES[:-1]) + f" and {FRAMEWORK_ERROR_CODES[-1]}"


class Target(msgspec.Struct, frozen=True):
    """A provider target's rule (decision 0074): whom it follows, on what authority."""

    name: str  # openai-strict, anthropic, gemini, mcp
    source: str  # the document the rule follows
    dated: str  # the version or date of it that was read


class Rule(msgspec.Struct, frozen=True):
    code: str
    severity: Severity
    group: str
    summary: str
    explanation: str
    target: Target | None = None  # only the rules of `--target` (group `targets`)


_RULES = [
    # --- reading the files -----------------------------------------------------------------
    Rule(
        "file-not-found",
        E,
        "input",
        "The config directory has no tools.yaml.",
        "toolc reads `tools.yaml` (and optionally `tool_policies.yaml`) from the config directory, "
        "the current directory by default. Run `toolc check DIR` with the directory that holds "
        "them, or create `tools.yaml` with a top-level `tools:` mapping.",
    ),
    Rule(
        "not-a-file",
        E,
        "input",
        "A config path names something that is not a regular file.",
        "`tools.yaml` and `tool_policies.yaml` must be regular files (a symbolic link to one is "
        "fine). A directory, a FIFO, a device, or a link to nothing or in a loop at one of those "
        "paths is refused rather than skipped: skipping `tool_policies.yaml` would drop every "
        "confirmation and pre-validation rule without a word.",
    ),
    Rule(
        "file-too-large",
        E,
        "input",
        "The file is larger than toolc reads.",
        "Config files are capped at 32 MiB so that a runaway or hostile file fails fast instead of "
        "exhausting memory. Split the tools over several projects if you really have that much.",
    ),
    Rule(
        "not-utf8",
        E,
        "input",
        "The file is not valid UTF-8.",
        "Config files must be UTF-8 (a UTF-8 byte-order mark is accepted). The diagnostic points "
        "at the first byte that does not decode, or says that the file is UTF-16 (the default "
        "of some Windows editors and shells); re-save the file as UTF-8.",
    ),
    Rule(
        "binary-file",
        E,
        "input",
        "The file holds binary data, not YAML text.",
        "The file contains NUL bytes, which no YAML text holds. Check that the path points at "
        "the YAML file and not at an archive or a compiled artefact. (Other control characters "
        "are reported by the YAML parser as `yaml-syntax`.)",
    ),
    Rule(
        "empty-file",
        E,
        "input",
        "The file holds no YAML document.",
        "An empty `tools.yaml` declares nothing. Write `tools:` with at least one tool; for "
        "`tool_policies.yaml`, write `tool_policies: {}` or delete the file.",
    ),
    Rule(
        "yaml-syntax",
        E,
        "yaml",
        "The file is not well-formed YAML.",
        "The YAML parser stopped at this position. The message repeats what it expected; a "
        "common cause is a missing space after `:` or an unclosed quote or bracket.",
    ),
    Rule(
        "yaml-tab-indent",
        E,
        "yaml",
        "A tab character is used for indentation.",
        "YAML forbids tabs in indentation. Replace the tab with spaces (two per level is usual).",
    ),
    Rule(
        "yaml-duplicate-key",
        E,
        "yaml",
        "A mapping has the same key twice.",
        "PyYAML silently keeps the last of two equal keys; toolc refuses the file, because one "
        "of the two declarations would be lost without a word. Remove or rename one of them.",
    ),
    Rule(
        "yaml-unsupported-tag",
        E,
        "yaml",
        "A YAML tag outside the JSON-compatible core schema.",
        "toolc loads YAML safely: only the core tags `!!str`, `!!int`, `!!float`, `!!bool`, "
        "`!!null`, `!!map` and `!!seq` are accepted. Python tags (`!!python/...`) and custom "
        "tags are refused. Remove the tag.",
    ),
    Rule(
        "yaml-tag-mismatch",
        E,
        "yaml",
        "A value does not fit the core tag it is given.",
        "A value tagged `!!int`, `!!float`, `!!bool` or `!!null` must be written as YAML 1.2 "
        "writes that type (`!!bool true`, `!!int 12`). Fix the value or drop the tag.",
    ),
    Rule(
        "yaml-alias-limit",
        E,
        "yaml",
        "Aliases expand to more nodes than toolc accepts.",
        "Anchors and aliases (`&a`, `*a`) may be used, but their expansion is capped at 100,000 "
        'nodes so that an alias bomb ("billion laughs") fails at once instead of hanging. '
        "Write the repeated parts out, or share them with `types:` and `$ref`.",
    ),
    Rule(
        "yaml-depth-limit",
        E,
        "yaml",
        "The YAML nests deeper than toolc accepts.",
        "Nesting is capped at 64 levels. No real tool declaration nests that deep; flatten the "
        "schema or share parts through `types:` and `$ref`.",
    ),
    Rule(
        "yaml-size-limit",
        E,
        "yaml",
        "The file holds more values than toolc reads.",
        "A file may hold at most 3,000,000 values (a 5,000-tool config holds about 1.5 million), "
        "so that a runaway file fails in seconds instead of taking minutes and gigabytes.",
    ),
    Rule(
        "yaml-merge-key",
        E,
        "yaml",
        "A YAML 1.1 merge key (`<<`).",
        "Merge keys are not part of YAML 1.2 and are not supported. Repeat the keys, or share "
        "the schema with `types:` and `$ref`.",
    ),
    Rule(
        "yaml-complex-key",
        E,
        "yaml",
        "A mapping key that is not a plain scalar.",
        "Mapping keys must be scalars (names), as in JSON. A sequence, mapping or alias used as a "
        "key has no JSON equivalent; write the key as text.",
    ),
    Rule(
        "non-json-value",
        E,
        "yaml",
        "A value JSON cannot represent (`.inf`, `.nan`).",
        "Config values end up in published JSON Schemas and JSON payloads. YAML's `.inf`, "
        "`-.inf` and `.nan` have no JSON equivalent; use a finite number, or quote the text.",
    ),
    Rule(
        "yaml-multiple-documents",
        E,
        "yaml",
        "The file holds more than one YAML document.",
        "Each config file holds exactly one document. Remove the `---` separator and merge the "
        "documents, or move the second one to another file.",
    ),
    # --- the published schemas -------------------------------------------------------------
    Rule(
        "schema-type",
        E,
        "schema",
        "A value has the wrong type.",
        "The value does not have the type the published schema requires (for instance a string "
        "where a boolean is expected). YAML 1.2 reads `yes`, `no`, `on` and `off` as strings: "
        "write `true` or `false`.",
    ),
    Rule(
        "unknown-key",
        E,
        "schema",
        "A key the config language does not define.",
        "The key is not part of the config language at this position. The message suggests the "
        "closest known key; `docs/config.md` lists them all.",
    ),
    Rule(
        "missing-key",
        E,
        "schema",
        "A required key is missing.",
        "The published schema requires this key here. For tools, `version`, `description`, "
        "`mcp_server` and `tool_type` are required.",
    ),
    Rule(
        "invalid-value",
        E,
        "schema",
        "A value is outside what the schema allows.",
        "The value is of the right type but not one of the allowed values, or breaks a bound or "
        "pattern of the config language. The message names what is allowed.",
    ),
    Rule(
        "unknown-type",
        E,
        "schema",
        "An argument spec names a type JSON Schema does not have.",
        "`type` must be one of `string`, `integer`, `number`, `boolean`, `object`, `array` (or "
        'its alias `list`) and `null`, or a list of them such as `[string, "null"]`.',
    ),
    Rule(
        "invalid-version",
        E,
        "schema",
        "A tool version is not a semantic version.",
        "Every tool declares `version` as MAJOR.MINOR.PATCH (semver 2.0, pre-release and build "
        "suffixes allowed), for example `version: 1.0.0`. Quote nothing; there is no default.",
    ),
    Rule(
        "invalid-tool-name",
        E,
        "schema",
        "A tool name breaks MCP's naming rule.",
        "MCP tool names are 1 to 128 characters of `A-Z a-z 0-9 _ . -`. Rename the tool.",
    ),
    Rule(
        "unsupported-keyword",
        E,
        "schema",
        "A JSON Schema keyword toolc does not take.",
        "toolc takes every keyword of JSON Schema 2020-12 with its 2020-12 meaning, and refuses "
        "the few whose meaning depends on where a schema is fetched from or which dialect reads "
        "it: `$id` (a schema's identity would move with every tool that publishes it), "
        "`$dynamicRef`/`$dynamicAnchor` (resolved along the evaluation path, which no generated "
        "type can follow), `$vocabulary` (a dialect's own metaschema), `$schema` inside a "
        "fragment (declare the dialect once, in the tool's `args_keywords`), and a `$ref` that "
        "is not local (an URL, a relative file, an anchor such as `#name`): toolc publishes "
        "self-contained schemas and resolves JSON pointers only. Draft 7 and OpenAPI spellings "
        "(`definitions`, `dependencies`, `additionalItems`, `nullable`, `discriminator`) get "
        "their 2020-12 replacement in the message.",
    ),
    Rule(
        "invalid-arg-schema",
        E,
        "schema",
        "An argument spec is not valid JSON Schema.",
        "The spec, once `list` is read as `array` and `$ref` points into `$defs`, must be a valid "
        "JSON Schema 2020-12 document (checked against the 2020-12 metaschema), and it must be "
        "satisfiable: bounds in order, `required` properties declared, `enum` not empty, a "
        "required argument not `false`.",
    ),
    Rule(
        "invalid-default",
        E,
        "schema",
        "A `default`, `const`, `enum` value or example does not match its own schema.",
        "Clients fill in `default` and show `examples`; a value that its own schema rejects "
        "would be refused at call time, and a `const` or `enum` value of the wrong type can "
        "never be sent. Fix the value or the schema.",
    ),
    Rule(
        "unsupported-pattern",
        E,
        "schema",
        "A pattern needs what a linear-time regex engine cannot do.",
        "A pattern means what ECMA-262 says under the `u` flag, as JavaScript clients read it; "
        "the generated models check it with a translation for Rust's linear-time regex engine, "
        "so no input can stall the server. Lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, "
        "`(?<!`), backreferences (`\\1`, `\\k<name>`), Unicode script properties "
        "(`\\p{Script=...}`), lone surrogates, ES2025 additions (`(?i:...)`, a group name used "
        "again) and patterns too large for the engine have no translation. The caret shows the "
        "construct; rewrite it (e.g. a class for a script), or check the rule in the handler.",
    ),
    Rule(
        "invalid-pattern",
        E,
        "schema",
        "A pattern is not a valid ECMAScript regular expression.",
        '`new RegExp(pattern, "u")` would throw a SyntaxError, so every JavaScript client refuses '
        "the published schema. Under the `u` flag a lone `{`, `}` or `]` must be escaped, only "
        "syntax characters and `/` may be escaped (`\\-` only inside a class), and `(?P<`, "
        "`(?i)`, `\\A`, `\\Z` and octal escapes do not exist. The caret shows the offending "
        "construct and the hint the fix.",
    ),
    Rule(
        "unknown-ref",
        E,
        "schema",
        "`$ref` names a type that is not declared.",
        "`$ref` takes `#/types/<Name>`, a name declared under the top-level `types:` mapping of "
        "tools.yaml (the message suggests the closest declared name), or a JSON pointer into "
        "the fragment it is written in (`#`, `#/$defs/<Name>`, `#/properties/a`): read from "
        "the root of that argument, `returns`, item or type, or, in `args_keywords`, from the "
        "arguments object. A pointer that leads to no schema there is this error.",
    ),
    Rule(
        "defs-collision",
        E,
        "schema",
        "`args_keywords.$defs` declares a name a shared type also publishes.",
        "The inputSchema's root `$defs` holds both the tool's `args_keywords.$defs` and the "
        "shared types (`#/types/X` is published as `#/$defs/X`), so one "
        "name cannot be both. Rename the entry of `$defs` (and the pointers to it), or use the "
        "shared type.",
    ),
    Rule(
        "ref-cycle",
        E,
        "schema",
        "`$ref`s lead back to the same value in a loop with nothing in between.",
        "A type that is only a `$ref` to itself, directly or through other types (A → B → A), "
        "describes no value at all. So does a loop of JSON pointers inside a fragment "
        "(`a: {$ref: '#'}` in `args_schema`, `#/$defs/X` where X is `{$ref: '#/$defs/X'}`, "
        "X → Y → X), and a loop through `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` "
        "or `dependentSchemas`, which apply to the same value (`{allOf: [{$ref: '#'}]}`). "
        "Keywords beside such a `$ref` do not help: every validator, the generated models "
        "included, would follow the loop forever. Recursion is fine when the loop passes "
        "through structure, so that each step validates a part of the value: `children: "
        "{type: array, items: {$ref: '#/types/Node'}}`, or in an argument `{type: object, "
        "properties: {children: {type: array, items: {$ref: '#'}}}}`.",
    ),
    Rule(
        "recursive-type",
        E,
        "schema",
        "A shared type refers to itself without passing through an object.",
        "A recursive type must pass through an object (a tree node, say), which becomes the "
        'Python class that holds the recursion: `type: object` or `[object, "null"]`, or an '
        "object by its `properties` with no `type`, that is a shared type itself or declares "
        "`properties`, `required` or `additionalProperties: false`. `Tree: {type: array, "
        "items: {$ref: '#/types/Tree'}}` has no class to hold it. Wrap the recursion in an "
        "object, e.g. `Node: {type: object, properties: {children: {type: array, items: "
        "{$ref: '#/types/Node'}}}}`.",
    ),
    Rule(
        "pattern-python-client",
        W,
        "schema",
        "A pattern in a result's schema that Python's `re` cannot compile.",
        "toolc reads patterns as ECMA-262, as JavaScript clients do. The official Python MCP "
        "client checks a tool's outputSchema against the JSON Schema metaschema before it "
        "checks a result, and it compiles each `pattern` (and `patternProperties` key) with "
        "Python's `re`: ECMA syntax `re` lacks (`\\p{L}`, `(?<name>...)`, `\\u{...}`, `[^]`) makes "
        "it refuse every answer of the tool with 'Invalid schema for tool'. Write the pattern "
        "in syntax both read, or keep it on arguments, which that client does not check.",
    ),
    Rule(
        "unknown-format",
        W,
        "schema",
        "A `format` that JSON Schema 2020-12 does not define.",
        "Any name is allowed (on arguments `format` is an annotation; on results the server "
        "checks the names JSON clients know, as ajv-formats does), but a name "
        "outside the 2020-12 list (date-time, date, time, duration, email, idn-email, hostname, "
        "idn-hostname, ipv4, ipv6, uri, uri-reference, iri, iri-reference, uuid, uri-template, "
        "json-pointer, relative-json-pointer, regex) is usually a typo, and clients ignore it.",
    ),
    Rule(
        "unused-type",
        W,
        "schema",
        "A shared type is declared but never referenced.",
        "Nothing reaches this entry of `types:` through `$ref`. Remove it or reference it.",
    ),
    # --- cross-file rules ------------------------------------------------------------------
    Rule(
        "policy-unknown-tool",
        E,
        "policy",
        "A policy names a tool tools.yaml does not declare.",
        "Every key of `tool_policies:` must be a tool declared in tools.yaml. The message "
        "suggests the closest declared name; a policy left behind by a renamed tool is the "
        "usual cause.",
    ),
    Rule(
        "prevalidator-unknown",
        E,
        "policy",
        "`pre_validation.tool` is not a declared tool.",
        "The pre-validator is an MCP tool of its own and must be declared in tools.yaml.",
    ),
    Rule(
        "prevalidator-disabled",
        E,
        "policy",
        "`pre_validation.tool` names a disabled tool.",
        "A disabled tool is not served, so the pre-validation could never run. Enable the "
        "validator or disable the pre-validation.",
    ),
    Rule(
        "prevalidator-other-server",
        E,
        "policy",
        "The pre-validator lives on another MCP server.",
        "Pre-validation runs inside the target tool's server, so the validator must have the same "
        "`mcp_server` as the tool it validates.",
    ),
    Rule(
        "prevalidator-self",
        E,
        "policy",
        "A tool is its own pre-validator.",
        "Pre-validation asks another tool whether a call may proceed; a tool cannot vouch for "
        "itself. Name the validator tool in `pre_validation.tool`.",
    ),
    Rule(
        "prevalidator-arguments",
        E,
        "policy",
        "The pre-validator cannot accept the target's arguments.",
        "The validator is called with the target tool's arguments, unchanged. It must declare "
        "every argument it requires among the target's arguments, and when it has "
        "`unknown_args: forbid` it must declare every argument the target has, or every call "
        "would be refused.",
    ),
    Rule(
        "prevalidator-narrower",
        E,
        "policy",
        "A pre-validator refuses argument values its target accepts.",
        "The server sends the pre-validator the target's validated arguments unchanged, so for "
        "every argument the two tools share, the validator's schema must accept every value the "
        "target's does. Here toolc proved a value the target accepts and the validator refuses "
        "(a type, `null` or an enum value it lacks, a tighter bound, a newly required or "
        "undeclared property of a closed object): every call carrying such a value would fail "
        "with PRE_VALIDATION_FAILED. The diagnostic points at the validator's schema and notes "
        "the target's. Widen the validator's schema (the target already checked the value), or "
        "narrow the target's.",
    ),
    Rule(
        "prevalidator-undecided",
        W,
        "policy",
        "toolc cannot tell whether a pre-validator accepts every value its target accepts.",
        "Like `prevalidator-narrower`, but the difference is one toolc cannot decide: two "
        "different `pattern`s (whether one regex accepts every string another does is not "
        "decided), or a length bound beside a pattern. Check it yourself; to be sure, give the "
        "validator's argument the target's schema, or drop the constraint from the validator, "
        "which receives arguments the target already validated.",
    ),
    Rule(
        "accepts-unresolved",
        E,
        "policy",
        "A tool declares `accepts`, but nothing resolves what callers send.",
        "`accepts` publishes, for an argument, what a caller may send (the names a user said) "
        "apart from what the handler receives (its `args_schema`, the canonical items). Only "
        "the tool's pre-validator turns one into the other, in "
        "`transaction_decision.resolved_arguments`, so the tool needs one that runs on every "
        "call and never lets the caller's form through: a `pre_validation` in "
        "tool_policies.yaml, enabled, with `fail_open: false`. A tool that is itself a "
        "pre-validator cannot declare `accepts` either: it is called with its target's "
        "arguments, which nothing resolves for it. Add such a pre-validation, or remove "
        "`accepts`.",
    ),
    Rule(
        "accepts-unknown-arg",
        E,
        "policy",
        "`accepts` names an argument that does not exist.",
        "Every key of a tool's `accepts` must be a key of its `args_schema`: `accepts` gives "
        "the caller's form of an argument the tool declares, `args_schema` the handler's.",
    ),
    Rule(
        "requires-unknown-arg",
        E,
        "policy",
        "`requires` names an argument that does not exist.",
        "Every name in `requires` (in tools.yaml or tool_policies.yaml) must be a key of the "
        "tool's `args_schema`.",
    ),
    Rule(
        "requires-mismatch",
        E,
        "policy",
        "tools.yaml and tool_policies.yaml disagree on `requires`.",
        "Both files may list the required arguments; when both do, they must name the same set. "
        "Two sources of truth that disagree is an error, not a precedence rule: keep one.",
    ),
    Rule(
        "confirmation-mismatch",
        E,
        "policy",
        "`confirmation_required` and `require_confirmation` disagree.",
        "The tool's `confirmation_required` and its policy's `require_confirmation` say "
        "different things. Make them agree, or keep only one of them.",
    ),
    Rule(
        "operation-type-mismatch",
        E,
        "policy",
        "`tool_type` and `operation_type` disagree.",
        "`tool_type: query` goes with `operation_type: read_only`, and `tool_type: action` with "
        "`operation_type: transactional`. Fix whichever is wrong.",
    ),
    Rule(
        "identifier-collision",
        E,
        "tools",
        "Two names map to the same Python identifier.",
        "Generated code names a class per tool (PascalCase) and a field per argument "
        "(snake_case). Two tools, or two arguments of one tool, that differ only in "
        "punctuation or case would produce the same identifier. Rename one.",
    ),
    Rule(
        "mcp-server-name-hidden",
        E,
        "tools",
        "An `mcp_server` name starts with a dot.",
        "An mcp_server's name names files: its reference page (`<server>.md`) and the module "
        "`toolc scaffold` writes (`<server>_server.py`). A name that starts with `.` makes "
        "them hidden files, and `.` or `..` name no file of their own. Rename the mcp_server "
        "so that it starts with a letter, a digit, `_` or `-`.",
    ),
    Rule(
        "reserved-error-code",
        E,
        "tools",
        "A tool declares one of the framework's error codes.",
        f"{_FRAMEWORK_CODES} belong to every tool's contract already (docs/envelope.md). "
        "Declare only domain codes under `errors:`.",
    ),
    Rule(
        "multi-item-status-missing",
        E,
        "tools",
        "A multi-item result has no boolean `success`/`ok`.",
        "Each element of a multi-item tool's `results` must carry a required boolean `success` "
        "or `ok` (guide §4): declare it in `multi_item.item` with `required: [success]`.",
    ),
    Rule(
        "multi-item-items-unknown",
        W,
        "tools",
        "A multi-item tool has no single argument that holds its items.",
        "The typed client sends, and the server hands the handler, one idempotency key per "
        "item of the tool's items argument: its one argument of type `array` (or `list`), "
        "also nullable or through a `$ref` to a shared array type; among several, the one "
        "typed `array` itself (docs/serving.md). With none, or several that tie, each call "
        "carries its request key alone, so a retry cannot tell which items were done. Take "
        "the items in one argument typed `array`.",
    ),
    Rule(
        "multi-item-reserved-field",
        E,
        "tools",
        "`returns` of a multi-item tool redefines a normalized field.",
        "For a multi-item tool toolc adds `results`, `multi_item_status`, `partial_success`, "
        "`metadata`, `original_ok` and `secondary_error` to the data. Rename the field.",
    ),
    Rule(
        "prevalidator-returns",
        E,
        "policy",
        "A pre-validator declares `returns`.",
        "A pre-validator's data is the guide's decision (`eligible`, `transaction_decision`, "
        "`reason`), published by toolc. Remove `returns` from the validator.",
    ),
    Rule(
        "annotation-contradiction",
        E,
        "policy",
        "A stated MCP annotation contradicts the tool's operation type.",
        "`annotations:` states the hints a client reads (`readOnlyHint`, `destructiveHint`, "
        "`idempotentHint`, `openWorldHint`) where the ones toolc derives from the operation "
        "type do not fit, say `destructiveHint: false` for a tool that only adds. It may not "
        "contradict the operation type: `readOnlyHint` must be `true` exactly for a read-only "
        "tool (the effective `operation_type`, from the policy or `tool_type`), and a read-only "
        "tool cannot be `destructiveHint: true`. A client trusting the wrong hint would skip a "
        "confirmation or retry a call that changes state. Remove the hint, or fix `tool_type`.",
    ),
    Rule(
        "transactional-without-confirmation",
        W,
        "policy",
        "A transactional tool asks for no confirmation.",
        "The tool changes state (`tool_type: action` or `operation_type: transactional`) but "
        "neither `confirmation_required` nor `require_confirmation` is true. Add one, or declare "
        "the tool read-only if it is. If the tool needs no confirmation (it only adds, say), "
        "write `confirmation_required: false` in tools.yaml: an explicit `false`, with no policy "
        "or a policy that agrees, states it and silences this warning.",
    ),
    Rule(
        "transactional-prevalidator",
        W,
        "policy",
        "A pre-validator is itself transactional.",
        "A pre-validator runs before the user confirms anything, so it should only read. Make it "
        "`tool_type: query` / `operation_type: read_only`.",
    ),
]

_RULES += [
    # --- descriptions against the schemas ---------------------------------------------------
    Rule(
        "description-unknown-field",
        W,
        "prose",
        "A tool's description names a result field its `returns` does not declare.",
        "The model reads the description, not the schema: a description that promises "
        '`data.total`, `{ items, total }` or "returns `page`" while `returns` has no such '
        "field sends the agent after a value that never comes. Rename the field in the "
        "description to a declared one (the message suggests the nearest), or declare it under "
        "`returns:`. A name counts as a field only in those forms (a `data.` path, a brace list "
        'of names, backticked names right after "returns"); plain words never do '
        "(decision 0066).",
    ),
    Rule(
        "description-field-outside-data",
        W,
        "prose",
        "A description shows a result field at the top of the answer; it lives in `data`.",
        "Every answer is the envelope `{ ok, data, meta }` (or `{ ok, error, meta }`): a tool's "
        "own fields are inside `data`. A description written before the envelope, such as "
        '"Returns { items, total }", tells the agent to read `items` at the top, where it '
        "is not (ADR-016's debt 4). Write the path the agent must read: `data.items`, "
        "`data.total`, or describe `data` in words. A proxied tool is not checked: its "
        "origin's answer has no envelope, so its fields are at the top.",
    ),
    Rule(
        "description-unknown-arg",
        W,
        "prose",
        "A description names an argument the tool does not have.",
        'A tool or argument description that says "argument `x`" (or "parameter"), or '
        "backticks a name that is close to one of the tool's arguments and known nowhere else "
        "(not a field, an enum value, an error code, a type or a tool), points the model at an "
        "argument that does not exist. Use the argument's real name (the message suggests "
        "it), or declare the argument under `args_schema:`.",
    ),
    Rule(
        "action-named-like-query",
        W,
        "prose",
        "An action tool's name reads as read-only (get_, list_, consultar_...).",
        "A transactional tool named `get_...`, `list_...`, `search_...` (or `consultar_`, "
        "`listar_`, `buscar_`) looks safe to call freely: agents and reviewers take the name at "
        "its word. Rename it for what it changes (`cancel_`, `update_`, `create_`), or, if it "
        "only reads, make it a query (`tool_type: query`).",
    ),
    # --- the metadata lint (opt-in: metadata_lint) ------------------------------------------
    Rule(
        "tool-without-title",
        W,
        "metadata",
        "A tool has no title.",
        "Without `title:` clients show a title made from the name (`cancelar_pedidos` → "
        "`Cancelar pedidos`). Add a short human-readable `title:`. Reported only with the "
        "metadata lint on (`metadata_lint = true` in [tool.toolc], or `--metadata-lint`).",
    ),
    Rule(
        "arg-without-description",
        W,
        "metadata",
        "An argument has no description.",
        "The model fills arguments from their descriptions. Add `description:` to the argument "
        "(or to the shared type it references) saying what the value is and where it comes "
        "from. Reported only with the metadata lint on.",
    ),
    Rule(
        "enum-without-description",
        W,
        "metadata",
        "An enum has no description of its values.",
        "Enum members are names, not explanations: add `description:` beside `enum:` saying "
        "what each value means (for an argument, when to choose it). Reported only with the "
        "metadata lint on.",
    ),
    Rule(
        "description-too-short",
        W,
        "metadata",
        "A tool's description is shorter than a sentence.",
        "A description of fewer than 3 words or 16 characters cannot tell the model when to "
        "choose the tool. Say what it does, to what, and what it answers. Reported only with "
        "the metadata lint on.",
    ),
    # --- response ceilings (issue 14) ------------------------------------------------------
    Rule(
        "response-ceiling-too-small",
        E,
        "tools",
        "A response ceiling cannot hold the envelope.",
        "A ceiling (`response_ceiling_bytes` of a tool or of `servers.<name>`) limits the "
        "bytes of the answer's text, envelope included; the envelope may take up to the "
        "tool's reserve (its meta, and for a multi-item tool the normalized fields, a "
        "secondary error and the composed ALL_ITEMS_FAILED text), and the RESPONSE_TOO_LARGE "
        "answer must fit too. Raise the ceiling to at least the size the message gives "
        "(docs/serving.md, Response ceilings).",
    ),
    Rule(
        "unknown-server-settings",
        W,
        "tools",
        "`servers:` has settings for a server no tool serves on.",
        "Each key of `servers:` must be the `mcp_server` of some tool: settings for another "
        "name (a typo) would be silently ignored. Name a server the tools use, or remove the "
        "entry.",
    ),
    # --- proxied tools ----------------------------------------------------------------------
    Rule(
        "proxy-origin-unclear",
        E,
        "tools",
        "A proxied tool names no origin server, or two.",
        "`proxy:` names the origin server by exactly one of `command` (a stdio command: the "
        "program, then its arguments) and `url` (a Streamable HTTP endpoint). Keep one.",
    ),
    Rule(
        "proxy-envelope-feature",
        E,
        "tools",
        "A proxied tool declares something only an enveloped tool can have.",
        "A proxied tool answers with the origin's result unchanged (decision 0084), so nothing "
        "toolc adds around a handler applies to it: no `errors`, `multi_item`, `content`, "
        "`accepts`, confirmation or pre-validation, and it cannot be another tool's "
        "pre-validator. Remove the key, or declare the tool without `proxy:` and forward the "
        "call from its handler.",
    ),
    # --- the build: version guard and generated files ------------------------------------------
    Rule(
        "version-not-bumped",
        E,
        "build",
        "A tool's contract changed but its version did not increase.",
        "The snapshot (`mcp-tools.json`) records each tool's version and contract fingerprint. "
        "A contract that changed under the same version would reach callers unannounced: bump "
        "`version` (the message gives the smallest acceptable one) and build again.",
    ),
    Rule(
        "version-decreased",
        E,
        "build",
        "A tool's version is lower than the one in the snapshot, or a removed tool came back "
        "at or below the version it was removed at.",
        "Versions only go up. Restore at least the recorded version. A tool declared again "
        "under a name whose removal an `accepted_breaks:` entry records needs a version above "
        "the entry's `from`, a major release under `bump_policy: semver` (its old contract "
        "went with it, so the change cannot be classified): the message gives the minimum.",
    ),
    Rule(
        "tool-removed",
        E,
        "build",
        "A tool in the snapshot is no longer declared, and no accepted break records it.",
        "Removing a tool breaks every caller that uses it, so it is a deliberate, recorded act: "
        "add an `accepted_breaks:` entry (`tool`, `from:` its last version, `to: removed`, "
        "`rule: tool-removed`, `reason`) and build again. The entry stays quiet while the tool "
        "stays absent. Keep it: once the snapshot has dropped the tool's line it is the only "
        "record of the name's last version, which a tool declared again under that name must "
        "go above (`version-decreased`).",
    ),
    Rule(
        "version-bump-too-small",
        E,
        "build",
        "A tool's version went up, but less than its contract changes call for.",
        "Under `bump_policy: semver` (the default) a breaking change needs a major release "
        "(minor below 1.0.0), a compatible or warning one a minor release, docs and "
        "unclassified changes a patch (docs/evolution.md). The message names the rules that "
        "set the level; `toolc bump --write` sets the minimum, and an `accepted_breaks:` entry "
        "ships one break in a smaller release on purpose.",
    ),
    Rule(
        "accepted-break-invalid",
        E,
        "tools",
        "An `accepted_breaks:` entry cannot match: unknown rule or tool, or a bad version.",
        "Each entry names a declared tool (or a retired one with `to: removed` and `rule: "
        "tool-removed`), a rule ID from `toolc diff --list-rules`, the snapshot's version as "
        "`from`, and a higher version (or `removed`) as `to`.",
    ),
    Rule(
        "baseline-empty",
        W,
        "build",
        "The `--against` baseline holds no config, so every tool counts as new.",
        "The git revision has no tools.yaml where the config is now (it was added, moved or "
        "renamed since): nothing is compared, and the version gate passes everything. Point "
        "`--against` at a revision or directory that has the config.",
    ),
    Rule(
        "accepted-break-stale",
        W,
        "build",
        "An `accepted_breaks:` entry matches no version transition of this build.",
        "Each entry covers one exact transition (`from` → `to`) of one tool. It stays quiet "
        "while the snapshot records `to` (the pull request that ships the break, built and "
        "committed, passes `check --strict`); once the tool moves past `to`, or when the "
        "snapshot never held `from`, it can match nothing: remove it. A removal's entry "
        "(`to: removed`) stays quiet while the tool is absent and while it comes back, and "
        "goes stale once the snapshot records the tool again.",
    ),
    Rule(
        "listing-over-budget",
        W,
        "build",
        "A server's `tools/list` is estimated over the token budget you set.",
        "Every agent that connects to a server reads its whole listing, in every conversation: "
        "`listing_budget` in `[tool.toolc]` (tokens, per mcp_server) says how much of the "
        "context it may take. Tokens are estimated as UTF-8 bytes / 4 of the descriptors as the "
        "server sends them. The warning points at the server's largest tool; `toolc check "
        "--stats` lists each tool's bytes and tokens. Shorten descriptions, share repeated "
        "shapes as `types:`, split the tools over servers, or raise the budget.",
    ),
    Rule(
        "snapshot-invalid",
        E,
        "build",
        "The snapshot file cannot be read.",
        "`mcp-tools.json` is written by `toolc build`; restore it from version control, or "
        "delete it: the next build writes a new one, judging each tool against the last "
        "build's output if there is one (without it, every tool counts as new).",
    ),
    Rule(
        "output-missing",
        E,
        "build",
        "A generated file is missing.",
        "`toolc check` found a file that `toolc build` would write missing from the output. Run "
        "`toolc build`.",
    ),
    Rule(
        "output-changed",
        E,
        "build",
        "A generated file differs from what toolc would generate.",
        "The file was edited by hand, or the config changed since the last build. Run "
        "`toolc build`, which writes the generated bytes back over a hand edit too (`toolc "
        "check --diff` shows the difference). Code of your own belongs beside the package "
        "(`toolc scaffold` starts it), not in it.",
    ),
    Rule(
        "output-orphaned",
        E,
        "build",
        "A file toolc generated earlier is no longer generated.",
        "Run `toolc build`, which removes it.",
    ),
    Rule(
        "output-not-owned",
        E,
        "build",
        "A generated file would overwrite a file toolc did not write.",
        "toolc records the files it writes and never overwrites or deletes anything else, "
        "except a file that already holds exactly what it would write, or a module whose first "
        "line says toolc generated it (decision 0015). Move the file away, or choose another "
        "output directory with `--out`.",
    ),
    Rule(
        "output-generator-version",
        W,
        "build",
        "Generated files come from another toolc version.",
        "The files match except for the generator version in their header. Run `toolc build` "
        "to refresh the headers.",
    ),
    Rule(
        "output-locked",
        E,
        "build",
        "Another toolc build of the same output held its lock too long.",
        "Builds of one output directory run one at a time: a second build waits for the lock "
        "file beside the output (`.<name>.toolc-lock`), saying so, for `TOOLC_LOCK_TIMEOUT` "
        "seconds (default 120). Wait for the other build, or raise the timeout. A lock left "
        "by a build that was killed is released by the system: it never blocks for good.",
    ),
    Rule(
        "io-error",
        E,
        "build",
        "The operating system refused to read or write a file.",
        "The message names the path you asked for and the system's reason (no permission, no "
        "space left, a read-only file system, a file where a folder goes). Nothing was "
        "half-written: a build leaves the previous output and snapshot as they were, and "
        "`import`, `init` and `scaffold` write all their files or none. Fix the cause and run "
        "the command again.",
    ),
    # --- idempotency and retries (issue 15) ---
    Rule(
        "multi-item-operation-id-unknown",
        E,
        "tools",
        "`multi_item.operation_id` names no string property of the item.",
        "`operation_id` names the property of `multi_item.item` that carries each item's "
        "protocol or operation id, which the typed client surfaces and the composition "
        "instruction names: declare it in the item's `properties` with `type: string`.",
    ),
]


_OPENAI = Target(
    "openai-strict",
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
    "the Structured Outputs guide as of 2026-02",
)
_ANTHROPIC = Target(
    "anthropic",
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools",
    "the Define tools page as of 2026-09 (re-checked 2026-12), and the Messages API's own 400 "
    "error for what that page does not say",
)
_GEMINI = Target(
    "gemini",
    "https://ai.google.dev/api/caching#Schema (FunctionDeclaration.parameters)",
    "the Gemini API reference as of 2025-11 (re-checked 2026-12 against the google-genai "
    "SDKs' Schema and FunctionDeclaration)",
)
_MCP = Target(
    "mcp",
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
    "the MCP specification, revision 2025-11-25",
)


def _targeted(code: str, target: Target, summary: str, refuses: str, fix: str) -> Rule:
    """A target's rule: the explanation states what is refused, the source and the fix."""
    explanation = (
        f"Target `{target.name}` (`toolc check --target {target.name}`, or `targets` in "
        f"[tool.toolc]). {refuses} Source: {target.source}, {target.dated}. Fix: {fix}"
    )
    return Rule(code, E, "targets", summary, explanation, target)


_RULES += [
    # --- provider targets (opt-in: --target, targets) --------------------------------------
    _targeted(
        "openai-function-name",
        _OPENAI,
        "The tool name is not a valid OpenAI function name.",
        "A function name is 1-64 characters of A-Z a-z 0-9 _ and - (the API reference's "
        "`FunctionDefinition.name`): a dot, or a longer name, is refused.",
        "rename the tool (a `_` for the dot), keeping the old name as a deprecated alias "
        "tool while clients move.",
    ),
    _targeted(
        "openai-strict-root",
        _OPENAI,
        "The inputSchema's root is not a plain object.",
        "Strict mode wants the root of the parameters to be `type: object`, not `anyOf`.",
        "move the alternatives into one argument (an object per alternative under `anyOf`).",
    ),
    _targeted(
        "openai-strict-open-object",
        _OPENAI,
        "An object of the inputSchema allows unknown keys.",
        "Strict mode requires `additionalProperties: false` on every object, the arguments "
        "object included.",
        "set `unknown_args: forbid` for the arguments, and `additionalProperties: false` on "
        "each nested object (and shared type) the tool reaches.",
    ),
    _targeted(
        "openai-strict-optional-property",
        _OPENAI,
        "A property of the inputSchema is optional.",
        "Strict mode requires every property of every object to be listed in `required`; an "
        "optional value is a required one that may be null.",
        "list the argument in `requires` (the property in `required`) and let it take null "
        '(`type: [string, "null"]`), treating null as absent in the handler.',
    ),
    _targeted(
        "openai-strict-keyword",
        _OPENAI,
        "The inputSchema uses a keyword strict mode refuses.",
        "Strict mode refuses the composition keywords `allOf`, `not`, `dependentRequired`, "
        "`dependentSchemas`, `if`, `then` and `else` (toolc publishes `args_keywords` with "
        "`not` and `dependentRequired`).",
        "express the rule in the handler or a pre-validation, or as `anyOf` alternatives.",
    ),
    _targeted(
        "openai-strict-format",
        _OPENAI,
        "The inputSchema uses a format strict mode refuses.",
        "Strict mode supports the string formats date-time, time, date, duration, email, "
        "hostname, ipv4, ipv6 and uuid only.",
        "drop the format (state it in the description) or use a `pattern`.",
    ),
    _targeted(
        "anthropic-tool-name",
        _ANTHROPIC,
        "The tool name is not a valid Anthropic tool name.",
        "A tool name must match `^[a-zA-Z0-9_-]{1,128}$`: a dot, or a longer name, is refused.",
        "rename the tool (a `_` for the dot).",
    ),
    _targeted(
        "anthropic-top-level-combinator",
        _ANTHROPIC,
        "The inputSchema has `oneOf`, `anyOf` or `allOf` at its top level.",
        "The Messages API refuses an `input_schema` with `oneOf`, `anyOf` or `allOf` at the "
        "top level: the whole request fails with 400 `input_schema does not support oneOf, "
        "allOf, or anyOf at the top level` (the API's own message; the documentation does not "
        "say it).",
        "move the alternatives into one argument, or split the tool into one tool per alternative.",
    ),
    _targeted(
        "gemini-function-name",
        _GEMINI,
        "The tool name is not a valid Gemini function name.",
        "A function name starts with a letter or `_` and is at most 64 characters of "
        "A-Z a-z 0-9 _ . : and -.",
        "rename the tool.",
    ),
    _targeted(
        "gemini-ref",
        _GEMINI,
        "The inputSchema uses `$ref` or `$defs`.",
        "Function declarations' `parameters` are an OpenAPI 3.0 Schema subset without "
        "references: `$ref` and `$defs` are refused (a client that sends the schema as "
        "`parametersJsonSchema` instead is not bound by this target's schema rules).",
        "publish the portable form (`publish: portable` in tools.yaml), which inlines every "
        "`$ref`; a recursive type cannot be inlined.",
    ),
    _targeted(
        "gemini-additional-properties",
        _GEMINI,
        "The inputSchema uses `additionalProperties`.",
        "The Schema of function declarations has no `additionalProperties` field.",
        "leave unknown arguments to the server (not `unknown_args: forbid`), and drop "
        "`additionalProperties` from nested objects.",
    ),
    _targeted(
        "gemini-type-list",
        _GEMINI,
        "The inputSchema states a list of types.",
        "The Schema's `type` is one type: `type: [string, \"null\"]` is refused (OpenAPI's "
        "`nullable` or an `anyOf` says it).",
        "publish the portable form (`publish: portable`), which writes nullable as `anyOf`.",
    ),
    _targeted(
        "gemini-keyword",
        _GEMINI,
        "The inputSchema uses a field the Gemini Schema lacks.",
        "The fields are type, format, title, description, nullable, enum, items, minItems, "
        "maxItems, properties, required, minProperties, maxProperties, minLength, maxLength, "
        "pattern, example, anyOf, propertyOrdering, default, minimum and maximum; any other "
        "(`const`, `oneOf`, `not`, `exclusiveMinimum`, `uniqueItems`, `$schema`, toolc's "
        "`x-toolc-*` notes) is refused.",
        "drop the keyword or state it in the description; a gateway that translates MCP to "
        "Gemini may strip some of them for you.",
    ),
    _targeted(
        "mcp-tool-name",
        _MCP,
        "The tool name breaks the MCP specification's name rules.",
        "A tool name is 1-128 characters of A-Z a-z 0-9 _ - and . (tools.yaml's schema "
        "refuses any other, so a descriptor from elsewhere is what this catches).",
        "rename the tool.",
    ),
    _targeted(
        "mcp-root-type",
        _MCP,
        "An inputSchema or outputSchema root is not `type: object`.",
        "The specification requires both schemas to be JSON Schema objects with "
        "`type: object` at the root.",
        "declare the arguments (and the result) as objects.",
    ),
    _targeted(
        "mcp-name-portability",
        _MCP,
        "The tool name has a dot or more than 64 characters.",
        "The specification allows such names (1-128 characters, dots included: a SHOULD), but "
        "the providers that map tools to functions do not: a dot is refused by OpenAI, "
        "Anthropic and some clients (Windsurf), more than 64 characters by OpenAI and Gemini "
        "(Anthropic takes 128).",
        "rename the tool to at most 64 characters of A-Z a-z 0-9 _ and -.",
    ),
    _targeted(
        "mcp-ref",
        _MCP,
        "The inputSchema uses `$ref`, which several clients do not resolve.",
        "A client that does not resolve `$ref` builds its form or its arguments from nothing: "
        'an older MCP Inspector sent the string "1" for an integer behind a `$ref`.',
        "publish the portable form (`publish: portable` in tools.yaml), which inlines every "
        "`$ref`; a recursive type cannot be inlined.",
    ),
    _targeted(
        "mcp-nullable-type-list",
        _MCP,
        "The inputSchema writes nullable as a list of types.",
        '`type: [x, "null"]` is valid JSON Schema, but the MCP Inspector\'s `--strict` mode '
        "flags it as non-portable, and clients that read one type miss it.",
        "publish the portable form (`publish: portable`), which writes it as `anyOf`.",
    ),
    Rule(
        "portable-recursive",
        E,
        "targets",
        "`publish: portable` cannot inline a recursive type a tool's arguments or data reach.",
        "The portable form (decisions 0075, 0106) publishes every inputSchema and outputSchema "
        "with each `$ref` inlined; a type that contains itself (a tree, a linked list) would "
        "inline forever. Publish the standard form (drop `publish: portable`), which keeps the "
        "type under `$defs`, or give the tool arguments (or `returns`) without the recursive "
        "type.",
    ),
    # --- import ------------------------------------------------------------------------------
    Rule(
        "import-source-invalid",
        E,
        "import",
        "What `toolc import` was given holds no tools it can read.",
        "`toolc import FILE` reads a JSON file holding a `tools/list` result "
        '(`{"tools": [...]}`) or a bare list of tools, each an object with a `name`; '
        "`--stdio -- CMD ARGS...` and `--url URL` list a running server instead. The message "
        "says what is wrong and where: a file that is not UTF-8 or not JSON, a value that is "
        "neither a result nor a list, an entry with no name, or a server that could not be "
        "started or listed.",
    ),
    Rule(
        "import-config-exists",
        E,
        "import",
        "The folder already has a config: the import writes nothing.",
        "`toolc import` and `toolc init --from` never overwrite `tools.yaml` or "
        "`tool_policies.yaml`. Import into an empty folder (`--out NEW_DIR`), then move what "
        "you want into your config by hand.",
    ),
    Rule(
        "import-no-tools",
        E,
        "import",
        "None of the source's tools could be imported: nothing is written.",
        "A config needs at least one tool. The warnings before this one say why each tool was "
        "skipped; declare them by hand, or fix the server's schemas and import again.",
    ),
    Rule(
        "import-listing-partial",
        W,
        "import",
        "A saved tools/list result is one page of a longer listing.",
        "Its `nextCursor` says the server had more tools than the file holds: only the tools "
        "in the file are imported. List the server live (`--stdio`, `--url`), which reads "
        "every page, or join the pages' `tools` into one file.",
    ),
    Rule(
        "import-tool-skipped",
        W,
        "import",
        "A tool was left out of the import: its schema cannot be carried as it is.",
        "toolc never loosens a schema to import it: a tool whose schema cannot be written in "
        "toolc's language with the same meaning (a `$ref` outside the schema, a dialect other "
        "than draft-07 or 2020-12, arguments that are not an object, a pattern with no "
        "linear-time translation, a name that is not an MCP tool name, ...) is skipped, and the "
        "message gives the JSON pointer and the reason (the compiler's own diagnostic where it "
        "is the one refusing). Declare the tool by hand, or keep serving it outside toolc.",
    ),
    Rule(
        "import-dialect-translated",
        W,
        "import",
        "A draft-07 schema was translated into JSON Schema 2020-12.",
        "toolc publishes 2020-12 only. A draft-07 schema (the TypeScript SDK stamps "
        "`$schema: http://json-schema.org/draft-07/schema#`) is rewritten so that it accepts "
        "the same instances: `definitions` → `$defs`, `dependencies` → `dependentRequired` / "
        "`dependentSchemas`, an array `items` → `prefixItems` (and `additionalItems` → "
        "`items`), pointers with them; what draft-07 ignores (keywords beside a `$ref`, "
        "keywords it does not know) is dropped. The published schema no longer states draft-07: "
        "a client that read the dialect from `$schema` reads 2020-12.",
    ),
    Rule(
        "import-not-carried",
        W,
        "import",
        "Part of a tool that decides nothing was left out of the import.",
        "Only what never changes which arguments a tool accepts is dropped, and each drop is "
        "named with its JSON pointer: annotations at the root of an inputSchema (its `title`, "
        "`description`), keys that are no JSON Schema keyword (extensions such as `x-...`, "
        "which a validator ignores), keywords that never apply to an object at the root, and "
        "tool keys toolc's config has no key for (`execution`, `icons`, other `_meta` entries: "
        "toolc publishes its own `_meta`). Add back by hand what you need, where toolc has a "
        "place for it.",
    ),
    Rule(
        "import-placeholder",
        W,
        "import",
        "A required key had no source: the import wrote a placeholder.",
        "tools.yaml requires a `description` and an `mcp_server` for every tool, and a "
        "semantic `version`. Where the source has none (a tool without a description, a file "
        "that names no server, a `_meta.version` that is no semantic version, a server name "
        "with characters MCP names refuse), the import writes a value that builds, marked with "
        "a `# TODO(toolc import)` comment. Replace each one before you publish.",
    ),
    Rule(
        "import-origin-relative",
        W,
        "import",
        "The origin command names a file by a path relative to where the import ran.",
        "A proxied tool's `proxy: command` is run by the generated server from its own working "
        "directory, not from where `toolc import` ran: `python server.py` finds its file only "
        "when the gateway starts in that folder. Write the path absolute (or as the command "
        "the origin is installed under) in each `proxy: command`, or start the gateway there.",
    ),
]

CODES: dict[str, Rule] = {r.code: r for r in _RULES}
# The targets `--target` and `targets` accept: those the catalogue has rules for.
TARGETS = tuple(dict.fromkeys(r.target.name for r in _RULES if r.target is not None))


def diag(
    code: str,
    span: Span,
    message: str,
    hint: str | None = None,
    notes: tuple[Note, ...] = (),
) -> Diagnostic:
    """Make a diagnostic whose severity comes from the table."""
    return Diagnostic(code, CODES[code].severity, span, message, hint, notes)
