"""What the commands share: the options, reading the settings, the paths a build may write,
and printing the diagnostics with the exit status they call for."""

from __future__ import annotations

import keyword
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from toolc.cli.settings import Settings, SettingsError, load_settings
from toolc.diagnostics.codes import TARGETS
from toolc.diagnostics.render import FORMATS, RENDERERS, render_text, use_color

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
F = TypeVar("F", bound=Any)

config_dir_argument = click.argument(
    "config_dir",
    default=".",
    metavar="[DIR]",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)


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
metadata_lint_option = click.option(
    "--metadata-lint/--no-metadata-lint", default=None,
    help="Also report the metadata lint: tools without a title, arguments and enums without "
    "a description, descriptions shorter than a sentence (default: the metadata_lint setting).",
)  # fmt: skip
docs_out_option = click.option(
    "--docs-out", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The reference docs directory (a page per mcp_server, llms.txt, llms-full.txt), "
    "written with the package. Default: the docs_out setting; none.",
)  # fmt: skip
snapshot_option = click.option(
    "--snapshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The versioned snapshot file. Default: DIR/mcp-tools.json.",
)  # fmt: skip


def settings_for(config_dir: Path, **flags: object) -> Settings:
    try:
        return load_settings(config_dir).override(**flags)
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from exc


def resolved(path: Path, what: str) -> Path:
    """`path` resolved; a symbolic link in a loop on the way is a usage error, which Python
    3.11 reports as a RuntimeError."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:
        raise click.UsageError(
            f"the {what} {path} cannot be reached: a symbolic link on its way leads in a loop "
            f"({exc}); point the link at a folder, or choose another path"
        ) from exc


def check_paths(settings: Settings, config_dir: Path) -> tuple[Path, Path]:
    """Where the build writes, resolved, or a usage error naming where the setting came from."""
    out_dir = resolved(settings.out_dir(config_dir), "output directory")
    snapshot_path = resolved(settings.snapshot_path(config_dir), "snapshot")
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
    if out_dir.is_relative_to(snapshot_path) or snapshot_path.is_dir():
        # A folder (`snapshot = "."`, or one holding the output) cannot be written as a file:
        # the build failed late, naming the output as the folder it could not write.
        origin = settings.origin("snapshot")
        raise click.UsageError(
            f"{f'{origin}: ' if origin else ''}the snapshot {snapshot_path} is a folder (or "
            "would hold the output directory); the snapshot is one file: name a file, like "
            "mcp-tools.json beside tools.yaml (the default)"
        )
    return out_dir, snapshot_path


def docs_path(
    settings: Settings, config_dir: Path, out_dir: Path, snapshot_path: Path, *, default: bool
) -> Path | None:
    """Where the reference docs go (None: not written; `default`: `toolc docs`, which always
    writes them), or a usage error: the directory is replaced as one, like the output."""
    if settings.docs_out is None and not default:
        return None
    docs_dir = resolved(settings.docs_dir(config_dir), "docs directory")
    origin = settings.origin("docs_out")
    said = f"{origin}: " if origin else ""
    held = [
        (config_dir.resolve(), "the config directory"),
        (Path.cwd().resolve(), "the working directory"),
        (Path.home().resolve(), "your home directory"),
        (snapshot_path, "the snapshot"),
    ]
    for inside, what in held:
        if inside.is_relative_to(docs_dir):
            raise click.UsageError(
                f"{said}the docs directory {docs_dir} would hold {what} ({inside}), and each "
                "build replaces it as one; choose a directory of its own, like docs/tools"
            )
    if docs_dir.is_relative_to(snapshot_path):
        raise click.UsageError(
            f"{said}the docs directory {docs_dir} would be inside the snapshot's path "
            f"{snapshot_path}, a file; choose a docs directory beside it, like docs/tools"
        )
    if docs_dir.is_relative_to(out_dir) or out_dir.is_relative_to(docs_dir):
        raise click.UsageError(
            f"{said}the docs directory {docs_dir} and the output directory {out_dir} must not "
            "hold one another; choose a docs directory beside the package"
        )
    return docs_dir


def served_by(servers: Sequence[str], wanted: str) -> str:
    """`wanted` if some enabled tool of the config runs on it (`servers`, sorted), else a
    usage error listing them (serve, test, scaffold, verify)."""
    if wanted not in servers:
        raise click.UsageError(
            f"no enabled tool runs on mcp_server {wanted!r}; the config has: "
            + (", ".join(servers) or "none")
        )
    return wanted


def env_token(variable: str) -> str:
    """The bearer token `--auth-token-env VARIABLE` names, or a usage error."""
    token = os.environ.get(variable, "")
    if not token:
        raise click.UsageError(f"--auth-token-env: {variable} holds no token")
    return token


def notify(message: str) -> None:
    click.echo(f"toolc: {message}", err=True)


def report(settings: Settings, result: Any, command: str, config_dir: Path, done: str) -> None:
    """Print the diagnostics and a summary, then exit with the status they call for."""
    if settings.format == "text":
        output = render_text(result.diagnostics, result.sources, color=use_color(sys.stderr))
    else:
        output = RENDERERS[settings.format](result.diagnostics, result.sources, settings.strict)
    errors = sum(d.is_error for d in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    failed = errors > 0 or (settings.strict and warnings > 0)
    if settings.format == "text":
        sys.stderr.write(output)
        problems = f"{errors} error(s), {warnings} warning(s)"
        if errors:
            summary = problems
        elif failed:  # not "ok": --strict makes the warnings fail the command
            summary = f"{problems}, failed: --strict counts warnings as errors"
        else:
            summary = f"{done}, {problems}" if warnings else f"{done}, no problems"
        click.echo(f"toolc {command} {config_dir}: {summary}", err=True)
    else:
        sys.stdout.write(output)
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)


against_option = click.option(
    "--against", metavar="REF", default=None,
    help="Compare with this baseline instead of the last build: a git revision, a config "
    "directory, or a build's output directory.",
)  # fmt: skip
target_option = click.option(
    "--target", "targets", multiple=True, type=click.Choice(TARGETS), metavar="NAME",
    help=f"Check the published descriptors against a provider's rules ({', '.join(TARGETS)}); "
    "repeatable; its findings are errors. Default: the targets setting.",
)  # fmt: skip
pyproject_option = click.option(
    "--pyproject/--no-pyproject", "package_project", default=None,
    help="Also write a pyproject.toml into the package, so it can be built and published "
    "(default: the package_project setting; its version: package_version).",
)  # fmt: skip
no_cache_option = click.option(
    "--no-cache",
    is_flag=True,
    help="Read the whole config: neither use nor update the build cache (see TOOLC_CACHE_DIR).",
)


def build_options(command: F) -> F:
    """The options `check` and `build` share (one list, so the two cannot drift apart)."""
    for option in reversed(
        (config_dir_argument, format_option, strict_option, metadata_lint_option, out_option,
         snapshot_option, docs_out_option, no_cache_option, against_option, target_option,
         pyproject_option)
    ):  # fmt: skip
        command = option(command)
    return command


class BaselineUsage:
    """A baseline (--against) that cannot be read is a usage error, not a finding."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        from toolc.evolution.baseline import BaselineError

        if isinstance(exc, BaselineError):
            raise click.UsageError(str(exc)) from exc
