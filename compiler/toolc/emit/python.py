"""The Python files of the generated package."""

from __future__ import annotations

from typing import Any

from toolc.model import Project


def python_files(project: Project, descriptors: dict[str, dict[str, Any]]) -> dict[str, bytes]:
    return {"py.typed": b""}
