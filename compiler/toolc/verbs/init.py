"""`toolc init [DIR]`: a starting config a new user can read and build at once — tools.yaml and
tool_policies.yaml with comments on every key, the editor schemas they name, a `[tool.toolc]`
section, a CI workflow and a pre-commit hook. Planned in memory first (`plan`), so a refusal
writes nothing; an existing tools.yaml or tool_policies.yaml is never touched (decision 0063)."""

from __future__ import annotations

import json
import os
import re
import shlex
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Literal

import msgspec

from toolc import __version__
from toolc.resources import data_dir, schema_path
from toolc.workspace.files import create_all

Action = Literal["create", "append"]  # append: `data` is the old text with the section after it
_KEYED = re.compile(r"(\s*(?:- )?[\w-]+: )(.*)")  # a template's `key: value` line
_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")  # how tomllib locates its errors


class Planned(msgspec.Struct, frozen=True):
    path: Path
    data: bytes
    action: Action


class Plan(msgspec.Struct, frozen=True):
    files: list[Planned]
    kept: list[Path]  # files that exist and are left as they are (the user's, or already set up)
    refused: list[Path]  # config files that exist: init stops without writing anything
    invalid: list[str] = msgspec.field(default_factory=list)  # files init cannot add to: same


def _template(name: str, **values: str) -> bytes:
    text = (data_dir("templates") / "init" / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text.encode("utf-8")


def install_requirement() -> str:
    """What CI installs to run this very toolc (decision 0145): the git revision it was
    installed from (PEP 610's `direct_url.json`), else its version pinned by name. A
    workflow that installed another toolc would judge the output another toolc made."""
    try:
        found = json.loads(metadata.distribution("toolc").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        found = {}
    url, vcs = found.get("url"), found.get("vcs_info")
    if isinstance(url, str) and isinstance(vcs, dict) and not url.startswith("file:"):
        commit = vcs.get("commit_id")
        return f"toolc @ {vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
    return f"toolc=={__version__}"


def _with_config(name: str, config: str, **values: str) -> bytes:
    """A YAML template whose `{{CONFIG}}` is an argument of a shell command (bash runs the
    workflow's `run`, pre-commit splits `entry` with shlex): the folder quoted for the shell,
    and that line's value double-quoted when the quoting gave it what a plain YAML scalar
    cannot hold (`'`, ` #`, `: `). JSON's escapes are YAML's: the value reads back as written."""
    argument = shlex.quote(config)
    lines = _template(name, **values).decode("utf-8").split("\n")
    for at, line in enumerate(lines):
        if "{{CONFIG}}" in line:
            keyed = _KEYED.fullmatch(line)
            assert keyed is not None, f"{name}: {{{{CONFIG}}}} outside a `key: value` line"
            value = keyed[2].replace("{{CONFIG}}", argument)
            lines[at] = keyed[1] + (value if argument == config else _yaml_quoted(value))
    return "\n".join(lines).encode("utf-8")


def _yaml_quoted(value: str) -> str:
    """`value` as a YAML double-quoted scalar that reads back as written: JSON's escapes for
    quotes, backslashes and controls, the rest as it is (JSON's `\\ud83d\\ude00` for 😀 reads
    as two lone surrogates in YAML), except what YAML reads as a line break or cannot hold
    (NEL, the two Unicode separators, the C1 controls, a BOM), escaped."""
    text = json.dumps(value, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04x}" if _unprintable(c) else c for c in text)


def _unprintable(char: str) -> bool:
    code = ord(char)
    return 0x80 <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF) or 0xD800 <= code <= 0xDFFF


def _pyproject(path: Path, section: bytes) -> tuple[Planned | None, str | None]:
    """pyproject.toml created, or the section appended to it; (None, None) when it has a
    `tool.toolc` already, however written (`[tool]` with `toolc.strict = ...`, `[tool."toolc"]`),
    or (None, why) when the section cannot be added. OSError: it cannot be read."""
    if not os.path.lexists(path):
        return Planned(path, section.lstrip(b"\n"), "create"), None
    old = path.read_bytes()
    try:
        # Universal newlines, as the settings are read (cli.settings).
        text = old.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        tool = tomllib.loads(text).get("tool")
    except UnicodeDecodeError:
        return None, f"{path} is not UTF-8 text"
    except tomllib.TOMLDecodeError as exc:
        said = str(exc)
        at = _AT.search(said)
        where = f"{path}:{at[1]}:{at[2]}" if at else str(path)
        return None, f"{where}: {_AT.sub('', said)}: it is not valid TOML"
    if isinstance(tool, dict) and "toolc" in tool:
        return None, None
    new = old + (b"" if old.endswith(b"\n") or not old else b"\n") + section
    try:  # `tool = 1`, or `tool = {...}` (an inline table): a [tool.toolc] would break it
        tomllib.loads(new.decode("utf-8"))
    except tomllib.TOMLDecodeError:
        return None, f"{path}: its `tool` is no table a [tool.toolc] section can extend"
    return Planned(path, new, "append"), None


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
        config_dir / n
        for n in ("tools.yaml", "tool_policies.yaml")
        if os.path.lexists(config_dir / n)  # a dangling link too: nothing is made through it
    ]
    for name in ("tools.yaml", "tool_policies.yaml"):
        data = _template(name) if config is None else config.get(name)
        if data is not None:
            planned.append(Planned(config_dir / name, data, "create"))
    for kind in ("tools", "policies"):
        source = schema_path(kind)
        target = config_dir / ".toolc" / source.name
        if os.path.lexists(target):
            kept.append(target)
        else:
            planned.append(Planned(target, source.read_bytes(), "create"))
    pyproject = config_dir / "pyproject.toml"
    appended, invalid = _pyproject(pyproject, _template("pyproject-section.toml"))
    if appended is not None:
        planned.append(appended)
    elif invalid is None:
        kept.append(pyproject)
    extras = {
        root / ".github" / "workflows" / "toolc.yml": _with_config(
            "toolc.yml", shown, INSTALL=shlex.quote(install_requirement())
        ),
        root / ".pre-commit-config.yaml": _with_config(
            "pre-commit-config.yaml", shown, VERSION=__version__
        ),
    }
    for path, data in extras.items():
        if os.path.lexists(path):
            kept.append(path)
        else:
            planned.append(Planned(path, data, "create"))
    return Plan(planned, kept, refused, [invalid] if invalid is not None else [])


def carry_out(init: Plan) -> list[Path]:
    """Write the plan, every file or none (nothing when it was refused); the paths written, in
    order. A file that appeared since the plan is the user's now: the others are written
    without it. OSError: the system refused a write, and nothing was written."""
    if init.refused or init.invalid:
        return []
    files = list(init.files)
    while True:  # each round leaves out at least one path: it ends
        new = {item.path: item.data for item in files if item.action == "create"}
        appended = {item.path: item.data for item in files if item.action == "append"}
        there = create_all(new, appended)
        if not there:
            return [item.path for item in files]
        files = [item for item in files if item.path not in there]
