"""The generated-code templates, compiled to Python ahead of time (`make templates`), so a build
runs each one's compiled code instead of having Jinja compile it: Jinja's lexing, parsing and
code generation of the ten templates a build renders took about 33 ms of every build
(measured), and running their compiled modules (from bytecode) takes about 3 ms.

`compiled/<template>.py` holds what `Environment.compile` makes of `templates/<template>`,
with the SHA-256 of the template's text, the Jinja version and the environment options Jinja
bakes into the code. A module is used only when all three match what this process has: a
template edited since `make templates`, another Jinja or other options are compiled from the
text as before, so the output never depends on whether the modules are current
(tests/test_precompiled.py checks the committed ones are)."""

from __future__ import annotations

import hashlib
import importlib.util
import re
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2

_PACKAGE = "toolc.emit.compiled"
_DEFINES = ("root", "blocks", "debug_info", "name")  # what Jinja's compiled code ends with
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
        + f"SOURCE_SHA256 = {digest!r}\nJINJA = {jinja2.__version__!r}\n"
        + f"OPTIONS = {options_of(environment)!r}\n{code}\n"
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
        namespace = _namespace(name, environment, self.folder / name)
        if namespace is None:
            return self.files.load(environment, name, globals)
        return environment.template_class.from_module_dict(
            environment, namespace, globals if globals is not None else {}
        )


def options_of(environment: jinja2.Environment) -> str | None:
    """What of the environment Jinja bakes into compiled code (the syntax, whitespace,
    escaping and async options, and the names of the filters and tests it resolves); None
    when one of them is code, which no text can stand for."""
    env = environment
    if callable(env.autoescape) or env.finalize is not None:
        return None
    return repr((
        env.block_start_string, env.block_end_string, env.variable_start_string,
        env.variable_end_string, env.comment_start_string, env.comment_end_string,
        env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
        env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline, env.autoescape,
        env.optimized, env.is_async, sorted(env.extensions), sorted(env.filters),
        sorted(env.tests),
    ))  # fmt: skip


def _namespace(name: str, environment: jinja2.Environment, path: Path) -> dict[str, Any] | None:
    """The compiled template's definitions, run in a namespace of their own (its functions
    read `environment` from it, so each environment gets its own), when the module was made
    from the template's current text, by this Jinja, with this environment's options."""
    if "/" in name or not name.endswith(".j2"):
        return None
    try:
        spec = importlib.util.find_spec(f"{_PACKAGE}.{module_name(name)}")
        if spec is None or spec.loader is None or spec.origin is None:
            return None
        code = spec.loader.get_code(spec.name)  # type: ignore[attr-defined]
        namespace: dict[str, Any] = {"__name__": spec.name, "__file__": spec.origin}
        exec(code, namespace)  # toolc's own module: definitions only
        text = path.read_bytes()
    except Exception:  # a module cut short or missing: the text is compiled instead
        return None
    current = (
        all(key in namespace for key in _DEFINES)  # not a module cut at a line's end
        and namespace.get("JINJA") == jinja2.__version__
        and namespace.get("OPTIONS") == options_of(environment)
        and namespace.get("SOURCE_SHA256") == hashlib.sha256(text).hexdigest()
    )
    return namespace if current else None
