"""The build cache: what each tool's last analysis and emission produced, keyed by the text of
its entries, so an edit to one tool re-reads, re-checks and re-emits that tool (and the tools a
pre-validation ties to it) instead of the whole config.

Correctness rests on three facts, each checked before the cache is used (else the build reads
everything, as it does without a cache): the frame (every line outside the tool and policy
entries, `types:` included) is unchanged; the entries are the same names in the same order;
and what one tool's analysis can change for others (the types it reaches, the validator it
names) did not change. A tool's diagnostics are kept with their lines relative to its entry,
so they move with it when an edit above adds or removes lines.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import msgspec
from msgspec import field
from msgspec.structs import replace

from toolc.cache import prefetch
from toolc.cache.codec import CacheRefused, CacheStale, Codec, Frames, Reuse
from toolc.cache.dirs import cache_path
from toolc.cache.key import cache_key
from toolc.cache.layout import Layout, PieceId
from toolc.cache.uptodate import generator_fingerprint
from toolc.diagnostics import Diagnostic, Note, Span
from toolc.emit.package import ToolOutput
from toolc.emit.python import module_file
from toolc.model import Project
from toolc.model.facts import facts_of
from toolc.pipeline import Declared
from toolc.workspace import Signature

FileKind = str  # "tools" or "policies"
# A span with its lines relative to the piece that holds it: stays valid when the piece moves.
RelSpan = tuple[FileKind, PieceId, int, int, int, int]


class ToolRecord(msgspec.Struct, frozen=True):
    tool_piece: bytes
    policy_piece: bytes | None
    validator: str | None  # the tool its policy names as pre-validator
    refs: frozenset[str]  # the shared types it references
    targets: tuple[str, ...]  # the tools it pre-validates, as emitted
    output: ToolOutput  # its `item` is None: it lies in BuildCache.tools_json
    declared: tuple[RelSpan, RelSpan, RelSpan]  # its key, its version's key and value


class BuildCache(msgspec.Struct, frozen=True):
    generator: bytes
    tools_frame: list[bytes]
    policies_frame: list[bytes] | None  # None: no tool_policies.yaml
    tool_order: list[str]
    policy_order: list[str]
    records: dict[str, ToolRecord]
    diagnostics: list[tuple[Diagnostic, RelSpan, tuple[RelSpan, ...]]]
    tools_json: bytes = b""  # the last tools.json, which holds every served tool's item
    # Where each served tool's item lies in tools_json: apart from the records, so that a
    # record an edit elsewhere did not change (its item only moved) stays the same record.
    item_spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    # The output's files as the build left them: unchanged ones are linked unread next time.
    # Last in the file: known only once the output is committed, while the rest of the file
    # is written during the commit (store.Saving).
    stats: dict[str, Signature] = field(default_factory=dict)

    def output(self, name: str) -> ToolOutput:
        """A tool's output as the last build made it, its tools.json item restored."""
        record = self.records[name]
        span = self.item_spans.get(name)
        if span is None:
            return record.output
        at, length = span
        return replace(record.output, item=self.tools_json[at : at + length])


def cache_file(config_dir: Path, out_dir: Path, snapshot_path: Path) -> Path | None:
    """In the user's cache directory (cachedir.py), never in the project: a cache a
    repository could ship would be code run at build time. None: caching is off."""
    return cache_path(config_dir, out_dir, snapshot_path, "cache")


@functools.cache
def codec() -> Codec:
    """The build cache's format: only the classes BuildCache's annotations reach (ToolRecord,
    ToolOutput, ToolPython, Serving, ClientPiece, Entry, Diagnostic, Note, Span, Severity) can be
    stored or rebuilt."""
    return Codec(BuildCache)


