"""What the guard compares a compile with, read by the verb before it judges: each tool as it was
(from the snapshot, or from the `--against` baseline), its old contract document (to classify
the change), and where to point when a removed tool has no line left in tools.yaml. Then the
guard itself, a pure function of a Compilation and that."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from toolc.contract import snapshot
from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.textlines import yaml_lines
from toolc.evolution import baseline
from toolc.evolution.guard import Before, check_versions
from toolc.evolution.views import contract_version

if TYPE_CHECKING:
    from toolc.pipeline import Compilation


class Previous(msgspec.Struct, frozen=True):
    snapshot_text: bytes | None  # the snapshot's bytes as they were (None: no snapshot)
    shown: str  # how the snapshot's path prints
    before: dict[str, Before]
    lines: dict[str, Span]  # each tool's line in the snapshot
    problems: list[Diagnostic]  # an unreadable snapshot, an empty baseline


def _snapshot_lines(text: str | None, shown: str) -> dict[str, Span]:
    """Each tool's line in the snapshot (one line per tool, by the file's own format)."""
    spans: dict[str, Span] = {}
    for number, line in enumerate(yaml_lines(text or ""), start=1):
        stripped = line.lstrip()
        if stripped.startswith('"'):
            name = stripped[1:].split('"', 1)[0]
            column = len(line) - len(stripped) + 1
            spans[name] = Span(shown, number, column, number, len(line) + 1)
    return spans


def _vouched(
    sources: Sequence[baseline.Baseline], name: str, fingerprint: str
) -> Mapping[str, object] | None:
    """The first contract document of `name` among `sources` that is the one the snapshot's
    fingerprint names (a document deleted, edited, or from another build is not)."""
    for source in sources:
        document = source.contract(name)
        try:
            if (
                document is not None
                and snapshot.contract_fingerprint(dict(document)) == fingerprint
            ):
                return document
        except (KeyError, TypeError, AttributeError, ValueError):  # not a contract document
            continue
    return None


def _documented(source: baseline.Baseline, name: str, unrecorded: bool = False) -> Before | None:
    """The tool as `source`'s contract document says it was (None: no document there, or
    one without a version)."""
    was = source.contract(name)
    version = contract_version(was) if was else None
    if was is None or version is None:
        return None
    fingerprint = snapshot.contract_fingerprint(dict(was))
    server = was.get("mcp_server")
    return Before(
        version,
        fingerprint,
        partial(source.contract, name),
        unrecorded,
        server if isinstance(server, str) else None,
    )


def _unrecorded(sources: Sequence[baseline.Baseline], recorded: set[str]) -> dict[str, Before]:
    """The tools whose contract document the last build's output holds (or an interrupted
    build's) and the snapshot does not record, each as that document says it was."""
    found: dict[str, Before] = {}
    for source in sources:
        for name in source.tools():
            if name in recorded or name in found:
                continue
            try:
                was = _documented(source, name, unrecorded=True)
            except (KeyError, TypeError, AttributeError, ValueError):  # not a contract
                continue
            if was is not None:
                found[name] = was
    return found


def _sources(base: baseline.Baseline, earlier: Sequence[Path]) -> list[baseline.Baseline]:
    """Where the last build's contract documents may be: its output, then the old outputs
    interrupted builds left beside it (newest first)."""
    return [base, *(baseline.from_output(p, "an interrupted build") for p in earlier)]


def read_previous(
    snapshot_path: Path,
    shown: str,
    against: str | None,
    config_dir: Path,
    out_dir: Path,
    compile_texts: baseline.CompileTexts,
    earlier: Sequence[Path] = (),
) -> Previous:
    """`compile_texts`: how a baseline config given as texts is compiled (the verbs' compile).
    `earlier`: old outputs an interrupted build left (newest first), where the last build's
    contract documents are while the output is not yet recovered."""
    problems: list[Diagnostic] = []
    old_text = snapshot_path.read_bytes() if snapshot_path.is_file() else None
    text: str | None = None
    old: dict[str, snapshot.Entry] = {}
    if old_text is not None:
        try:
            text = old_text.decode("utf-8")
            old = snapshot.parse(text)
        except (snapshot.SnapshotError, UnicodeDecodeError) as exc:
            where = (
                Span.point(shown, exc.line, exc.column)
                if isinstance(exc, snapshot.SnapshotError)
                else Span.whole_file(shown)
            )
            problems.append(
                diag(
                    "snapshot-invalid",
                    where,
                    str(exc),
                    "restore it from version control, or delete it: the next build writes a "
                    "new one, judging each tool against the last build's output if there is one",
                )
            )
    base = baseline.resolve(against, config_dir, out_dir, compile_texts)
    if base.empty_because is not None:
        problems.append(
            diag(
                "baseline-empty",
                Span.whole_file(shown),
                f"the baseline {base.label} is empty: {base.empty_because}",
                "check --against: a config moved or renamed since then is not found there",
            )
        )
    before: dict[str, Before] = {}
    if against is None:
        sources = _sources(base, earlier)
        for name, entry in old.items():
            document = partial(_vouched, sources, name, entry.contract)
            before[name] = Before(entry.version, entry.contract, document, server=entry.server)
        # A tool the last build published but the snapshot has no line for (a line lost
        # resolving a merge conflict, the file deleted): its contract document is the only
        # record left, and `diff` reads it too. Without it a break passed as a new tool.
        before.update(_unrecorded(sources, set(old)))
    else:
        for name in base.tools():
            documented = _documented(base, name)
            if documented is not None:
                before[name] = documented
    return Previous(old_text, shown, before, _snapshot_lines(text, shown), problems)


def recorded(snapshot_path: Path) -> dict[str, snapshot.Entry]:
    """The snapshot's lines, for `diff` and `bump`; an unreadable snapshot is the build's
    to report: none here."""
    try:
        return snapshot.parse(snapshot_path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, snapshot.SnapshotError):
        return {}


def unseen_tools(
    entries: Mapping[str, snapshot.Entry],
    base: baseline.Baseline,
    earlier: Sequence[Path] = (),
    current: Mapping[str, str] | None = None,
) -> tuple[list[str], list[str]]:
    """The tools the snapshot records (`entries`) whose contract document the baseline (the
    last build's output, or an old output an interrupted build left) lacks, or holds in
    another form than the snapshot's: whether they changed, and how, cannot be told against
    it. Split in two: those whose contract fingerprint now (`current`) differs from the
    snapshot's, and those whose fingerprint is the same, which are unchanged whatever the
    output holds (but for their server, which the snapshot records too)."""
    sources = _sources(base, earlier)
    unseen: list[str] = []
    unchanged: list[str] = []
    for name, entry in entries.items():
        if _vouched(sources, name, entry.contract) is None:
            same = current is not None and current.get(name) == entry.contract
            (unchanged if same else unseen).append(name)
    return unseen, unchanged


def guard(compilation: Compilation, previous: Previous) -> list[Diagnostic]:
    """The version guard's diagnostics for a compile that produced a package."""
    assert compilation.package is not None and compilation.policy is not None
    files = compilation.package.files

    def new_document(name: str) -> Mapping[str, object] | None:
        data = files.get(f"contracts/{name}.json")
        return json.loads(data) if data is not None else None

    def removed(name: str) -> Span:
        return previous.lines.get(name, Span.whole_file(previous.shown))

    spans = {name: tool.version for name, tool in compilation.tools.items()}
    found = check_versions(
        spans,
        previous.before,
        compilation.package.snapshot,
        new_document,
        compilation.policy,
        removed,
    )
    return [*previous.problems, *found]
