"""The guard's inputs, gathered: what each tool was (from the snapshot, or from the
`--against` baseline), its old contract document (to classify the change), its new one, and
where to point when a removed tool has no line left in tools.yaml."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from toolc.contract import snapshot
from toolc.contract.snapshot import Entry
from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.textlines import yaml_lines
from toolc.evolution import baseline
from toolc.evolution.guard import Before, Policy, check_versions


def _snapshot_line(text: str | None, shown: str) -> dict[str, Span]:
    """Each tool's line in the snapshot (one line per tool, by the file's own format)."""
    spans: dict[str, Span] = {}
    for number, line in enumerate(yaml_lines(text or ""), start=1):
        stripped = line.lstrip()
        if stripped.startswith('"'):
            name = stripped[1:].split('"', 1)[0]
            column = len(line) - len(stripped) + 1
            spans[name] = Span(shown, number, column, number, len(line) + 1)
    return spans


def guard(
    *,
    spans: Mapping[str, Span],
    policy: Policy,
    entries: Mapping[str, Entry],
    files: Mapping[str, bytes],
    snapshot_path: Path,
    snapshot_shown: str,
    out_dir: Path,
    config_dir: Path,
    against: str | None,
) -> tuple[list[Diagnostic], bytes | None]:
    """The guard's diagnostics, and the snapshot's bytes as they were (None: no snapshot)."""
    diagnostics: list[Diagnostic] = []
    old_text = snapshot_path.read_bytes() if snapshot_path.is_file() else None
    text: str | None = None
    old: dict[str, Entry] = {}
    if old_text is not None:
        try:
            text = old_text.decode("utf-8")
            old = snapshot.parse(text)
        except (snapshot.SnapshotError, UnicodeDecodeError) as exc:
            diagnostics.append(diag("snapshot-invalid", Span.whole_file(snapshot_shown), str(exc)))
    # Imported here: compiling a baseline needs the whole pipeline.
    from toolc.pipeline import compile_texts

    base = baseline.resolve(against, config_dir, out_dir, compile_texts)
    if base.empty_because is not None:
        diagnostics.append(
            diag(
                "baseline-empty",
                Span.whole_file(snapshot_shown),
                f"the baseline {base.label} is empty: {base.empty_because}",
                "check --against: a config moved or renamed since then is not found there",
            )
        )
    before: dict[str, Before] = {}
    if against is None:
        for name, entry in old.items():
            before[name] = Before(entry.version, entry.contract, partial(base.contract, name))
    else:
        for name in base.tools():
            was = base.contract(name)
            version = baseline.contract_version(was) if was else None
            if was is None or version is None:
                continue
            fingerprint = snapshot.contract_fingerprint(dict(was))
            before[name] = Before(version, fingerprint, partial(base.contract, name))

    def new_document(name: str) -> Mapping[str, object] | None:
        data = files.get(f"contracts/{name}.json")
        return json.loads(data) if data is not None else None

    lines = _snapshot_line(text, snapshot_shown)

    def removed(name: str) -> Span:
        return lines.get(name, Span.whole_file(snapshot_shown))

    diagnostics += check_versions(spans, before, entries, new_document, policy, removed)
    return diagnostics, old_text
