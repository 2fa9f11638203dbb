"""The validated project: declarations as toolc's generated config classes, the policy of each
tool resolved, and the source spans beside them so later phases can still point at a line."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from toolc.diagnostics import Span
from toolc.model.policies_file import PoliciesFile, Policy, PreValidation
from toolc.model.salvage import Damage
from toolc.model.structs import convert, stated_fields
from toolc.model.tools_file import AcceptedBreak, SchemaKeywords, SchemaOrBool, Tool
from toolc.source.document import JsonPath, SourceMap

OperationType = Literal["transactional", "read_only"]


class SourceSpans(msgspec.Struct, frozen=True):
    tools: SourceMap
    policies: SourceMap | None

    def tool(self, path: JsonPath, key: bool = False) -> Span:
        return self.tools.key_span(path) if key else self.tools.value_span(path)

    def policy(self, path: JsonPath, key: bool = False) -> Span:
        assert self.policies is not None
        return self.policies.key_span(path) if key else self.policies.value_span(path)


class ToolDecl(msgspec.Struct, frozen=True):
    name: str
    decl: Tool
    policy: Policy | None
    operation_type: OperationType
    require_confirmation: bool
    requires: tuple[str, ...]
    pre_validation: PreValidation | None  # only when enabled
    # Facts a schema error left undecided (tool keys, `policy.<key>`, and the derived
    # `operation_type`, `require_confirmation`, `requires`): no check reasons from them.
    unknown: frozenset[str] = frozenset()
    # Its response ceiling (its own, or its server's default in `servers:`), and whether its
    # server records metrics by default.
    ceiling: int | None = None
    metrics: bool = False

    @property
    def enabled(self) -> bool:
        return self.decl.enabled is not False

    def knows(self, *facts: str) -> bool:
        return not self.unknown or not self.unknown.intersection(facts)

    @property
    def args(self) -> Mapping[str, SchemaOrBool]:
        return self.decl.args_schema or {}

    @property
    def accepts(self) -> Mapping[str, SchemaOrBool]:
        """The caller's form of each argument it differs for (`args` is the handler's)."""
        return self.decl.accepts or {}


BumpPolicy = Literal["semver", "any"]
Publish = Literal["standard", "portable"]


class Project(msgspec.Struct, frozen=True):
    tools: Mapping[str, ToolDecl]  # in declaration order
    types: Mapping[str, SchemaOrBool]
    policies: Mapping[str, Policy]
    spans: SourceSpans
    bump_policy: BumpPolicy = "semver"
    accepted_breaks: tuple[AcceptedBreak, ...] = ()
    servers: tuple[str, ...] = ()  # the servers `servers:` has settings for
    damage: Damage | None = None  # what schema errors left undecided; None: all validated
    publish: Publish = "standard"  # the form of the published inputSchemas (decision 0075)

    def declares(self, name: str) -> bool:
        """Whether tools.yaml declares a tool of this name, even one no check can read."""
        return name in self.tools or (self.damage is not None and name in self.damage.unreadable)


def _undecided(tool: Tool, policy: Policy | None, broken: frozenset[str]) -> frozenset[str]:
    """The broken facts, and those derived from them: the policy's value decides when it is
    stated, the tool's otherwise."""
    facts = set(broken)
    stated = stated_fields(policy) if policy is not None else frozenset()
    for derived, tool_key in (
        ("operation_type", "tool_type"),
        ("require_confirmation", "confirmation_required"),
    ):
        policy_key = "operation_type" if derived == "operation_type" else "require_confirmation"
        if f"policy.{policy_key}" in broken or (policy_key not in stated and tool_key in broken):
            facts.add(derived)
    if "requires" in broken or (tool.requires is None and "policy.requires" in broken):
        facts.add("requires")
    return frozenset(facts)


def _resolve(
    name: str, tool: Tool, policy: Policy | None, broken: frozenset[str] = frozenset()
) -> ToolDecl:
    declared: OperationType = "read_only" if tool.tool_type == "query" else "transactional"
    operation: OperationType = declared
    confirm = bool(tool.confirmation_required)
    requires = tuple(tool.requires) if tool.requires is not None else ()
    pre = None
    if policy is not None:
        if policy.operation_type is not None:
            operation = policy.operation_type
        if policy.require_confirmation is not None:
            confirm = policy.require_confirmation
        if tool.requires is None and policy.requires is not None:
            requires = tuple(policy.requires)
        if policy.pre_validation is not None and policy.pre_validation.enabled is not False:
            pre = policy.pre_validation
    unknown = _undecided(tool, policy, broken) if broken else frozenset()
    return ToolDecl(name, tool, policy, operation, confirm, requires, pre, unknown)


def lower(
    tools_data: object,
    policies_data: object | None,
    spans: SourceSpans,
    damage: Damage | None = None,
) -> Project:
    """Build the typed model from data that already passed the published schemas.

    Tool by tool, each raw declaration released once its model exists, so the raw values and
    the models of a large config are not all in memory at once (measured at 5,000 tools: the
    check's peak went from 532 MB to 508 MB)."""
    assert isinstance(tools_data, dict)
    raw_tools: dict[str, Any] = tools_data["tools"]
    tools: dict[str, Tool] = {}
    for name in list(raw_tools):
        tools[name] = convert(raw_tools.pop(name), Tool)
    raw_types: dict[str, Any] = tools_data.get("types") or {}
    fragment = bool | SchemaKeywords  # SchemaOrBool: its alias names the class by a string
    types = {name: convert(schema, fragment) for name, schema in raw_types.items()}
    policies = convert(policies_data, PoliciesFile).tool_policies if policies_data else {}
    broken = damage.unknown if damage is not None else {}
    decls = {
        name: _resolve(name, tool, policies.get(name), broken.get(name, frozenset()))
        for name, tool in tools.items()
    }
    servers: dict[str, Any] = tools_data.get("servers") or {}
    for name, decl in decls.items():
        settings = servers.get(decl.decl.mcp_server) or {}
        ceiling = decl.decl.response_ceiling_bytes or settings.get("response_ceiling_bytes")
        if decl.decl.proxy is not None:  # the origin's answer goes back unchanged: no ceiling
            ceiling = None
        decls[name] = replace(decl, ceiling=ceiling, metrics=settings.get("metrics") is True)
    breaks = tuple(convert(b, AcceptedBreak) for b in tools_data.get("accepted_breaks") or ())
    return Project(
        tools=MappingProxyType(decls),
        types=MappingProxyType(types),
        policies=MappingProxyType(dict(policies)),
        spans=spans,
        bump_policy=tools_data.get("bump_policy") or "semver",
        accepted_breaks=breaks,
        servers=tuple(servers),
        damage=damage,
        publish=tools_data.get("publish") or "standard",
    )