def load(
    path: Path | None, warn: Callable[[str], None] | None = None, frames: Frames | None = None
) -> BuildCache | None:
    """The cache this build may reuse, or None. A cache that is not the user's own (planted,
    tampered, another machine's key, other users able to write it) or not intact is ignored
    with a warning and rebuilt; a missing one or one from another toolc, silently. `frames`
    receives each record's bytes as read (`unchanged_frames`)."""
    if path is None:
        return None
    ahead = prefetch.take(path)  # taken even when the file is gone: never used later
    if not path.exists():
        return None

    def ignored(why: str) -> None:
        if warn is not None:
            warn(f"ignoring the build cache {path}: {why}; building without it")

    key = cache_key()
    # Read ahead under this very key, or read now.
    found = ahead if ahead is not None and ahead.key == key else prefetch.read(path, key)
    if found.refusal is not None:
        ignored(found.refusal)
        return None
    data = found.data
    if data is None:
        ignored("it cannot be read as a file of at most 4 GiB")
        return None
    try:
        version = generator_fingerprint().hex().encode()
        cache = codec().loads(data, key, path.name, version, frames, found.signed)
    except CacheStale:
        return None
    except CacheRefused as exc:
        ignored(f"it {exc}")
        return None
    if not isinstance(cache, BuildCache):
        ignored("it is damaged")
        if frames is not None:
            frames.clear()
        return None
    if cache.generator != generator_fingerprint():
        return None  # made by another toolc: rebuilt, nothing to say
    try:
        bad = misplaced(cache)
    except (TypeError, AttributeError):  # a signed file whose members are of other types
        bad = "it is damaged"
    if bad is not None:
        ignored(bad)
        if frames is not None:
            frames.clear()
        return None
    return cache


def misplaced(cache: BuildCache) -> str | None:
    """A cached unit that is not what it claims to be: files of another tool, or a tool that
    is not in the order the cache records."""
    if set(cache.records) != set(cache.tool_order):
        return "its tools do not match its own list"
    if not set(cache.item_spans) <= set(cache.records):
        return "it places items of tools it does not hold"
    for name, record in cache.records.items():
        expected = {
            f"schemas/{name}.input.json",
            f"schemas/{name}.output.json",
            f"contracts/{name}.json",
        }
        # A tool whose models check values ships its patterns' translations, and one with
        # `accepts` the handler's form: each its own, or nothing.
        optional = {f"patterns/{name}.json", f"schemas/{name}.handler.json"}
        if not expected <= set(record.output.files) <= expected | optional:
            return f"its entry for {name!r} holds files of another tool"
        if not set(record.output.digests) <= {*record.output.files, module_file(name)}:
            return f"its entry for {name!r} holds digests of files of another tool"
    return None


def dump(
    cache: BuildCache,
    path: Path,
    stream: BinaryIO,
    reuse: Reuse | None = None,
    written: Frames | None = None,
    key: bytes | None = None,
    stats: Callable[[], dict[str, Signature]] | None = None,
) -> None:
    """Streamed to the file: the cache of 5,000 tools is about as big as their output.
    `written` receives each record's frame, as `load`'s `frames` does; `key`: the user's
    cache key, when it is not read now (the daemon writes a cache after its command ended);
    `stats`, when given, is called for the stats once the rest is written (they are known
    only after the commit, which the rest of the writing overlaps)."""
    version = generator_fingerprint().hex().encode()
    key = cache_key() if key is None else key
    late = None if stats is None else ("stats", stats)
    codec().dump(cache, key, path.name, stream.write, version, reuse, written, late)


def unchanged_frames(previous: BuildCache, frames: Frames) -> Reuse:
    """For `dump`: a record that is the very one `previous` was loaded with is written as the
    bytes it was read from (a one-tool edit of 1,000 tools re-encoded 999 records for nothing:
    about 0.06 s). Frozen and loaded from those bytes, it can only encode to their value."""
    records = previous.records

    def reuse(field: str, key: str, value: object) -> memoryview | None:
        return frames.get((field, key)) if value is records.get(key) else None

    return reuse


# --- spans relative to pieces ---------------------------------------------------------------


