"""The `toolc` command: a `build` or `check` goes to the build daemon when one runs for this
toolc (toolc.daemon), before anything else is imported; a `build` that would change nothing
ends before the CLI loads, when the last run of the same command line here left a ticket
(cache.noop_ticket); every command otherwise runs here."""

from __future__ import annotations

import os
import sys


def main() -> None:
    try:
        _run()
    except KeyboardInterrupt:  # before click handles it (in the imports): as click ends it
        from toolc.cache import noop_ticket

        noop_ticket.print_and_exit("\nAborted!", 1)


def _run() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] in ("build", "check"):
        from toolc.daemon.client import forward

        status = forward(argv)
        if status is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    if argv and argv[0] == "build":
        from toolc.cache import noop_ticket

        noop_ticket.command_line = argv
        try:
            message = noop_ticket.up_to_date(argv)
        except Exception:  # a shortcut only: the CLI does the same work and reports it
            noop_ticket.debug_failure()
            message = None
        if message is not None:
            noop_ticket.print_and_exit(message)
    from toolc.cli import main as run_here

    run_here()
