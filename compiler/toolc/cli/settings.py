"""Settings from `[tool.toolc]` in the nearest pyproject.toml at or above the config directory.
Command-line flags override them. An unknown setting is a usage error, not silently ignored."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from toolc.diagnostics.codes import TARGETS
from toolc.diagnostics.render import FORMATS

DEFAULT_OUT = Path("generated") / "mcp_tools"
DEFAULT_SNAPSHOT = Path("mcp-tools.json")
DEFAULT_DOCS = Path("docs")  # `toolc docs` without a docs_out setting
# PEP 440's public versions, as a plain regular expression (no `packaging` at run time).
VERSION = re.compile(r"(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?")


class SettingsError(Exception):
    """A usage error in `[tool.toolc]`."""


class Settings(msgspec.Struct, frozen=True):
    strict: bool = False
    format: str = "text"
    out: Path | None = None  # the generated package directory; its name is the package name
    snapshot: Path | None = None
    listing_budget: int | None = None  # tokens per mcp_server's tools/list (an estimate)
    docs_out: Path | None = None  # the reference docs; `build` writes them only when set
    metadata_lint: bool = False  # report the metadata lint (titles, descriptions)
    targets: tuple[str, ...] = ()  # provider targets whose rules are errors (decision 0074)
    package_project: bool = False  # write the package's own pyproject.toml (decision 0076)
    package_version: str = "0.1.0"  # the version that pyproject.toml states
    # Where each path setting came from, for messages: `--out`, or `pyproject.toml:3:1`.
    origins: tuple[tuple[str, str], ...] = ()
    # The settings file and the digest of the very bytes these settings were read from: a
    # no-op ticket (cache.noop_ticket) is valid only for them.
    source: tuple[str, bytes] | None = None

    def origin(self, key: str) -> str | None:
        return dict(self.origins).get(key)

    def override(self, **flags: Any) -> Settings:
        given = {k: v for k, v in flags.items() if v is not None}
        paths = ("out", "snapshot", "docs_out")
        origins = dict(self.origins) | {k: f"--{k.replace('_', '-')}" for k in given if k in paths}
        return replace(self, **given, origins=tuple(sorted(origins.items())))

    def out_dir(self, config_dir: Path) -> Path:
        return self.out if self.out is not None else config_dir / DEFAULT_OUT

    def snapshot_path(self, config_dir: Path) -> Path:
        return self.snapshot if self.snapshot is not None else config_dir / DEFAULT_SNAPSHOT

    def docs_dir(self, config_dir: Path) -> Path:
        """Where `toolc docs` writes: the setting, else DIR/docs."""
        return self.docs_out if self.docs_out is not None else config_dir / DEFAULT_DOCS


def load_settings(config_dir: Path) -> Settings:
    # Here, not above: `--version` and `explain` need neither (hashlib's import is ~2.5 ms).
    import hashlib

    # The finder the no-op ticket checks again, so that the two never disagree.
    from toolc.cache.noop_ticket import settings_file

    found = settings_file(str(config_dir.resolve()))
    if found is None:
        return Settings()
    pyproject = Path(found)
    try:
        data = pyproject.read_bytes()  # once: the settings and their digest from one reading
        # What read_text gives: universal newlines, as the file was read before.
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        document = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{pyproject}: cannot read [tool.toolc]: {exc}") from exc
    tool = document.get("tool", {})
    table = tool.get("toolc", {}) if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        raise SettingsError(f"{pyproject}: [tool.toolc] must be a table")
    known: dict[str, type] = {
        "strict": bool, "format": str, "out": str, "snapshot": str, "listing_budget": int,
        "docs_out": str, "metadata_lint": bool, "targets": list,
        "package_project": bool, "package_version": str,
    }  # fmt: skip
    for key, value in table.items():
        if key not in known:
            raise SettingsError(
                f"{pyproject}: unknown setting '{key}' in [tool.toolc] "
                f"(known: {', '.join(sorted(known))})"
            )
        if not isinstance(value, known[key]) or (known[key] is int and isinstance(value, bool)):
            raise SettingsError(f"{pyproject}: [tool.toolc] {key} must be a {known[key].__name__}")
    for key in ("out", "snapshot", "docs_out"):
        if "\0" in table.get(key, "") or table.get(key) == "":
            # No file system takes a NUL; an empty path names the config's folder itself.
            raise SettingsError(
                f"{_located(pyproject, text, key)}: [tool.toolc] {key} must be a path "
                "(not empty, no NUL character)"
            )
    if table.get("listing_budget", 1) < 1:
        raise SettingsError(
            f"{pyproject}: [tool.toolc] listing_budget must be a positive number of tokens"
        )
    unknown = [t for t in table.get("targets", ()) if t not in TARGETS]
    if unknown:
        raise SettingsError(
            f"{pyproject}: [tool.toolc] targets: unknown target {unknown[0]!r} "
            f"(known: {', '.join(TARGETS)})"
        )
    if not VERSION.fullmatch(table.get("package_version", "0.1.0")):
        raise SettingsError(
            f"{pyproject}: [tool.toolc] package_version must be a PEP 440 version, like 1.2.0"
        )
    if "targets" in table:
        table["targets"] = tuple(table["targets"])
    if "format" in table and table["format"] not in FORMATS:
        raise SettingsError(f"{pyproject}: [tool.toolc] format must be one of {', '.join(FORMATS)}")
    # Paths in pyproject.toml are relative to the file that states them.
    origins = tuple(
        (k, _located(pyproject, text, k))
        for k in ("docs_out", "listing_budget", "out", "snapshot")
        if k in table
    )
    paths = {
        k: pyproject.parent / table.pop(k) for k in ("out", "snapshot", "docs_out") if k in table
    }
    source = (str(pyproject), hashlib.sha256(data).digest())
    return Settings(**table, **paths, origins=origins, source=source)


def _located(pyproject: Path, text: str, key: str) -> str:
    """`path:line:col` of `key = ...` in the [tool.toolc] table (the file's path alone when it
    cannot be found by a plain reading)."""
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = stripped.replace(" ", "") == "[tool.toolc]"
        elif inside and stripped.split("=", 1)[0].strip() == key:
            return f"{pyproject}:{number}:{line.index(key) + 1}"
    return str(pyproject)
