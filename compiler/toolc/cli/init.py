"""`toolc init`: a commented starting config, with what a team needs around it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolc.cli.common import EXIT_ERRORS, EXIT_OK, format_option
from toolc.diagnostics.paths import shown_path


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
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@format_option
def init(
    config_dir: Path, source: str | None, server: str | None, command: tuple[str, ...],
    fmt: str | None,
) -> None:  # fmt: skip
    """Write a starting config in DIR (default: here): tools.yaml and tool_policies.yaml with
    a comment on every key (or, with --from, imported from a server's tools/list), the editor
    schemas, a [tool.toolc] section in pyproject.toml, a GitHub workflow and a pre-commit
    hook. Existing files are never overwritten."""
    from toolc.verbs.init import carry_out, plan

    if config_dir.exists() and not config_dir.is_dir():
        raise click.UsageError(f"{shown_path(config_dir)} is not a directory")
    if command and source != "stdio":
        raise click.UsageError("a command after `--` goes with --from stdio")
    planned = plan(config_dir)
    if planned.refused:
        for path in planned.refused:
            click.echo(
                f"toolc init: {shown_path(path)} exists, and init never overwrites a config: "
                "edit it, or run `toolc init` in an empty folder",
                err=True,
            )
        click.echo(f"toolc init {config_dir}: nothing written", err=True)
        sys.exit(EXIT_ERRORS)
    if source is not None:
        imported = _imported(source, command, server, fmt)
        planned = plan(config_dir, imported)
    written = carry_out(planned)
    for path in written:
        click.echo(f"  wrote {shown_path(path)}", err=True)
    for path in planned.kept:
        click.echo(f"  kept {shown_path(path)} as it is", err=True)
    click.echo(
        f"toolc init {config_dir}: next, `toolc build {config_dir}` generates the package, "
        f"and `toolc scaffold {config_dir}` a server to fill in",
        err=True,
    )
    sys.exit(EXIT_OK)


def _imported(
    source: str, command: tuple[str, ...], server: str | None, fmt: str | None
) -> dict[str, bytes]:
    """The config `toolc import` makes of SOURCE (the diagnostics shown; exit 1 on errors)."""
    from toolc.cli.importing import imported_from, show

    if source == "stdio":
        result, texts = imported_from(command, True, None, server)
    elif source.startswith(("http://", "https://")):
        result, texts = imported_from((), False, source, server)
    else:
        result, texts = imported_from((source,), False, None, server)
    show(result.diagnostics, texts, fmt)
    if result.failed:
        click.echo("toolc init: nothing written", err=True)
        sys.exit(EXIT_ERRORS)
    return result.config
