"""Where the shipped data files are: inside the wheel (``toolc/_data``), or at the top of a
source checkout for an editable install."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / name


SCHEMA_FILES = {"tools": "tools.schema.json", "policies": "tool_policies.schema.json"}


def schema_path(kind: str) -> Path:
    return data_dir("schemas") / SCHEMA_FILES[kind]


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    value = json.loads(schema_path(kind).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value