class Files(msgspec.Struct, frozen=True):
    """The two config files of this run: how they print, and how they are cut into pieces."""

    tools_shown: str
    tools: Layout
    policies_shown: str | None
    policies: Layout | None

    def layout(self, kind: FileKind) -> Layout:
        layout = self.tools if kind == "tools" else self.policies
        assert layout is not None
        return layout

    def relative(self, span: Span) -> RelSpan | None:
        kind = (
            "tools"
            if span.path == self.tools_shown
            else "policies"
            if span.path == self.policies_shown and self.policies is not None
            else None
        )
        if kind is None:
            return None
        piece, offset = self.layout(kind).piece_at(span.line)
        return (kind, piece, offset, span.end_line - span.line, span.column, span.end_column)

    def absolute(self, rel: RelSpan) -> Span:
        kind, piece, offset, height, column, end_column = rel
        line = self.layout(kind).line_of(piece, offset)
        shown = self.tools_shown if kind == "tools" else self.policies_shown
        assert shown is not None
        return Span(shown, line, column, line + height, end_column)

    def sources(self) -> dict[str, str]:
        """Each file's text by its shown path, for rendering source lines."""
        found = {self.tools_shown: self.tools.text}
        if self.policies is not None and self.policies_shown is not None:
            found[self.policies_shown] = self.policies.text
        return found

    def relative_declared(self, tool: Declared) -> tuple[RelSpan, RelSpan, RelSpan] | None:
        spans = (self.relative(tool.entry), self.relative(tool.version))
        value = self.relative(tool.version_value)
        if spans[0] is None or spans[1] is None or value is None:
            return None
        return spans[0], spans[1], value

    def keep(self, d: Diagnostic) -> tuple[Diagnostic, RelSpan, tuple[RelSpan, ...]] | None:
        rel = self.relative(d.span)
        notes = tuple(self.relative(n.span) for n in d.notes)
        if rel is None or any(n is None for n in notes):
            return None
        return d, rel, tuple(n for n in notes if n is not None)

    def restore(self, kept: tuple[Diagnostic, RelSpan, tuple[RelSpan, ...]]) -> Diagnostic:
        d, rel, notes = kept
        moved = tuple(
            Note(self.absolute(r), n.message) for n, r in zip(d.notes, notes, strict=True)
        )
        return replace(d, span=self.absolute(rel), notes=moved)


def owner(rel: RelSpan) -> str | None:
    """The tool (or policy) whose entry holds the span; None for the frame."""
    piece = rel[1]
    return str(piece[1]) if piece[0] == "entry" else None


# --- deciding what to re-read ----------------------------------------------------------------


def changed_names(cache: BuildCache, files: Files) -> set[str] | None:
    """The entries whose text changed, or None when the cache cannot be used at all."""
    tools = files.tools.entries
    policies = files.policies.entries if files.policies is not None else {}
    if (
        cache.tools_frame != files.tools.frame
        or cache.policies_frame != (files.policies.frame if files.policies else None)
        or cache.tool_order != list(tools)
        or cache.policy_order != list(policies)
        or not set(policies) <= set(tools)  # a policy of no tool: the full read reports it
    ):
        return None
    changed = set()
    for name, piece in tools.items():
        record = cache.records.get(name)
        policy = policies.get(name)
        if (
            record is None
            or record.tool_piece != piece.digest
            or record.policy_piece != (policy.digest if policy else None)
        ):
            changed.add(name)
    return changed


def related(cache: BuildCache, changed: set[str]) -> set[str]:
    """The changed tools with their pre-validators, and every tool a re-read validator
    pre-validates: the checks of a target against its validator report at the validator,
    so a validator read again needs all its targets at hand, or the findings about the
    others are lost with its cached diagnostics."""
    out = set(changed)
    for name in changed:
        record = cache.records.get(name)
        if record is not None and record.validator is not None:
            out.add(record.validator)
    while True:  # a target may be a validator too: until nothing more is added
        targets = {n for n, r in cache.records.items() if r.validator in out} - out
        if not targets:
            return out & set(cache.records)
        out |= targets


def consistent(cache: BuildCache, keep: set[str], project: Project) -> bool:
    """What the re-read tools can change for the others did not change."""
    if set(project.tools) != keep:
        return False
    for name, tool in project.tools.items():
        record = cache.records[name]
        served = record.output.python.serving
        # The servers and their classes are checked across all tools: a tool that moves to
        # another server, or is switched on or off, needs them all.
        if (tool.decl.mcp_server, tool.enabled) != (served.server, served.enabled):
            return False
        facts = facts_of(tool)
        validator = facts.validator
        if facts.refs != record.refs or (validator is not None and validator not in keep):
            return False
        if validator != record.validator and record.validator not in keep:
            return False
    return True
