"""What one tool's analysis can change for the others: the tool its policy names as
pre-validator, and the shared types it reaches. A rebuild that re-reads one tool checks these
did not change (the build cache), and the emitters group validators by them."""

from __future__ import annotations

import msgspec

from toolc.model.project import ToolDecl
from toolc.model.schemas import refs_in


class ToolFacts(msgspec.Struct, frozen=True):
    validator: str | None  # the tool its policy names as pre-validator
    refs: frozenset[str]  # the shared types it references


def validator_of(tool: ToolDecl) -> str | None:
    policy = tool.policy
    return policy.pre_validation.tool if policy and policy.pre_validation else None


def facts_of(tool: ToolDecl) -> ToolFacts:
    schemas = [*tool.args.values(), *tool.accepts.values()]
    if tool.decl.returns is not None:
        schemas.append(tool.decl.returns)
    if tool.decl.multi_item is not None:
        schemas.append(tool.decl.multi_item.item)
    refs = frozenset(name for schema in schemas for _, name in refs_in(schema))
    return ToolFacts(validator_of(tool), refs)
