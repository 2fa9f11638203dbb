"""Settings from `[tool.toolc]` in the nearest pyproject.toml at or above the config directory.
Command-line flags override them. An unknown setting is a usage error, not silently ignored."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolc.diagnostics.render import FORMATS


class SettingsError(Exception):
    """A usage error in `[tool.toolc]`."""


@dataclass(frozen=True, slots=True)
class Settings:
    strict: bool = False
    format: str = "text"
    source: Path | None = None  # the pyproject.toml they came from

    def override(self, **flags: Any) -> Settings:
        return replace(self, **{k: v for k, v in flags.items() if v is not None})


def find_pyproject(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_settings(config_dir: Path) -> Settings:
    pyproject = find_pyproject(config_dir.resolve())
    if pyproject is None:
        return Settings()
    try:
        table = (
            tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("toolc", {})
        )
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{pyproject}: cannot read [tool.toolc]: {exc}") from exc
    known = {"strict": bool, "format": str}
    for key, value in table.items():
        if key not in known:
            raise SettingsError(
                f"{pyproject}: unknown setting '{key}' in [tool.toolc] "
                f"(known: {', '.join(sorted(known))})"
            )
        if not isinstance(value, known[key]):
            raise SettingsError(f"{pyproject}: [tool.toolc] {key} must be a {known[key].__name__}")
    if "format" in table and table["format"] not in FORMATS:
        raise SettingsError(f"{pyproject}: [tool.toolc] format must be one of {', '.join(FORMATS)}")
    return Settings(**table, source=pyproject)
