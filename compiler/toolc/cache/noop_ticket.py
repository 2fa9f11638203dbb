"""The no-op build before the command line is parsed. Click, the settings and the CLI cost a
no-op about 55 ms of imports (measured), more than its own work at 1,000 tools. So each
`toolc build` run from a terminal leaves a ticket in the user's cache directory: for this
command line in this folder, what the CLI resolved (the config, output, snapshot and docs
folders, the package version) and everything that resolution read (the nearest
pyproject.toml's bytes, where each path leads, the home folder). The next run of the same
command line checks that all of that still holds, runs the no-op check (`uptodate`, standard
library only) with the same arguments, and prints the same line; anything else (no ticket, a
changed setting, a build that would write) runs the CLI as always. Tickets are authenticated
like every cache record (cache.key) and never decide more than the CLI would."""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import sys

from toolc import __version__
from toolc.cache.dirs import cache_folder
from toolc.cache.key import record_mac
from toolc.workspace.private import refusal

TYPE_CHECKING = False  # not typing's: see workspace.files
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

# The command line this process runs (set by toolc.entry; the build daemon runs commands
# without one, and writes no tickets), and the arguments a no-op check already refused.
command_line: list[str] | None = None
refused: tuple[str | None, ...] | None = None

_LAYOUT = 2  # bumped when a ticket's fields change: an older ticket is then not read
# A ticket's fields: `facts` takes the first ones, `leave` adds the last three.
_FACTS = ("layout", "argv", "cwd", "home", "pairs", "config_real", "settings", "digest")
_FIELDS = frozenset((*_FACTS, "arguments", "message"))


def _ticket_file(argv: list[str]) -> str | None:
    folder = cache_folder()
    if folder is None:
        return None
    where = "\0".join((__version__, os.path.realpath(__file__), os.getcwd(), *argv))
    named = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return os.path.join(folder, f"noop-{named}")  # a name of any bytes the system allows


def settings_file(config_real: str) -> str | None:
    """The nearest pyproject.toml at or above the (resolved) config folder: where the CLI's
    settings come from (`cli.settings.load_settings` calls this too)."""
    folder = config_real
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _digest(path: str | None) -> bytes | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as stream:
            return hashlib.sha256(stream.read()).digest()
    except OSError:
        return None


def facts(config_dir: Path) -> dict[str, Any] | None:
    """What the CLI's resolution of a `build` reads, taken before it reads it: a change made
    while the CLI reads can then only make the ticket fail later, never pass. None: this
    process leaves no ticket."""
    if command_line is None or cache_folder() is None:
        return None
    home, cwd = os.path.expanduser("~"), os.getcwd()
    config_real = os.path.realpath(config_dir)
    found = settings_file(config_real)
    pairs = [(cwd, os.path.realpath(cwd)), (home, os.path.realpath(home))]
    pairs.append((os.fspath(config_dir), config_real))
    values = (_LAYOUT, command_line, cwd, home, pairs, config_real, found, _digest(found))
    return dict(zip(_FACTS, values, strict=True))


def leave(
    taken: dict[str, Any],
    source: tuple[str, bytes] | None,
    resolved: list[tuple[Path, Path]],
    arguments: tuple[str | None, ...],
    message: str,
) -> None:
    """After the CLI resolved a `build` it may skip (neither --strict, targets, --against nor
    --no-cache): the ticket for its command line. `source`: the settings file the CLI read
    and the digest of the bytes it read; `resolved`: each folder as the settings or the
    command line give it, and where the CLI resolved it; `arguments`: `is_up_to_date`'s;
    `message`: the line a no-op prints. Nothing is written when the same ticket is there
    already. Never fails the build: a ticket is only a shortcut (with `TOOLC_DEBUG`, what
    failed is printed)."""
    try:
        path = _ticket_file(taken["argv"])
        # The settings were read from the bytes the facts were taken of, or a change came
        # between the two readings (and may be undone by the next): no ticket.
        if path is None or (source or (None, None)) != (taken["settings"], taken["digest"]):
            return
        if not _printable(message):
            return
        pairs = taken["pairs"] + [(os.fspath(raw), os.fspath(real)) for raw, real in resolved]
        ticket = {**taken, "pairs": pairs, "arguments": arguments, "message": message}
        body = marshal.dumps(ticket)
        _save(path, record_mac(os.path.basename(path), body).encode() + b"\n" + body)
    except Exception:
        debug_failure()


def debug_failure() -> None:
    """A shortcut's failure, printed with `TOOLC_DEBUG` set (the command goes on without it)."""
    if os.environ.get("TOOLC_DEBUG"):
        import traceback

        traceback.print_exc()


def _printable(message: object) -> bool:
    """A line every encoding prints alike (the CLI prints any other itself, through click)."""
    return isinstance(message, str) and message.isascii() and message.isprintable()


def _save(path: str, data: bytes) -> None:
    try:
        with open(path, "rb") as stream:
            if stream.read() == data:
                return
    except OSError:
        pass
    from pathlib import Path

    from toolc.workspace.files import save_cache_bytes

    save_cache_bytes(Path(path), data)


def _read(argv: list[str]) -> dict[str, Any] | None:
    """The ticket `leave` wrote for `argv` here, or None: also when it is not the user's own,
    its MAC fails, or its fields are not the ones `leave` writes."""
    path = _ticket_file(argv)
    if path is None or refusal(path) is not None:
        return None
    try:
        with open(path, "rb") as stream:
            mac, _, body = stream.read().partition(b"\n")
        if not hmac.compare_digest(mac, record_mac(os.path.basename(path), body).encode()):
            return None
        ticket: Any = marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if type(ticket) is not dict or ticket.keys() != _FIELDS or ticket["layout"] != _LAYOUT:
        return None
    arguments = ticket["arguments"]
    if type(arguments) is not tuple or len(arguments) != 6 or not _printable(ticket["message"]):
        return None
    # cwd, home, config, out, snapshot, and docs when the build writes them
    if len(ticket["pairs"]) != 5 + (arguments[3] is not None):
        return None
    return ticket


def up_to_date(argv: list[str]) -> str | None:
    """The line to print when the build `argv` would change nothing, as the CLI would decide
    it; None: run the CLI (which skips the check this made, `refused`, when its arguments
    come out the same)."""
    global refused
    ticket = _read(argv)
    if ticket is None:
        return None
    if (ticket["argv"], ticket["cwd"], ticket["home"]) != (
        argv, os.getcwd(), os.path.expanduser("~")
    ):  # fmt: skip
        return None
    if not all(os.path.realpath(raw) == real for raw, real in ticket["pairs"]):
        return None  # a link now leads elsewhere, or the home folder moved
    found = ticket["settings"]
    if settings_file(ticket["config_real"]) != found or _digest(found) != ticket["digest"]:
        return None
    config_dir, out_dir, snapshot_path, docs_dir, project, lints = ticket["arguments"]
    if not (os.path.isdir(config_dir) and os.access(config_dir, os.R_OK)):
        return None  # the CLI's argument refuses it: a usage error
    from toolc.cache.uptodate import is_up_to_date

    if not is_up_to_date(
        config_dir, out_dir, snapshot_path, docs_dir=docs_dir, project=project, lints=lints
    ):
        refused = (config_dir, out_dir, snapshot_path, docs_dir, project, lints)
        return None
    return str(ticket["message"])


def print_and_exit(line: str, status: int = 0) -> None:
    """End as the CLI does: after a no-op, its line on stderr (none without a stderr, as
    click.echo does) and status 0; after Ctrl-C, click's "Aborted!" and status 1."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:  # a closed pipe: the line cannot be said
        os._exit(1)
    os._exit(status)
