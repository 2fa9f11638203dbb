"""The typed intermediate model: what every phase after loading reads. No YAML, no I/O."""

from toolc.model.project import Project, SourceSpans, ToolDecl

__all__ = ["Project", "SourceSpans", "ToolDecl"]
