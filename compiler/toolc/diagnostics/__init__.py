"""Diagnostics are values: a code from the table, a span, a message that states the fix."""

from toolc.diagnostics.codes import CODES, Rule, diag
from toolc.diagnostics.model import Diagnostic, Note, Severity, Span, sort_key

__all__ = ["CODES", "Diagnostic", "Note", "Rule", "Severity", "Span", "diag", "sort_key"]
