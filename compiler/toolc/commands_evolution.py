"""The commands of contract evolution: `toolc diff` (what changed per tool, how much it breaks,
the bump it needs) and `toolc bump` (the minimum versions, written into tools.yaml with
`--write` by editing the version values in place)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from toolc.cli import (
    EXIT_ERRORS,
    EXIT_OK,
    _report,
    _settings,
    against_option,
    cli,
    config_dir_argument,
    format_option,
    out_option,
)
from toolc.paths import shown_path


def _changes(config_dir: Path, settings: Any, against: str | None) -> tuple[Any, list[Any], str]:
    """The current config compiled in memory, compared with the baseline."""
    from toolc import pipeline
    from toolc.baseline import BaselineError, resolve
    from toolc.changes import tool_changes

    checked, files = pipeline.generate(config_dir)
    if not files:
        _report(settings, checked, "diff", config_dir, "")
    try:
        base = resolve(against, config_dir, settings.out_dir(config_dir), pipeline.compile_texts)
        old = {n: c for n in base.tools() if (c := base.contract(n)) is not None}
    except BaselineError as exc:
        raise click.UsageError(str(exc)) from exc
    new = {
        rel.removeprefix("contracts/").removesuffix(".json"): json.loads(data)
        for rel, data in files.items()
        if rel.startswith("contracts/")
    }
    shown = shown_path(config_dir / pipeline.TOOLS_FILE, Path.cwd())
    assert checked.project is not None  # files were made from it
    label = base.label + (f" ({base.empty_because})" if base.empty_because else "")
    return checked, tool_changes(old, new, checked.project, shown), label


@cli.command()
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
    settings = _settings(config_dir, format=fmt, out=out)
    from toolc.changes_render import RENDERERS

    _, changes, label = _changes(config_dir, settings, against)
    sys.stdout.write(RENDERERS[settings.format](changes, label))
    sys.exit(EXIT_OK if all(c.ok for c in changes) else EXIT_ERRORS)


def _offset(text: str, line: int, column: int) -> int:
    """A 1-based line and column (characters) as an offset into `text`."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def _set_version(text: str, span: Any, old: str, new: str) -> str | None:
    """`text` with the version scalar at `span` changed from `old` to `new`: only the version's
    characters change (an anchor, the quotes, a block scalar's indicator stay). None when the
    scalar does not spell `old` once (an alias, say): that one is left to the user."""
    start, end = (
        _offset(text, span.line, span.column),
        _offset(text, span.end_line, span.end_column),
    )
    value = text[start:end]
    if value.count(old) != 1:
        return None
    at = start + value.index(old)
    return text[:at] + new + text[at + len(old) :]


def _versions_in(text: str) -> dict[str, Any] | None:
    from toolc.source.yaml_loader import load_yaml

    value, _, problems = load_yaml(text, "tools.yaml")
    if problems or not isinstance(value, dict) or not isinstance(value.get("tools"), dict):
        return None
    return {n: t.get("version") for n, t in value["tools"].items() if isinstance(t, dict)}


@cli.command()
@config_dir_argument
@out_option
@against_option
@click.option("--write", is_flag=True, help="Edit the versions in tools.yaml in place.")
def bump(config_dir: Path, out: Path | None, against: str | None, write: bool) -> None:
    """Print each changed tool's minimum version; with --write, set the versions that are
    below it in tools.yaml (only those values change: comments, quoting and layout stay)."""
    settings = _settings(config_dir, out=out)
    checked, changes, label = _changes(config_dir, settings, against)
    low = [c for c in changes if c.new_version is not None and c.minimum and not c.ok]
    for c in changes:
        if c.new_version is None and not c.ok:  # no version can fix a removal
            click.echo(f"{c.tool}: removed without an accepted break (see `accepted_breaks:`)")
    semver = checked.project is not None and checked.project.bump_policy == "semver"
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
    from toolc import workspace

    assert checked.project is not None
    path = config_dir / "tools.yaml"
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    before = _versions_in(text)
    # From the end of the file backwards, so earlier offsets stay valid.
    spans = {c.tool: checked.project.spans.tool(("tools", c.tool, "version")) for c in low}
    skipped = []
    for c in sorted(low, key=lambda c: (spans[c.tool].line, spans[c.tool].column), reverse=True):
        edited = _set_version(text, spans[c.tool], c.new_version, c.minimum)
        if edited is None:
            skipped.append(c)
        else:
            text = edited
    # Read back what was written: every edited version, and nothing else, must have changed
    # (an anchor another tool aliases would carry the edit over to it).
    expected = dict(before or {})
    expected.update({c.tool: c.minimum for c in low if c not in skipped})
    if before is None or _versions_in(text) != expected:
        click.echo(
            f"toolc bump: editing {path} in place would change more than the versions "
            "(anchors or aliases share them); set them by hand: "
            + ", ".join(f"{c.tool} {c.minimum}" for c in low),
            err=True,
        )
        sys.exit(EXIT_ERRORS)
    if len(skipped) < len(low):
        workspace.replace_file(path, (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    for c in skipped:
        click.echo(
            f"toolc bump: {c.tool}'s version is not written as one plain value; set it to "
            f"{c.minimum} by hand",
            err=True,
        )
    done = len(low) - len(skipped)
    click.echo(f"toolc bump {config_dir}: set {done} version(s) in {path}", err=True)
    sys.exit(EXIT_ERRORS if skipped else EXIT_OK)
