"""The generated-code templates, compiled to Python ahead of time (`make templates`), so a build
imports each one instead of having Jinja compile it: Jinja's lexing, parsing and code
generation of the ten templates a build renders took about 35 ms of every build (measured),
and importing their modules takes well under 1 ms.

`compiled/<template>.py` holds what `Environment.compile` makes of `templates/<template>`,
with the SHA-256 of the template's text and the Jinja version it was compiled by. A module is
used only when both match what this process has: a template edited since `make templates`, or
another Jinja, is compiled from its text as before, so the output never depends on whether
the modules are current (tests/test_precompiled.py checks the committed ones are)."""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2

_PACKAGE = "toolc.emit.compiled"
_HEAD = "# Compiled by Jinja from templates/{name} (make templates). DO NOT EDIT.\n"


def module_name(template: str) -> str:
    """`tool_module.py.j2` → `tool_module_py_j2`."""
    return re.sub(r"\W", "_", template)


def compiled_source(environment: jinja2.Environment, folder: Path, template: str) -> str:
    """The module `make templates` writes for the template `template` of `folder`."""
    data = (folder / template).read_bytes()
    code = environment.compile(data.decode("utf-8"), template, raw=True, defer_init=True)
    digest = hashlib.sha256(data).hexdigest()
    return (
        _HEAD.format(name=template)
        + f"SOURCE_SHA256 = {digest!r}\nJINJA = {jinja2.__version__!r}\n{code}\n"
    )


def templates(folder: Path) -> list[str]:
    """The templates of generated code: the `.j2` files directly in `folder`."""
    return sorted(p.name for p in folder.glob("*.j2"))


class Loader(jinja2.BaseLoader):
    """Loads a template from its compiled module when that module was made from the
    template's current text by this Jinja; otherwise from the text, as FileSystemLoader does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = jinja2.FileSystemLoader(str(folder))

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        return self.files.get_source(environment, template)

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        module = _module(name)
        if module is not None and _current(module, self.folder / name):
            # The module's own namespace, as jinja2.ModuleLoader passes it: its functions read
            # `environment` from there (one environment renders them per process).
            return environment.template_class.from_module_dict(
                environment, vars(module), globals if globals is not None else {}
            )
        return self.files.load(environment, name, globals)


def _module(name: str) -> Any:
    if "/" in name or not name.endswith(".j2"):
        return None
    try:
        return importlib.import_module(f"{_PACKAGE}.{module_name(name)}")
    except ImportError:
        return None


def _current(module: Any, path: Path) -> bool:
    try:
        text = path.read_bytes()
    except OSError:
        return False
    return bool(
        getattr(module, "JINJA", None) == jinja2.__version__
        and getattr(module, "SOURCE_SHA256", None) == hashlib.sha256(text).hexdigest()
    )
