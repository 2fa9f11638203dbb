"""`toolc init [DIR]`: a starting config a new user can read and build at once — tools.yaml and
tool_policies.yaml with comments on every key, the editor schemas they name, a `[tool.toolc]`
section, a CI workflow and a pre-commit hook. Planned in memory first (`plan`), so a refusal
writes nothing; an existing tools.yaml or tool_policies.yaml is never touched (decision 0063)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import msgspec

from toolc import __version__, workspace
from toolc.resources import data_dir, schema_path

Action = Literal["create", "append"]


class Planned(msgspec.Struct, frozen=True):
    path: Path
    data: bytes
    action: Action


class Plan(msgspec.Struct, frozen=True):
    files: list[Planned]
    kept: list[Path]  # files that exist and are left as they are (the user's, or already set up)
    refused: list[Path]  # config files that exist: init stops without writing anything


def _template(name: str, **values: str) -> bytes:
    text = (data_dir("templates") / "init" / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text.encode("utf-8")


def repository_root(config_dir: Path) -> Path:
    """The git work tree that holds the config (CI and pre-commit files belong at its top), or
    the config folder itself outside git."""
    start = config_dir.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def plan(config_dir: Path, config: dict[str, bytes] | None = None) -> Plan:
    """What init would write; `config` (an import's tools.yaml and tool_policies.yaml) stands
    in for the commented starting config."""
    root = repository_root(config_dir)
    shown = (
        config_dir.resolve().relative_to(root).as_posix() if root != config_dir.resolve() else "."
    )
    planned: list[Planned] = []
    kept: list[Path] = []
    refused = [
        config_dir / n for n in ("tools.yaml", "tool_policies.yaml") if (config_dir / n).exists()
    ]
    for name in ("tools.yaml", "tool_policies.yaml"):
        data = _template(name) if config is None else config.get(name)
        if data is not None:
            planned.append(Planned(config_dir / name, data, "create"))
    for kind in ("tools", "policies"):
        source = schema_path(kind)
        target = config_dir / ".toolc" / source.name
        if target.exists():
            kept.append(target)
        else:
            planned.append(Planned(target, source.read_bytes(), "create"))
    pyproject = config_dir / "pyproject.toml"
    section = _template("pyproject-section.toml")
    if not pyproject.exists():
        planned.append(Planned(pyproject, section.lstrip(b"\n"), "create"))
    elif "[tool.toolc]" in pyproject.read_text(encoding="utf-8", errors="replace").replace(" ", ""):
        kept.append(pyproject)
    else:
        planned.append(Planned(pyproject, section, "append"))
    extras = {
        root / ".github" / "workflows" / "toolc.yml": _template("toolc.yml", CONFIG=shown),
        root / ".pre-commit-config.yaml": _template(
            "pre-commit-config.yaml", CONFIG=shown, VERSION=__version__
        ),
    }
    for path, data in extras.items():
        if path.exists():
            kept.append(path)
        else:
            planned.append(Planned(path, data, "create"))
    return Plan(planned, kept, refused)


def carry_out(init: Plan) -> list[Path]:
    """Write the plan (nothing when it was refused); the paths written, in order."""
    if init.refused:
        return []
    written = []
    for item in init.files:
        if item.action == "append":
            old = item.path.read_bytes()
            joiner = b"" if old.endswith(b"\n") or not old else b"\n"
            workspace.replace_file(item.path, old + joiner + item.data)
        elif not workspace.create_new(item.path, item.data):
            continue  # appeared since the plan: it is the user's now
        written.append(item.path)
    return written
