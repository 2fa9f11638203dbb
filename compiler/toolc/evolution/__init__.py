"""Contract evolution (issue #5): which changes between two versions of a tool's contract break
its callers, and the version step they require. Pure functions over contract documents."""

from toolc.evolution.compare import Contract, compare_all, compare_tool
from toolc.evolution.findings import (
    ALL_TOOLS,
    Bump,
    Finding,
    findings_for_tool,
    forcing_rules,
    minimum_version,
    required_bump,
)
from toolc.evolution.rules import LEVELS, RULES, Level, Rule
from toolc.evolution.views import contract_version

__all__ = [
    "ALL_TOOLS",
    "LEVELS",
    "RULES",
    "Bump",
    "Contract",
    "Finding",
    "Level",
    "Rule",
    "compare_all",
    "compare_tool",
    "contract_version",
    "findings_for_tool",
    "forcing_rules",
    "minimum_version",
    "required_bump",
]
