"""Issue 16: a generated server starts without importing its tools' models. Its start-up to
the first tools/list answer grew with every tool's pydantic models (handlers.py imports
them all, for the annotations of the handler protocols): 7.7 s against the bare SDK server's
2.3 s at 1,000 tools. The models load on a tool's first call (registry.py), and the format
checks of each tool's data are decided on its first answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "examples" / "retail" / "generated"

START = """
import json, sys
sys.path.insert(0, sys.argv[1])
from mcp_tools.server import create_server

class Handlers:
    async def consultar_pedidos(self, args, ctx): ...
    async def cancelar_pedidos(self, args, ctx): ...

create_server(Handlers(), metrics=False)
loaded = [m for m in sys.modules if m.startswith("mcp_tools.tools.")]
print(json.dumps(sorted(loaded + [m for m in sys.modules if m == "mcp_tools.handlers"])))
"""


def test_a_served_package_loads_no_tool_models_before_a_call() -> None:
    run = subprocess.run(
        [sys.executable, "-c", START, str(PACKAGE)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []
