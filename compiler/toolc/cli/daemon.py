"""`toolc daemon start|stop|status`: the build daemon (decision 0123)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import click

from toolc.cli.common import EXIT_ERRORS, EXIT_OK
from toolc.workspace.private import lock_is_held

IDLE_DEFAULT = 3 * 3600  # seconds; as Gradle's daemon, gone after three idle hours
_START_WAIT = 30.0  # seconds for the daemon's imports before it answers
_STOP_WAIT = 120.0  # seconds for the command it runs to end, and its caches to be written


@click.group()
def daemon() -> None:
    """Run builds in a resident toolc: `toolc build` and `toolc check` then start warm, with
    the build caches in memory (a one-tool edit of 1,000 tools in about 0.23 s, against
    0.6-0.7 s alone). One daemon per toolc installation and user; builds run as always
    without one."""


@daemon.command()
@click.option(
    "--idle-timeout", type=click.FloatRange(min=0), default=IDLE_DEFAULT, show_default=True,
    help="Seconds without a command after which the daemon stops (0: never).",
)  # fmt: skip
def start(idle_timeout: float) -> None:
    """Start the daemon in the background (nothing happens if it runs already)."""
    from toolc.daemon import client, protocol

    if not sys.platform.startswith("linux"):
        _fail("the build daemon needs Linux (a Unix socket whose peer's user it can check)")
    path = protocol.socket_path()
    if path is None:
        _fail("caching is off (TOOLC_NO_CACHE), and the daemon is a cache")
    assert path is not None
    running = client.request("ping")
    if running is not None or lock_is_held(protocol.beside(path, ".lock")):
        pid = running.get("pid") if running is not None else "busy with a command"
        click.echo(f"toolc daemon: already running ({pid})", err=True)
        sys.exit(EXIT_OK)
    from pathlib import Path

    from toolc.workspace.private import make_private_dir, open_private_log

    make_private_dir(Path(path).parent)
    log = protocol.beside(path, ".log")
    with os.fdopen(open_private_log(log), "ab") as stream:
        child = subprocess.Popen(
            [sys.executable, "-m", "toolc.daemon", str(idle_timeout)],
            stdin=subprocess.DEVNULL, stdout=stream, stderr=stream, cwd="/",
            start_new_session=True,  # not stopped by the terminal's Ctrl-C or hang-up
        )  # fmt: skip
    deadline = time.monotonic() + _START_WAIT
    while time.monotonic() < deadline:
        answer = client.request("ping")
        if answer is not None:
            click.echo(
                f"toolc daemon: started (pid {answer.get('pid')}); `toolc build` and "
                "`toolc check` run in it until `toolc daemon stop`",
                err=True,
            )
            sys.exit(EXIT_OK)
        if child.poll() is not None:
            break
        time.sleep(0.02)
    _fail(f"the daemon did not start; its log: {log}")


@daemon.command()
def stop() -> None:
    """Stop the daemon (after the command it runs, if any); builds run in their own process
    again."""
    from toolc.daemon import client, protocol

    path = protocol.socket_path()
    answer = client.request("stop", timeout=_STOP_WAIT)
    if answer is None:
        click.echo("toolc daemon: not running", err=True)
        sys.exit(EXIT_OK)
    assert path is not None
    deadline = time.monotonic() + _STOP_WAIT  # gone once it wrote its caches and let go
    while lock_is_held(protocol.beside(path, ".lock")) and time.monotonic() < deadline:
        time.sleep(0.02)
    click.echo(f"toolc daemon: stopped (pid {answer.get('pid')})", err=True)
    sys.exit(EXIT_OK)


@daemon.command()
def status() -> None:
    """Say whether the daemon runs, and what it has served (exit 1 when it does not run)."""
    from toolc.daemon import client, protocol

    answer = client.request("ping")
    if answer is None:
        path = protocol.socket_path()
        if path is not None and lock_is_held(protocol.beside(path, ".lock")):
            click.echo("toolc daemon: running, busy with a command")
            sys.exit(EXIT_OK)
        click.echo("toolc daemon: not running", err=True)
        sys.exit(EXIT_ERRORS)
    kept = answer.get("resident") or {}
    assert isinstance(kept, dict)
    click.echo(
        f"toolc daemon: running (pid {answer.get('pid')}, socket {answer.get('socket')}); "
        f"{answer.get('served')} command(s) served; build caches taken from memory "
        f"{kept.get('memory', 0)} time(s), read from disk {kept.get('disk', 0)} time(s)"
    )
    sys.exit(EXIT_OK)


def _fail(message: str) -> None:
    click.echo(f"toolc daemon: {message}", err=True)
    sys.exit(EXIT_ERRORS)
