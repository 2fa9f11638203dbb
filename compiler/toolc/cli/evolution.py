"""The commands of contract evolution: `toolc diff` (what changed per tool, how much it breaks,
the bump it needs) and `toolc bump` (the minimum versions, written into tools.yaml with
`--write` by editing the version values in place)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from toolc.cli.common import (
    EXIT_ERRORS,
    EXIT_OK,
    BaselineUsage,
    against_option,
    config_dir_argument,
    format_option,
    out_option,
    report,
    settings_for,
)


def _changes(config_dir: Path, settings: Any, against: str | None) -> tuple[Any, list[Any], str]:
    """The current config compiled in memory, compared with the baseline."""
    from toolc import verbs

    with BaselineUsage():
        compiled, changes, label = verbs.changes(
            config_dir,
            settings.out_dir(config_dir),
            against,
            settings.snapshot_path(config_dir),
        )
    if compiled.package is None:
        report(settings, compiled, "diff", config_dir, "")
    return compiled, changes, label


@click.command()
@config_dir_argument
@format_option
@out_option
@against_option
@click.option("--list-rules", is_flag=True, help="Print the rules and their levels, then exit.")
def diff(
    config_dir: Path, fmt: str | None, out: Path | None, against: str | None, list_rules: bool
) -> None:
    """Compare each tool's contract with a baseline (the last build, or --against REF): what
    changed, how much it breaks, and the version bump it needs. Exit 1 when a tool's version
    is below that bump (the gate `toolc build` applies)."""
    if list_rules:
        from toolc.diagnostics.catalogue import listing

        click.echo(listing("evolution"), nl=False)
        sys.exit(EXIT_OK)
    settings = settings_for(config_dir, format=fmt, out=out)
    from toolc.evolution.render import RENDERERS

    _, changes, label = _changes(config_dir, settings, against)
    sys.stdout.write(RENDERERS[settings.format](changes, label))
    sys.exit(EXIT_OK if all(c.ok for c in changes) else EXIT_ERRORS)


@click.command()
@config_dir_argument
@out_option
@against_option
@click.option("--write", is_flag=True, help="Edit the versions in tools.yaml in place.")
def bump(config_dir: Path, out: Path | None, against: str | None, write: bool) -> None:
    """Print each changed tool's minimum version; with --write, set the versions that are
    below it in tools.yaml (only those values change: comments, quoting and layout stay)."""
    settings = settings_for(config_dir, out=out)
    compiled, changes, label = _changes(config_dir, settings, against)
    low = [c for c in changes if c.new_version is not None and c.minimum and not c.ok]
    for c in changes:
        if c.new_version is None and not c.ok:  # no version can fix a removal
            click.echo(f"{c.tool}: removed without an accepted break (see `accepted_breaks:`)")
    semver = compiled.policy is not None and compiled.policy.bump == "semver"
    for c in changes:
        if c.new_version is None or c.minimum is None:
            continue
        # The rules that set the level, as `toolc build` names them (`toolc diff` lists all).
        why = f"{c.level}: {', '.join(c.forcing)}" if semver else "bump_policy: any"
        state = f"→ {c.minimum}" if not c.ok else "ok"
        click.echo(f"{c.tool}: {c.new_version} {state} ({why})")
    removals = any(c.new_version is None and not c.ok for c in changes)
    if not low:
        if not removals:
            click.echo(f"toolc bump {config_dir}: every version meets its change ({label})",
                       err=True)  # fmt: skip
        sys.exit(EXIT_ERRORS if removals else EXIT_OK)
    if not write:
        click.echo(f"toolc bump {config_dir}: {len(low)} version(s) to raise; --write sets them",
                   err=True)  # fmt: skip
        sys.exit(EXIT_ERRORS)
    from toolc.evolution.bump import set_versions

    path = config_dir / "tools.yaml"
    edited = set_versions(path, low, {c.tool: compiled.tools[c.tool].version_value for c in low})
    if edited.shared:
        click.echo(
            f"toolc bump: editing {path} in place would change more than the versions "
            "(anchors or aliases share them); set them by hand: "
            + ", ".join(f"{c.tool} {c.minimum}" for c in low),
            err=True,
        )
        sys.exit(EXIT_ERRORS)
    for c in edited.skipped:
        click.echo(
            f"toolc bump: {c.tool}'s version is not written as one plain value; set it to "
            f"{c.minimum} by hand",
            err=True,
        )
    done = len(low) - len(edited.skipped)
    click.echo(f"toolc bump {config_dir}: set {done} version(s) in {path}", err=True)
    sys.exit(EXIT_ERRORS if edited.skipped else EXIT_OK)
