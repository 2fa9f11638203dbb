"""`toolc init`: a commented starting config, with what a team needs around it."""

from __future__ import annotations

import sys
from pathlib import Path
from shlex import quote
from typing import TYPE_CHECKING, NoReturn

import click

from toolc.cli.common import EXIT_ERRORS, EXIT_OK, format_option
from toolc.cli.remote import auth_token_option, headers_of
from toolc.diagnostics.paths import shown_path

if TYPE_CHECKING:
    from toolc.diagnostics.model import Diagnostic
    from toolc.verbs.init import Plan

    # What the import said, and the texts its diagnostics point into: shown once, with
    # the outcome.
    Said = tuple[list[Diagnostic], dict[str, str]]


@click.command()
@click.argument(
    "config_dir", required=False, default=".",
    type=click.Path(file_okay=False, path_type=Path), metavar="[DIR]",
)  # fmt: skip
@click.option(
    "--from", "source", default=None, metavar="SOURCE",
    help="Import the config from a tools/list instead: a JSON file, a URL (Streamable HTTP), "
    "or `stdio` with the server's command after `--` (then DIR must be given).",
)  # fmt: skip
@click.option(
    "--server", default=None, metavar="NAME",
    help="With --from: the mcp_server of the imported tools (default: the server's own name).",
)  # fmt: skip
@auth_token_option
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@format_option
def init(
    config_dir: Path, source: str | None, server: str | None, auth_token_env: str | None,
    command: tuple[str, ...], fmt: str | None,
) -> None:  # fmt: skip
    """Write a starting config in DIR (default: here): tools.yaml and tool_policies.yaml with
    a comment on every key (or, with --from, imported from a server's tools/list), the editor
    schemas, a [tool.toolc] section in pyproject.toml, a GitHub workflow and a pre-commit
    hook. Existing files are never overwritten."""
    from toolc.verbs.init import carry_out
    from toolc.verbs.refused_write import write_failure

    if config_dir.exists() and not config_dir.is_dir():
        raise click.UsageError(f"{shown_path(config_dir)} is not a directory")
    if command and source != "stdio":
        raise click.UsageError("a command after `--` goes with --from stdio")
    over_http = source is not None and source.startswith(("http://", "https://"))
    headers = headers_of(auth_token_env, source if over_http else None)
    from toolc.cli.importing import show

    planned = _planned(config_dir, None, fmt)
    if planned.refused or planned.invalid:
        show(_refusals(config_dir, planned), {}, fmt)  # in every format, a machine's too
        click.echo(f"toolc init {config_dir}: nothing written", err=True)
        sys.exit(EXIT_ERRORS)
    # What the import said: shown once, with the outcome (one report, even in SARIF).
    said: Said = ([], {})
    if source is not None:
        targets = _targets_after(config_dir)
        imported, said = _imported(source, command, server, fmt, headers, targets)
        planned = _planned(config_dir, imported, fmt, said)
    try:
        written = carry_out(planned)
    except OSError as exc:
        wanted = (config_dir, *(item.path for item in planned.files))
        _failed(
            write_failure(exc, wanted, Path.cwd(), "run `toolc init` in another folder"),
            config_dir,
            fmt,
            said,
        )
    show(*said, fmt)
    for path in written:
        click.echo(f"  wrote {shown_path(path)}", err=True)
    for path in planned.kept:
        click.echo(f"  kept {shown_path(path)} as it is", err=True)
    click.echo(
        f"toolc init {config_dir}: next, `toolc build {quote(str(config_dir))}` generates the "
        f"package, and `toolc scaffold {quote(str(config_dir))}` a server to fill in",
        err=True,
    )
    sys.exit(EXIT_OK)


def _refusals(config_dir: Path, planned: Plan) -> list[Diagnostic]:
    """Why init writes nothing: a config already there, a pyproject.toml it cannot extend."""
    from toolc.diagnostics import Span, diag

    found = [
        diag(
            "io-error",
            Span.whole_file(shown_path(path)),
            f"{shown_path(path)} exists, and init never overwrites a config",
            "edit it, or run `toolc init` in an empty folder",
        )
        for path in planned.refused
    ]
    found += [
        diag(
            "io-error",
            Span.whole_file(shown_path(config_dir / "pyproject.toml")),
            f"{why}; init adds a [tool.toolc] section to it",
            "fix the file (or add the section by hand), then run `toolc init` again",
        )
        for why in planned.invalid
    ]
    return found


def _planned(
    config_dir: Path,
    config: dict[str, bytes] | None,
    fmt: str | None,
    said: Said = ([], {}),
) -> Plan:
    """init's plan; a pyproject.toml that cannot be read ends the command (io-error)."""
    from toolc.verbs.init import plan
    from toolc.verbs.refused_write import write_failure

    try:
        return plan(config_dir, config)
    except OSError as exc:
        found = write_failure(
            exc, (config_dir,), Path.cwd(), "run `toolc init` in another folder", doing="read"
        )
        _failed(found, config_dir, fmt, said)


def _failed(
    found: Diagnostic,
    config_dir: Path,
    fmt: str | None,
    said: Said = ([], {}),
) -> NoReturn:
    from toolc.cli.importing import show

    show([*said[0], found], said[1], fmt)
    click.echo(f"toolc init {config_dir}: nothing written", err=True)
    sys.exit(EXIT_ERRORS)


def _targets_after(config_dir: Path) -> tuple[str, ...]:
    """The targets the config's builds will apply once init has run: those of DIR's own
    pyproject.toml, which init keeps. Without one, init writes one with no targets, and it
    is the nearest a build finds: an enclosing folder's targets no longer apply."""
    from toolc.cli.common import settings_for

    own = config_dir / "pyproject.toml"
    return settings_for(config_dir).targets if own.is_file() else ()


def _imported(
    source: str,
    command: tuple[str, ...],
    server: str | None,
    fmt: str | None,
    headers: dict[str, str] | None,
    targets: tuple[str, ...],
) -> tuple[dict[str, bytes], Said]:
    """The config `toolc import` makes of SOURCE, and what it said with the texts it points
    into (shown and exit 1 on errors); a tool `targets` refuse is skipped, as import does."""
    from toolc.cli.importing import imported_from, show

    if source == "stdio":
        result, texts = imported_from(command, True, None, server, targets=targets)
    elif source.startswith(("http://", "https://")):
        result, texts = imported_from((), False, source, server, targets=targets, headers=headers)
    else:
        result, texts = imported_from((source,), False, None, server, targets=targets)
    if result.failed:
        show(result.diagnostics, texts, fmt)
        click.echo("toolc init: nothing written", err=True)
        sys.exit(EXIT_ERRORS)
    return result.config, (result.diagnostics, texts)
