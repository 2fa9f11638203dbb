"""The templates compiled ahead of time (`make templates`, toolc.emit.precompiled): the committed
modules are what Jinja makes of today's templates, a build loads them, and a template edited
since is compiled from its text instead, so a stale module never changes the output."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest
from toolc.emit import precompiled
from toolc.emit.pyfile import _environment
from toolc.resources import data_dir

TEMPLATES = data_dir("templates")
COMPILED = Path(precompiled.__file__).parent / "compiled"


def test_the_committed_modules_are_current() -> None:
    """Else run `make templates` (or `make golden`, which runs it)."""
    names = precompiled.templates(TEMPLATES)
    assert "tool_module.py.j2" in names and "server.py.j2" in names
    for name in names:
        module = COMPILED / (precompiled.module_name(name) + ".py")
        expected = precompiled.compiled_source(_environment(), TEMPLATES, name)
        assert module.read_text(encoding="utf-8") == expected, f"{module} is stale"
    made = {precompiled.module_name(n) + ".py" for n in names} | {"__init__.py"}
    assert {p.name for p in COMPILED.glob("*.py")} == made


def test_a_build_loads_the_compiled_modules() -> None:
    for name in precompiled.templates(TEMPLATES):
        template = _environment().get_template(name)
        assert template.filename is not None
        assert Path(template.filename).parent == COMPILED, name


def test_a_template_edited_since_is_compiled_from_its_text(tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    edited = folder / "tools_init.py.j2"
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")

    def load(name: str) -> jinja2.Template:
        env = jinja2.Environment(
            loader=precompiled.Loader(folder), keep_trailing_newline=True, autoescape=False
        )
        return env.get_template(name)

    stale = load("tools_init.py.j2")
    assert stale.render(header="H").endswith("# edited\n")
    assert stale.filename == str(edited)  # from the text, not from the compiled module
    current = load("registry.py.j2")
    assert current.filename is not None and Path(current.filename).parent == COMPILED


def test_another_jinja_is_compiled_from_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    env = jinja2.Environment(loader=precompiled.Loader(TEMPLATES), keep_trailing_newline=True)
    template = env.get_template("tools_init.py.j2")
    assert template.filename == str(TEMPLATES / "tools_init.py.j2")


def test_each_environment_renders_with_its_own_settings() -> None:
    """A second environment loading a compiled template never rebinds the build's: its
    templates still raise on a missing value (StrictUndefined), the other's do not."""
    build = _environment().get_template("tools_init.py.j2")
    lenient = jinja2.Environment(loader=precompiled.Loader(TEMPLATES), keep_trailing_newline=True)
    other = lenient.get_template("tools_init.py.j2")
    assert other.filename is not None and Path(other.filename).parent == COMPILED
    assert other.render().startswith("\n")  # `header` missing: empty here
    with pytest.raises(jinja2.UndefinedError):
        build.render()
    with pytest.raises(jinja2.UndefinedError):
        _environment().get_template("registry.py.j2").render()


@pytest.mark.parametrize(
    "options",
    [{"keep_trailing_newline": False}, {"autoescape": True}, {"trim_blocks": True},
     {"variable_start_string": "[["}, {"autoescape": lambda name: False},
     {"enable_async": True}],
)  # fmt: skip
def test_options_baked_into_compiled_code_must_match(options: dict[str, object]) -> None:
    """Options Jinja compiles into the code (whitespace, escaping, syntax): an environment
    with other ones compiles the text."""
    settings: dict[str, object] = {"keep_trailing_newline": True, **options}
    env = jinja2.Environment(loader=precompiled.Loader(TEMPLATES), **settings)  # type: ignore[arg-type]
    template = env.get_template("tools_init.py.j2")
    assert template.filename == str(TEMPLATES / "tools_init.py.j2")


def test_a_module_cut_short_is_compiled_from_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def cut(name: str, *args: object) -> object:
        spec = real(name)
        if spec is not None and name.endswith("tools_init_py_j2"):
            spec.loader.get_code = lambda _: compile("x = (", "cut", "exec")  # type: ignore[union-attr]
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", cut)
    env = jinja2.Environment(loader=precompiled.Loader(TEMPLATES), keep_trailing_newline=True)
    template = env.get_template("tools_init.py.j2")
    assert template.filename == str(TEMPLATES / "tools_init.py.j2")


def test_a_module_cut_at_a_line_s_end_is_compiled_from_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Valid Python, its header intact, but without the definitions Jinja's code ends with
    (`blocks`, `debug_info`): an interrupted write of an older `make templates`."""
    import importlib.util

    name = "tool_module.py.j2"
    module = COMPILED / (precompiled.module_name(name) + ".py")
    lines = module.read_text(encoding="utf-8").splitlines(keepends=True)
    cut_at = next(i for i, line in enumerate(lines) if line.startswith("blocks = "))
    real = importlib.util.find_spec

    def cut(found: str, *args: object) -> object:
        spec = real(found)
        if spec is not None and found.endswith(precompiled.module_name(name)):
            text = "".join(lines[:cut_at])
            spec.loader.get_code = lambda _: compile(text, str(module), "exec")  # type: ignore[union-attr]
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", cut)
    env = jinja2.Environment(loader=precompiled.Loader(TEMPLATES), keep_trailing_newline=True)
    assert env.get_template(name).filename == str(TEMPLATES / name)
