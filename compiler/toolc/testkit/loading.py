"""What the kit tests: the generated package on disk (the build's output directory), the
user's handlers object, imported as the user's own server imports them, and the user's own
cases. Every mistake is a `KitError` stating the fix, never a traceback."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec


class KitError(Exception):
    """A mistake in what the user pointed the kit at (the message says how to fix it)."""


class Target(msgspec.Struct, frozen=True):
    package: str
    registry: Mapping[str, Any]  # ALL_TOOLS: each tool's spec
    descriptors: list[dict[str, Any]]  # tools.json's tools, as published
    server_module: ModuleType  # the package's server.py (create_server)


def handler_name(spec: Any) -> str:
    """A tool's handler method: its module's last name (as the runtime's `handler_name`)."""
    return str(spec.module).rpartition(".")[2]


def load_package(out_dir: Path) -> Target:
    """Import the built package at `out_dir` (its parent goes on `sys.path`)."""
    if not (out_dir / "tools.json").is_file() or not (out_dir / "server.py").is_file():
        raise KitError(
            f"no generated package at {out_dir}: run `toolc build` first (or point --out "
            "at the package)"
        )
    sys.path.insert(0, str(out_dir.parent))
    try:
        package = importlib.import_module(out_dir.name)
        server_module = importlib.import_module(f"{out_dir.name}.server")
    except Exception as exc:  # a broken or foreign package: say which
        raise KitError(f"cannot import the package {out_dir.name!r}: {exc}") from exc
    if str(Path(package.__file__ or "").parent) != str(out_dir):
        raise KitError(
            f"`import {out_dir.name}` found {package.__file__}, not the package at {out_dir}: "
            "another package of that name comes first on sys.path"
        )
    listing = json.loads((out_dir / "tools.json").read_text(encoding="utf-8"))
    return Target(out_dir.name, package.ALL_TOOLS, listing["tools"], server_module)


def _from_file(path: Path) -> ModuleType:
    """The module in a .py file, imported under its stem."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _file_named(name: str) -> Path | None:
    """`<name>.py` in a folder of `sys.path`, the first as imports search them."""
    for entry in sys.path:
        folder = Path(entry or ".")
        if folder.is_dir() and (folder / f"{name}.py").is_file():
            return (folder / f"{name}.py").resolve()
    return None


def _module(name: str) -> ModuleType:
    if name.endswith(".py"):  # a file path, imported under its stem
        path = Path(name).resolve()
        if not path.is_file():
            raise KitError(f"--handlers: no file {path}")
        return _from_file(path)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # A server name may hold dots (`retail.api`), and `toolc scaffold` writes
        # `retail.api_server.py`: no import reaches that file, the dots read as packages. So
        # when the module itself (or a package above it) is missing, not an import inside it,
        # the file of that exact name is loaded instead.
        missing = exc.name or ""
        if "." not in name or not (name == missing or name.startswith(missing + ".")):
            raise
        found = _file_named(name)
        if found is None:
            raise
        return _from_file(found)


def load_handlers(spec: str, hint: str = "") -> object:
    """`MODULE:ATTR` (MODULE a dotted name or a .py file): a class is instantiated with no
    arguments, anything else is the handlers object itself. `hint` ends an import error."""
    name, colon, attr = spec.rpartition(":")
    if not colon or not name or not attr:
        raise KitError(f"--handlers {spec!r}: write MODULE:ATTR, like my_server:Handlers")
    if "" not in sys.path:
        sys.path.insert(0, "")  # the working directory, as `python -m` has it
    try:
        module = _module(name)
    except KitError:
        raise
    except Exception as exc:  # ImportError, or the user's module failing as it loads
        what = f"{type(exc).__name__}: {exc}"
        raise KitError(f"--handlers: cannot import {name!r}: {what}{hint}") from exc
    found = getattr(module, attr, None)
    if found is None:
        raise KitError(f"--handlers: module {name!r} has no {attr!r}")
    if isinstance(found, type):
        try:
            return found()
        except Exception as exc:
            raise KitError(
                f"--handlers: {attr}() failed ({type(exc).__name__}: {exc}); pass an "
                "instance instead (MODULE:ATTR naming an object)"
            ) from exc
    return found


def load_cases(path: Path) -> dict[str, list[Any]]:
    """`--cases FILE`: a JSON object of tool name → list of argument objects."""
    try:
        cases = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise KitError(f"--cases: cannot read {path}: {exc}") from exc
    if not isinstance(cases, dict) or not all(
        isinstance(v, list) and all(isinstance(a, dict) for a in v) for v in cases.values()
    ):
        raise KitError(f'--cases: {path} must hold {{"<tool>": [{{<arguments>}}, ...], ...}}')
    return cases
