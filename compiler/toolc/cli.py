"""The command line: options in, exit status out. Exit 0 clean (warnings allowed), 1 errors (or
warnings under --strict), 2 usage errors, 70 an internal error of toolc itself."""

from __future__ import annotations

import json
import keyword
import os
import sys
import traceback
from pathlib import Path
from typing import Any, TypeVar

import click

from toolc import __version__
from toolc.diagnostics.render import FORMATS, RENDERERS, render_text, use_color
from toolc.paths import shown_path
from toolc.resources import load_schema, schema_path
from toolc.settings import Settings, SettingsError, load_settings

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
F = TypeVar("F", bound=Any)

config_dir_argument = click.argument(
    "config_dir",
    default=".",
    metavar="[DIR]",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="toolc", message="%(prog)s %(version)s")
def cli() -> None:
    """toolc: a compiler for MCP tool declarations (tools.yaml, tool_policies.yaml)."""


format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default=None,
    help="How diagnostics are printed (default: text on stderr).",
)  # fmt: skip
strict_option = click.option("--strict/--no-strict", default=None, help="Treat warnings as errors.")
out_option = click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The generated package directory (its name is the package name). "
    "Default: DIR/generated/mcp_tools.",
)  # fmt: skip
snapshot_option = click.option(
    "--snapshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The versioned snapshot file. Default: DIR/mcp-tools.json.",
)  # fmt: skip


def _settings(config_dir: Path, **flags: object) -> Settings:
    try:
        return load_settings(config_dir).override(**flags)
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from exc


def _check_paths(settings: Settings, config_dir: Path) -> tuple[Path, Path]:
    """Where the build writes, resolved, or a usage error naming where the setting came from."""
    out_dir = settings.out_dir(config_dir).resolve()
    snapshot_path = settings.snapshot_path(config_dir).resolve()
    origin = settings.origin("out")
    said = f"{origin}: " if origin else ""
    name = out_dir.name
    if not name.isidentifier() or keyword.iskeyword(name):
        raise click.UsageError(
            f"{said}the output directory's name is the package name, and {name!r} cannot be "
            "imported in Python; choose a name like `mcp_tools` with --out"
        )
    # Each build replaces the output directory whole: it must never hold the config, the
    # working directory or a home.
    held = [
        (config_dir.resolve(), "the config directory"),
        (Path.cwd().resolve(), "the working directory"),
        (Path.home().resolve(), "your home directory"),
    ]
    for inside, what in held:
        if inside.is_relative_to(out_dir):
            raise click.UsageError(
                f"{said}the output directory {out_dir} would hold {what} ({inside}), and each "
                "build replaces the output directory whole; choose a directory of its own, "
                "like generated/mcp_tools beside tools.yaml (the default)"
            )
    if snapshot_path.is_relative_to(out_dir):
        raise click.UsageError(
            "the snapshot cannot live inside the output directory, which each build replaces; "
            "keep it beside tools.yaml (the default) or choose another --snapshot"
        )
    return out_dir, snapshot_path


def _build(config_dir: Path, out_dir: Path, snapshot_path: Path, **options: Any) -> Any:
    """`build_project`, a baseline that cannot be read being a usage error."""
    from toolc import pipeline
    from toolc.baseline import BaselineError

    try:
        return pipeline.build_project(config_dir, out_dir, snapshot_path, **options)
    except BaselineError as exc:
        raise click.UsageError(str(exc)) from exc


def _notify(message: str) -> None:
    click.echo(f"toolc: {message}", err=True)


def _report(settings: Settings, result: Any, command: str, config_dir: Path, done: str) -> None:
    """Print the diagnostics and a summary, then exit with the status they call for."""
    if settings.format == "text":
        output = render_text(result.diagnostics, result.sources, color=use_color(sys.stderr))
    else:
        output = RENDERERS[settings.format](result.diagnostics, result.sources)
    errors = sum(d.is_error for d in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    if settings.format == "text":
        sys.stderr.write(output)
        problems = f"{errors} error(s), {warnings} warning(s)"
        summary = (
            problems if errors else (f"{done}, {problems}" if warnings else f"{done}, no problems")
        )
        click.echo(f"toolc {command} {config_dir}: {summary}", err=True)
    else:
        sys.stdout.write(output)
    failed = errors > 0 or (settings.strict and warnings > 0)
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)


against_option = click.option(
    "--against", metavar="REF", default=None,
    help="Compare with this baseline instead of the last build: a git revision, a config "
    "directory, or a build's output directory.",
)  # fmt: skip
no_cache_option = click.option(
    "--no-cache",
    is_flag=True,
    help="Read the whole config: neither use nor update the build cache (see TOOLC_CACHE_DIR).",
)


def build_options(command: F) -> F:
    """The options `check` and `build` share (one list, so the two cannot drift apart)."""
    for option in reversed(
        (config_dir_argument, format_option, strict_option, out_option, snapshot_option,
         no_cache_option, against_option)
    ):  # fmt: skip
        command = option(command)
    return command


