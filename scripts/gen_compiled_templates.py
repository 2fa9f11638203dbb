"""Regenerate compiler/toolc/emit/compiled/ from templates/*.j2 (`make templates`): each template
compiled by Jinja ahead of time, so a build imports it (toolc.emit.precompiled)."""

import os
from pathlib import Path

from toolc.emit import precompiled
from toolc.emit.pyfile import _environment
from toolc.resources import data_dir

folder = data_dir("templates")
target = Path(precompiled.__file__).resolve().parent / "compiled"
wanted = {precompiled.module_name(t) + ".py" for t in precompiled.templates(folder)}
for stale in sorted(target.glob("*.py")):
    if stale.name != "__init__.py" and stale.name not in wanted:
        stale.unlink()
        print(f"removed {stale}")
for template in precompiled.templates(folder):
    path = target / (precompiled.module_name(template) + ".py")
    text = precompiled.compiled_source(_environment(), folder, template)
    partial = path.with_suffix(".py.new")  # renamed whole: a module is never left cut short
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
    print(f"wrote {path}")
