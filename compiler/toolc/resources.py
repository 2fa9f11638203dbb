"""Where the shipped data files are: inside the wheel (``toolc/_data``), or at the top of a
source checkout for an editable install."""

from __future__ import annotations

import functools
import os

# Not typing's, and pathlib and json only where used: the no-op build's fast path imports
# this module for `data_folder` before anything else (both cost it ~9 ms, measured).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


def data_dir(name: str) -> Path:
    from pathlib import Path

    return Path(data_folder(name))


def data_folder(name: str) -> str:
    """Where the data files `name` are: `data_dir` as a string."""
    package = os.path.dirname(os.path.realpath(__file__))
    installed = os.path.join(package, "_data", name)
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(os.path.dirname(package)), name)


SCHEMA_FILES = {"tools": "tools.schema.json", "policies": "tool_policies.schema.json"}


def schema_path(kind: str) -> Path:
    return data_dir("schemas") / SCHEMA_FILES[kind]


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    import json

    value = json.loads(schema_path(kind).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value
