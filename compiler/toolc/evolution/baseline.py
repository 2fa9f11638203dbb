"""What a change is compared with: the contract documents of a baseline. `--against REF` names
one: a git revision (its config compiled in memory from `git show`, the working tree never
touched), another config directory (compiled in memory), or a previous build's output (its
`contracts/`). Without `--against`, the baseline is the last build's output beside the
snapshot. Reads only; a baseline that cannot be read is a usage error, not a finding."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec
from msgspec import field

Contract = Mapping[str, Any]


class BaselineError(Exception):
    """The baseline named by --against cannot be read."""


class Baseline(msgspec.Struct, dict=True):
    label: str  # how messages name it: "the last build", "git main", ...
    _load: Callable[[str], Contract | None]
    _names: Callable[[], list[str]]
    _cache: dict[str, Contract | None] = field(default_factory=dict)
    # Why the baseline is empty when it is (a revision without this config): a gate against
    # it passes everything, which the user must be told.
    empty_because: str | None = None

    def contract(self, tool: str) -> Contract | None:
        if tool not in self._cache:
            self._cache[tool] = self._load(tool)
        return self._cache[tool]

    def tools(self) -> list[str]:
        return self._names()


def from_output(out_dir: Path, label: str) -> Baseline:
    """A build's output: its `contracts/<tool>.json`, read when asked for."""
    folder = out_dir / "contracts"

    def load(tool: str) -> Contract | None:
        try:
            data = json.loads((folder / f"{tool}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def names() -> list[str]:
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    return Baseline(label, load, names)


def _from_files(files: Mapping[str, bytes], label: str) -> Baseline:
    contracts = {
        rel.removeprefix("contracts/").removesuffix(".json"): data
        for rel, data in files.items()
        if rel.startswith("contracts/")
    }

    def load(tool: str) -> Contract | None:
        data = contracts.get(tool)
        return json.loads(data) if data is not None else None

    return Baseline(label, load, lambda: sorted(contracts))


CompileTexts = Callable[[str, str | None, str], Mapping[str, bytes]]


def from_config(config_dir: Path, compile_texts: CompileTexts) -> Baseline:
    tools = config_dir / "tools.yaml"
    policies = config_dir / "tool_policies.yaml"
    try:
        tools_text = tools.read_text(encoding="utf-8")
        policies_text = policies.read_text(encoding="utf-8") if policies.is_file() else None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read the baseline config {config_dir}: {exc}") from exc
    label = f"config {config_dir}"
    return _from_files(compile_texts(tools_text, policies_text, str(config_dir)), label)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BaselineError(f"cannot run git: {exc}") from exc


def from_git(ref: str, config_dir: Path, compile_texts: CompileTexts) -> Baseline:
    """The config as committed at `ref`, compiled in memory. A config that did not exist there
    is an empty baseline: every tool is new."""
    folder = config_dir.resolve()
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise BaselineError(
            f"{ref!r} is not a directory, and {config_dir} is not in a git work tree"
        )
    if _git(folder, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
        raise BaselineError(f"{ref!r} is neither a directory nor a git revision")
    rel = folder.relative_to(Path(top.stdout.decode().strip()).resolve()).as_posix()
    prefix = "" if rel == "." else rel + "/"

    def show(name: str) -> str | None:
        where = f"{ref}:{prefix}{name}"
        done = _git(folder, "show", where)
        if done.returncode != 0:
            return None
        try:
            return done.stdout.decode("utf-8")
        except UnicodeDecodeError as exc:  # as `from_config` reports a file not in UTF-8
            raise BaselineError(f"cannot read the baseline config {where}: {exc}") from exc

    tools_text = show("tools.yaml")
    label = f"git {ref}"
    if tools_text is None:
        empty = _from_files({}, label)
        empty.empty_because = f"{ref} has no {prefix}tools.yaml: every tool counts as new"
        return empty
    files = compile_texts(tools_text, show("tool_policies.yaml"), f"{ref}:{prefix}")
    return _from_files(files, label)


def resolve(
    ref: str | None, config_dir: Path, out_dir: Path, compile_texts: CompileTexts
) -> Baseline:
    """The baseline `--against REF` names, or the last build's output when REF is None."""
    if ref is None:
        return from_output(out_dir, "the last build")
    if not ref.strip():  # `--against "$BASE"` with BASE unset would compare nothing
        raise BaselineError(
            "--against needs a REF (a git revision, a config directory or a build's output), "
            "not an empty value"
        )
    path = Path(ref)
    if path.is_dir():
        if _same_folder(path, config_dir):
            raise BaselineError(
                f"{ref}: this is the config itself, so no change could ever be found; name the "
                "baseline to compare with (a git revision, another config directory, or a "
                "build's output)"
            )
        if (path / "tools.yaml").is_file():
            return from_config(path, compile_texts)
        if (path / "contracts").is_dir():
            return from_output(path, f"build {ref}")
        raise BaselineError(
            f"{ref}: neither a config directory (tools.yaml) nor a build's output (contracts/)"
        )
    return from_git(ref, config_dir, compile_texts)


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False
