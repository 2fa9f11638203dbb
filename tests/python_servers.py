"""Other people's Python MCP servers, for the import tests: `mcp-server-git` and
`mcp-server-time`, written with the official Python SDK. Each pins its own `mcp`, which need not
be toolc's, so `server_bin()` installs them into a venv of their own (tests/.servers-venv) once
per checkout, from the test set-up itself: nothing is installed by hand."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

SERVERS = ("mcp-server-git==2026.10.19", "mcp-server-time==2026.10.19")
VENV = Path(__file__).resolve().parent / ".servers-venv"
_STAMP = VENV / ".toolc-installed"


def server_bin(name: str) -> Path:
    """The console script `name` of the pinned servers, installed when missing or stale."""
    wanted = "\n".join(SERVERS).encode()
    VENV.parent.mkdir(exist_ok=True)
    with (VENV.parent / ".servers-venv.lock").open("w") as held:  # pytest workers share it
        fcntl.flock(held, fcntl.LOCK_EX)
        if not _STAMP.is_file() or _STAMP.read_bytes() != wanted:
            for step in (
                [sys.executable, "-m", "venv", "--clear", str(VENV)],
                [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", *SERVERS],
            ):
                done = subprocess.run(step, capture_output=True, text=True, timeout=600)
                if done.returncode != 0:
                    raise RuntimeError(f"{' '.join(step)} failed:\n{done.stderr}")
            _STAMP.write_bytes(wanted)
    return VENV / "bin" / name
