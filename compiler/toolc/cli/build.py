"""`toolc check`, `toolc build` and `toolc docs`."""

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
    config_dir_argument,
    docs_path,
    format_option,
    metadata_lint_option,
    notify,
    out_option,
    report,
    settings_for,
    strict_option,
)
from toolc.cli.settings import Settings
from toolc.diagnostics.paths import shown_path


def budget_of(settings: Settings) -> tuple[int, str] | None:
    """The listing budget and where it was set, for the warning's message."""
    if settings.listing_budget is None:
        return None
    return settings.listing_budget, f"listing_budget at {settings.origin('listing_budget')}"


def project_version(settings: Settings) -> str | None:
    """The version of the package's pyproject.toml, when one is written (None: none)."""
    return settings.package_version if settings.package_project else None


@click.command()
@build_options
@click.option(
    "--diff", "show_diff", is_flag=True,
    help="Print unified diffs of changed files (on stderr beside a machine --format).",
)  # fmt: skip
@click.option(
    "--stats", is_flag=True,
    help="Print what each server's tools/list costs: bytes and estimated tokens, per tool.",
)  # fmt: skip
def check(
    config_dir: Path, fmt: str | None, strict: bool | None, metadata_lint: bool | None,
    out: Path | None,
    snapshot: Path | None, docs_out: Path | None, show_diff: bool, stats: bool, no_cache: bool,
    against: str | None, targets: tuple[str, ...], package_project: bool | None,
) -> None:  # fmt: skip
    """Validate the config in DIR, and compare the generated files (and the reference docs,
    with docs_out) with what a build would write.

    Until the first build (no output directory and no snapshot yet) only the config is checked.
    """
    settings = settings_for(
        config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot, docs_out=docs_out,
        metadata_lint=metadata_lint, targets=targets or None, package_project=package_project,
    )  # fmt: skip
    out_dir, snapshot_path = check_paths(settings, config_dir)
    docs_dir = docs_path(settings, config_dir, out_dir, snapshot_path, default=False)
    from toolc import verbs  # here, so that --version and explain start fast

    if not out_dir.exists() and not snapshot_path.exists() and against is None:
        budget = budget_of(settings)
        if stats or budget is not None:  # what tools/list costs needs the descriptors
            listed = verbs.check_listing(
                config_dir, metadata_lint=settings.metadata_lint, targets=settings.targets,
                listing_budget=budget,
            )  # fmt: skip
            _print_costs(listed.costs if stats else None, settings.format)
            report(settings, listed, "check", config_dir, f"ok: {listed.tool_count} tool(s)")
        compiled: Any = verbs.check_config(
            config_dir, metadata_lint=settings.metadata_lint, targets=settings.targets
        )
        tools = len(compiled.tools)
        report(settings, compiled, "check", config_dir, f"ok: {tools} tool(s)")
    with BaselineUsage():
        result = verbs.build(
            config_dir, out_dir, snapshot_path, write=False, cache=not no_cache,
            against=against, notify=notify, stats=stats, listing_budget=budget_of(settings),
            docs_dir=docs_dir, metadata_lint=settings.metadata_lint, targets=settings.targets,
            project_version=project_version(settings),
        )  # fmt: skip
    _print_costs(result.costs if stats else None, settings.format)
    if show_diff and result.drift is not None and result.files is not None:
        from toolc.workspace.textdiff import unified

        # Beside a machine format, stdout is the report's alone: the diff goes to stderr.
        stream = sys.stdout if settings.format == "text" else sys.stderr
        stream.write(unified(out_dir, result.drift, result.files))
        if result.docs is not None:  # the docs' paths start with their directory's name
            docs = result.docs
            stream.write(unified(docs.root, docs.drift, docs.files, f"{docs.root.name}/"))
    tools = result.tool_count
    report(settings, result, "check", config_dir, f"ok: {tools} tool(s), output up to date")


def _print_costs(costs: Any, fmt: str) -> None:
    if costs is None:
        return
    from toolc.verbs.listing import render_costs

    # The table is what was asked for; beside a machine format it goes to stderr.
    click.echo(render_costs(costs), nl=False, err=fmt != "text")