@cli.command()
@build_options
@click.option("--diff", "show_diff", is_flag=True, help="Print unified diffs of changed files.")
def check(
    config_dir: Path, fmt: str | None, strict: bool | None, out: Path | None,
    snapshot: Path | None, show_diff: bool, no_cache: bool, against: str | None,
) -> None:  # fmt: skip
    """Validate the config in DIR, and compare the generated files with what a build would write.

    Until the first build (no output directory and no snapshot yet) only the config is checked.
    """
    settings = _settings(config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot)
    out_dir, snapshot_path = _check_paths(settings, config_dir)
    from toolc import pipeline  # here, so that --version and explain start fast

    if not out_dir.exists() and not snapshot_path.exists() and against is None:
        result: Any = pipeline.check_project(config_dir)
        tools = len(result.project.tools) if result.project else 0
        _report(settings, result, "check", config_dir, f"ok: {tools} tool(s)")
    result = _build(
        config_dir, out_dir, snapshot_path, write=False, cache=not no_cache, against=against,
        notify=_notify,
    )  # fmt: skip
    if show_diff and result.drift is not None and result.files is not None:
        from toolc.textdiff import unified

        sys.stdout.write(unified(out_dir, result.drift, result.files))
    tools = result.tool_count
    _report(settings, result, "check", config_dir, f"ok: {tools} tool(s), output up to date")


@cli.command()
@build_options
def build(
    config_dir: Path, fmt: str | None, strict: bool | None, out: Path | None,
    snapshot: Path | None, no_cache: bool, against: str | None,
) -> None:  # fmt: skip
    """Generate the package for the config in DIR: models, descriptors, schemas, contracts,
    registry, and the versioned snapshot. Writes nothing unless everything succeeds."""
    settings = _settings(config_dir, format=fmt, strict=strict, out=out, snapshot=snapshot)
    out_dir, snapshot_path = _check_paths(settings, config_dir)
    from toolc.uptodate import is_up_to_date

    # Under --strict the warnings matter, so nothing is skipped that would report them.
    if (
        not settings.strict
        and against is None
        and is_up_to_date(config_dir, out_dir, snapshot_path, cache=not no_cache)
    ):
        click.echo(f"toolc build {config_dir}: up to date ({shown_path(out_dir)})", err=True)
        sys.exit(EXIT_OK)
    result = _build(
        config_dir, out_dir, snapshot_path, write=True, strict=settings.strict,
        cache=not no_cache, against=against, notify=_notify,
    )  # fmt: skip
    written = f"wrote {shown_path(out_dir)} and {shown_path(snapshot_path)}"
    done = written if result.written else "nothing written"
    _report(settings, result, "build", config_dir, done)


@cli.command()
@click.argument("code", required=False)
@click.option(
    "--list-rules", is_flag=True,
    help="List every diagnostic code and evolution rule instead: ID, kind, severity or level, "
    "summary.",
)  # fmt: skip
@click.option(
    "--kind", type=click.Choice(["diagnostic", "evolution"]), default=None,
    help="With --list-rules: only the diagnostic codes, or only the evolution rules.",
)  # fmt: skip
def explain(code: str | None, list_rules: bool, kind: str | None) -> None:
    """Explain a diagnostic code or an evolution rule, e.g. `toolc explain yaml-duplicate-key`,
    `toolc explain arg-removed`."""
    from toolc.diagnostics import catalogue

    if list_rules == (code is not None):
        raise click.UsageError("give a CODE to explain, or --list-rules")
    if kind is not None and not list_rules:
        raise click.UsageError("--kind goes with --list-rules")
    if list_rules:
        click.echo(catalogue.listing(kind), nl=False)
        return
    try:
        click.echo(catalogue.explain(str(code)))
    except catalogue.UnknownId as exc:
        raise click.UsageError(str(exc)) from exc


@cli.command()
@click.option("--policies", is_flag=True, help="The schema of tool_policies.yaml instead.")
@click.option("--path", "show_path", is_flag=True, help="Print where the installed file is.")
def schema(policies: bool, show_path: bool) -> None:
    """Print the JSON Schema of tools.yaml (or of tool_policies.yaml)."""
    kind = "policies" if policies else "tools"
    if show_path:
        click.echo(str(schema_path(kind)))
    else:
        click.echo(json.dumps(load_schema(kind), indent=2, ensure_ascii=False))


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; never raises."""
    try:
        cli.main(args=argv, prog_name="toolc")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in toolc: say so, without a traceback unless asked
        if os.environ.get("TOOLC_DEBUG"):
            traceback.print_exc()
        sys.stderr.write(
            f"toolc: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in toolc, not in your config. Set TOOLC_DEBUG=1 for the traceback.\n"
        )
        return EXIT_INTERNAL
    return EXIT_OK


def main() -> None:
    status = run()
    written = sys.modules.get("toolc.workspace")
    if written is not None:  # an old output still being deleted in the background
        written.finish_cleanup()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip tearing down the compiled project object by object: nothing is left to write, and at
    # 5,000 tools the interpreter's orderly shutdown took about a second (measured).
    os._exit(status)


# Registered on `cli` by importing them (they use this module's options and helpers).
from toolc import commands_evolution, commands_serving  # noqa: E402, F401
