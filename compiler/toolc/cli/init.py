"""`toolc init`: a commented starting config, with what a team needs around it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolc.cli.common import EXIT_ERRORS, EXIT_OK
from toolc.diagnostics.paths import shown_path


@click.command()
@click.argument(
    "config_dir", required=False, default=".",
    type=click.Path(file_okay=False, path_type=Path), metavar="[DIR]",
)  # fmt: skip
def init(config_dir: Path) -> None:
    """Write a starting config in DIR (default: here): tools.yaml and tool_policies.yaml with
    a comment on every key, the editor schemas, a [tool.toolc] section in pyproject.toml, a
    GitHub workflow and a pre-commit hook. Existing files are never overwritten."""
    from toolc.verbs.init import carry_out, plan

    if config_dir.exists() and not config_dir.is_dir():
        raise click.UsageError(f"{shown_path(config_dir)} is not a directory")
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
