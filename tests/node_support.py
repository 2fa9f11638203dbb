"""Other people's JavaScript, for the tests: the official TypeScript SDK client and ajv as that
client configures it. `node_modules()` installs the pinned packages of tests/node (its
package-lock.json) once per checkout, with `npm ci`, from the test set-up itself: nothing is
installed by hand, and a fresh CI machine gets the same versions."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

NODE_DIR = Path(__file__).resolve().parent / "node"
_STAMP = NODE_DIR / "node_modules" / ".toolc-installed"


def node_modules() -> Path:
    """tests/node/node_modules, installed from the lock file when missing or stale."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise RuntimeError("Node.js and npm are needed by these tests (the TypeScript client)")
    lock = (NODE_DIR / "package-lock.json").read_bytes()
    with (NODE_DIR / ".install-lock").open("w") as held:  # pytest workers share the folder
        fcntl.flock(held, fcntl.LOCK_EX)
        if not _STAMP.is_file() or _STAMP.read_bytes() != lock:
            done = subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=NODE_DIR,
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode != 0:
                raise RuntimeError(f"npm ci failed in {NODE_DIR}:\n{done.stderr}")
            _STAMP.write_bytes(lock)
    return NODE_DIR / "node_modules"


def node22() -> Path:
    """The Node 22 binary of the `node` package in tests/node: the conformance suite needs 22,
    and the machine's own node may be older."""
    return node_modules() / ".bin" / "node"


def conformance(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the pinned MCP conformance suite (`@modelcontextprotocol/conformance`) on Node 22."""
    cli = node_modules() / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    return subprocess.run(
        [str(node22()), str(cli), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=NODE_DIR,
    )


def run_node(script: str, payload: Any, timeout: float = 120) -> Any:
    """Run an ES module `script` (a file name in tests/node) with `payload` as JSON on stdin;
    its stdout, parsed as JSON."""
    node_modules()
    done = subprocess.run(
        ["node", str(NODE_DIR / script)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=NODE_DIR,
    )
    if done.returncode != 0:
        raise RuntimeError(f"node {script} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)
