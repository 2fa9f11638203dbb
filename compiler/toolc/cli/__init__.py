"""The command line: options in, exit status out. Exit 0 clean (warnings allowed), 1 errors (or
warnings under --strict), 2 usage errors, 70 an internal error of toolc itself. Click glue only:
each command calls one verb (`toolc.verbs`)."""

from __future__ import annotations

import os
import sys
import traceback

import click

from toolc import __version__
from toolc.cli import (
    build,
    daemon,
    evolution,
    explain,
    importing,
    init,
    remote,
    serving,
    testing,
)
from toolc.cli.common import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="toolc", message="%(prog)s %(version)s")
def cli() -> None:
    """toolc: a compiler for MCP tool declarations (tools.yaml, tool_policies.yaml)."""


for _command in (
    build.check, build.build, build.docs, evolution.diff, evolution.bump, explain.explain,
    explain.schema, serving.serve, serving.scaffold, testing.test, remote.verify, init.init,
    importing.import_, daemon.daemon,
):  # fmt: skip
    cli.add_command(_command)


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; never raises."""
    try:
        cli.main(args=argv, prog_name="toolc")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in toolc: say so, without a traceback unless asked
        if _working_folder_gone():  # not a bug: every relative path fails with it
            sys.stderr.write(
                "toolc: the working directory no longer exists (deleted or moved); cd to a "
                "folder that exists and run the command again\n"
            )
            return EXIT_USAGE
        if os.environ.get("TOOLC_DEBUG"):
            traceback.print_exc()
        sys.stderr.write(
            f"toolc: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in toolc, not in your config. Set TOOLC_DEBUG=1 for the traceback.\n"
        )
        return EXIT_INTERNAL
    return EXIT_OK


def _working_folder_gone() -> bool:
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    return False


def main() -> None:
    status = run()
    # An old output still being deleted in the background: only a build that committed one
    # loaded the module that does it (a no-op never imports it).
    committing = sys.modules.get("toolc.workspace.committing")
    if committing is not None:
        committing.finish_cleanup()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip tearing down the compiled project object by object: nothing is left to write, and at
    # 5,000 tools the interpreter's orderly shutdown took about a second (measured).
    os._exit(status)
