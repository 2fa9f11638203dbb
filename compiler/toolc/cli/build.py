"""`toolc check` and `toolc build`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from toolc.cli.common import (
    EXIT_OK,
    BaselineUsage,
    build_options,
    check_paths,
    notify,
    report,
    settings_for,
)
from toolc.cli.settings import Settings
from toolc.diagnostics.paths import shown_path


def budget_of(settings: Settings) -> tuple[int, str] | None:
    """The listing budget and where it was set, for the warning's message."""
    if settings.listing_budget is None:
        return None
    return settings.listing_budget, f"listing_budget at {settings.origin('listing_budget')}"


@click.command()
@build_options
@click.option("--diff", "show_diff", is_flag=True, help="Print unified diffs of changed files.")
@click.option(
    "--stats", is_flag=True,
    help="Print what each server's tools/list costs: bytes and estimated tokens, per tool.",
)  # fmt: skip
def check(
    config_dir: Path, fmt: str | None, strict: bool | None, out: Path | None,
    snapshot: Path | None, show_diff: bool, stats: bool, no_cache: bool, against: str | None,
) -> None:  # fmt: skip
    """Validate the config in DIR, and compare the generated files with what a build would write.

    Until the first build (no output directory and no snapshot yet) only the config is checked.
    """
    settings = settings_for(config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot)
    out_dir, snapshot_path = check_paths(settings, config_dir)
    from toolc import verbs  # here, so that --version and explain start fast

    if not out_dir.exists() and not snapshot_path.exists() and against is None:
        compiled: Any = verbs.check_config(config_dir)
        tools = len(compiled.tools)
        report(settings, compiled, "check", config_dir, f"ok: {tools} tool(s)")
    with BaselineUsage():
        result = verbs.build(
            config_dir, out_dir, snapshot_path, write=False, cache=not no_cache,
            against=against, notify=notify, stats=stats, listing_budget=budget_of(settings),
        )  # fmt: skip
    if result.costs is not None and stats:
        from toolc.verbs.listing import render_costs

        # The table is what was asked for; beside a machine format it goes to stderr.
        click.echo(render_costs(result.costs), nl=False, err=settings.format != "text")
    if show_diff and result.drift is not None and result.files is not None:
        from toolc.workspace.textdiff import unified

        sys.stdout.write(unified(out_dir, result.drift, result.files))
    tools = result.tool_count
    report(settings, result, "check", config_dir, f"ok: {tools} tool(s), output up to date")


@click.command()
@build_options
def build(
    config_dir: Path, fmt: str | None, strict: bool | None, out: Path | None,
    snapshot: Path | None, no_cache: bool, against: str | None,
) -> None:  # fmt: skip
    """Generate the package for the config in DIR: models, descriptors, schemas, contracts,
    registry, and the versioned snapshot. Writes nothing unless everything succeeds."""
    settings = settings_for(config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot)
    out_dir, snapshot_path = check_paths(settings, config_dir)
    from toolc.cache.uptodate import is_up_to_date

    # Under --strict the warnings matter, so nothing is skipped that would report them.
    if (
        not settings.strict
        and against is None
        and is_up_to_date(config_dir, out_dir, snapshot_path, cache=not no_cache)
    ):
        click.echo(f"toolc build {config_dir}: up to date ({shown_path(out_dir)})", err=True)
        sys.exit(EXIT_OK)
    from toolc import verbs

    with BaselineUsage():
        result = verbs.build(
            config_dir, out_dir, snapshot_path, write=True, strict=settings.strict,
            cache=not no_cache, against=against, notify=notify,
            listing_budget=budget_of(settings),
        )  # fmt: skip
    written = f"wrote {shown_path(out_dir)} and {shown_path(snapshot_path)}"
    done = written if result.written else "nothing written"
    report(settings, result, "build", config_dir, done)
