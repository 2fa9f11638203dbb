"""A generated package built from a `tools.yaml` text and imported: what the tests of the
generated models judge."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from toolc import verbs


def built_tools(root: Path, config: str, package: str) -> Any:
    """The `TOOLS` of `package`, built under `root` from `config` (a build that writes
    nothing fails the test with its diagnostics). `package` must be a name no other test
    imported: Python would hand back that one's modules, built from another config."""
    assert package not in sys.modules, f"package name {package!r} is taken: pick another"
    (root / "cfg").mkdir()
    (root / "cfg" / "tools.yaml").write_text(config, encoding="utf-8")
    result = verbs.build(root / "cfg", root / package, root / "snapshot.json", write=True)
    assert result.written, [str(d) for d in result.diagnostics]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(package).TOOLS
    finally:
        sys.path.remove(str(root))
