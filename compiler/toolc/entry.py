"""The `toolc` command: a `build` or `check` goes to the build daemon when one runs for this
toolc (toolc.daemon), before anything else is imported; every command otherwise runs here."""

from __future__ import annotations

import os
import sys


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] in ("build", "check"):
        from toolc.daemon.client import forward

        status = forward(argv)
        if status is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    from toolc.cli import main as run_here

    run_here()