@click.command()
@build_options
def build(
    config_dir: Path, fmt: str | None, strict: bool | None, metadata_lint: bool | None,
    out: Path | None,
    snapshot: Path | None, docs_out: Path | None, no_cache: bool, against: str | None,
    targets: tuple[str, ...], package_project: bool | None,
) -> None:  # fmt: skip
    """Generate the package for the config in DIR: models, descriptors, schemas, contracts,
    registry, and the versioned snapshot (and the reference docs, with docs_out). Writes
    nothing unless everything succeeds."""
    from toolc.cache import noop_ticket

    taken = noop_ticket.facts(config_dir)  # before the settings are read: see leave()
    settings = settings_for(
        config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot, docs_out=docs_out,
        metadata_lint=metadata_lint, targets=targets or None, package_project=package_project,
    )  # fmt: skip
    out_dir, snapshot_path = check_paths(settings, config_dir)
    docs_dir = docs_path(settings, config_dir, out_dir, snapshot_path, default=False)
    # Under --strict the warnings matter, and the targets judge what is built: nothing is
    # skipped that would report them. A report for a machine (json, sarif, ...) is always the
    # whole report: an empty SARIF file is not a valid one.
    quick = settings.format == "text"
    if quick and not settings.strict and not settings.targets and against is None:
        from toolc.cache.uptodate import lints_key

        lints = lints_key(settings.metadata_lint, settings.listing_budget)
        arguments = (
            str(config_dir), str(out_dir), str(snapshot_path),
            None if docs_dir is None else str(docs_dir), project_version(settings), lints,
        )  # fmt: skip
        said = f"toolc build {config_dir}: up to date ({shown_path(out_dir)})"
        if taken is not None and not no_cache:
            resolved = [(settings.out_dir(config_dir), out_dir)]
            resolved.append((settings.snapshot_path(config_dir), snapshot_path))
            if docs_dir is not None:
                resolved.append((settings.docs_dir(config_dir), docs_dir))
            noop_ticket.leave(taken, settings.source, resolved, arguments, said)
        from toolc.cache.uptodate import is_up_to_date

        # The fast path (toolc.entry) may have made this very check a moment ago.
        if arguments != noop_ticket.refused and is_up_to_date(
            *arguments[:3], cache=not no_cache, docs_dir=arguments[3], project=arguments[4],
            lints=lints,
        ):  # fmt: skip
            click.echo(said, err=True)
            sys.exit(EXIT_OK)
    from toolc.memory import collector_paused

    # Paused for the whole build, its imports and the cache's load included: what they
    # allocate lives until the build ends, so the cyclic collector would only rescan it. One
    # young-generation pass when it resumes replaces several full ones: about 10 ms of a
    # one-tool edit at 1,000 tools. A cold build's peak memory at 5,000 tools is the same
    # (472 MiB, measured).
    with collector_paused(), BaselineUsage():
        from toolc.cache import prefetch
        from toolc.cache.dirs import cache_path

        if not no_cache:  # read while the compiler is imported (cache.prefetch)
            prefetch.start(cache_path(config_dir, out_dir, snapshot_path, "cache"))
        from toolc import verbs

        try:
            result = verbs.build(
                config_dir, out_dir, snapshot_path, write=True, strict=settings.strict,
                cache=not no_cache, against=against, notify=notify,
                listing_budget=budget_of(settings), docs_dir=docs_dir,
                metadata_lint=settings.metadata_lint, targets=settings.targets,
                project_version=project_version(settings),
            )  # fmt: skip
        finally:
            prefetch.drop()  # a read the build did not take (it had no use for the cache)
        docs = f", {shown_path(docs_dir)}" if docs_dir is not None else ""
        written = f"wrote {shown_path(out_dir)}{docs} and {shown_path(snapshot_path)}"
        done = written if result.written else "nothing written"
        report(settings, result, "build", config_dir, done)  # exits, still paused


@click.command()
@config_dir_argument
@format_option
@strict_option
@metadata_lint_option
@out_option
@click.option(
    "--docs-out", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Where the pages go. Default: the docs_out setting, else DIR/docs.",
)  # fmt: skip
def docs(
    config_dir: Path, fmt: str | None, strict: bool | None, metadata_lint: bool | None,
    out: Path | None, docs_out: Path | None,
) -> None:  # fmt: skip
    """Write the reference docs of the config in DIR: a Markdown page per mcp_server, llms.txt
    and llms-full.txt, into --docs-out (default: the docs_out setting, else DIR/docs)."""
    settings = settings_for(
        config_dir, format=fmt, strict=strict, out=out, docs_out=docs_out,
        metadata_lint=metadata_lint,
    )  # fmt: skip
    out_dir, snapshot_path = check_paths(settings, config_dir)
    docs_dir = docs_path(settings, config_dir, out_dir, snapshot_path, default=True)
    assert docs_dir is not None
    from toolc.verbs.docs import write_docs

    result = write_docs(
        config_dir, docs_dir, Path.cwd(), notify, strict=settings.strict,
        metadata_lint=settings.metadata_lint,
    )  # fmt: skip
    done = f"wrote {shown_path(docs_dir)}" if result.written else "nothing written"
    report(settings, result, "docs", config_dir, done)
