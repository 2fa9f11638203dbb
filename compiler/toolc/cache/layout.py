"""A config file cut into pieces by its text alone: one piece per entry of the section that
lists tools (`tools:` or `tool_policies:`), and frame pieces for everything else.

The incremental build compares pieces with the last build's to find the tools an edit touched,
and re-reads only those, in a copy of the file where every other entry is blanked out (lines
kept, so spans stay exact). Only the plain block layout people write is cut; any construct
whose meaning could cross an entry's boundary (anchors and aliases, kept trailing newlines,
tabs, documents, flow-style sections, quoted or odd keys) makes `split` decline, and the
caller reads the whole file as usual.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import re
from functools import cached_property

import msgspec

_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ ]*:(?:[ ]+(.*))?\r?$")
_ENTRY_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*)[ ]*:(?:[ ]|\r?$)")
_ANCHOR_OR_ALIAS = re.compile(r"(?:^|(?<=[\s\[{,:]))[&*][^\s,\]}]")
_KEEP_CHOMPING = re.compile(r"[|>][0-9]?\+")
_DOCUMENT_MARK = re.compile(r"^(?:---|\.\.\.|%)", re.M)

PieceId = tuple[str, int | str]  # ("entry", name) or ("frame", index)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()[:16]


class Piece(msgspec.Struct, frozen=True):
    id: PieceId
    start: int  # 0-based line where the piece begins
    lines: int
    digest: bytes
    offset: int  # where its text begins
    end: int  # where its text ends


class Layout(msgspec.Struct, frozen=True, dict=True):
    text: str
    pieces: list[Piece]

    @property
    def entries(self) -> dict[str, Piece]:
        return {str(p.id[1]): p for p in self.pieces if p.id[0] == "entry"}

    @property
    def frame(self) -> list[bytes]:
        return [p.digest for p in self.pieces if p.id[0] == "frame"]

    @cached_property
    def _starts(self) -> list[int]:
        return [p.start for p in self.pieces]

    @cached_property
    def _by_id(self) -> dict[PieceId, Piece]:
        return {p.id: p for p in self.pieces}

    def piece_at(self, line: int) -> tuple[PieceId, int]:
        """The piece holding a 1-based line, and the line's offset in it."""
        index = bisect.bisect_right(self._starts, line - 1) - 1
        if index < 0 or line - 1 >= self.pieces[index].start + self.pieces[index].lines:
            return ("frame", -1), line  # past the end (a span at EOF): kept as is
        return self.pieces[index].id, line - 1 - self.pieces[index].start

    def line_of(self, piece: PieceId, offset: int) -> int:
        if piece == ("frame", -1):
            return offset
        return self._by_id[piece].start + offset + 1

    def keeping(self, names: set[str]) -> str:
        """The text with every entry not in `names` blanked: same lines, same columns."""
        parts = []
        for piece in self.pieces:
            if piece.id[0] == "entry" and piece.id[1] not in names:
                parts.append("\n" * self.text.count("\n", piece.offset, piece.end))
            else:
                parts.append(self.text[piece.offset : piece.end])
        return "".join(parts)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _risky(text: str) -> bool:
    """An anchor or alias could tie two entries together, `|+`/`>+` would swallow the blank
    lines left by a removed entry, tabs make indentation ambiguous. Looked for loosely (a
    `*word` in prose counts), which only costs a full read; the cheap scans go first."""
    if "\t" in text or text.startswith("\ufeff"):
        return True
    if ("&" in text or "*" in text) and _ANCHOR_OR_ALIAS.search(text):
        return True
    if "+" in text and _KEEP_CHOMPING.search(text):
        return True
    return ("---" in text or "..." in text or "%" in text) and bool(_DOCUMENT_MARK.search(text))


def _entry_indent(text: str, section: str) -> int:
    header = re.search(rf"^{re.escape(section)}[ ]*:", text, re.M)
    if header is None:
        return 1
    # Line by line from the header (a split of the rest would copy the whole file twice).
    at = text.find("\n", header.end())
    for _ in range(49):
        if at < 0:
            break
        end = text.find("\n", at + 1)
        line = text[at + 1 : end if end >= 0 else len(text)]
        if not _blank(line):
            return max(_indent(line), 1)
        at = end
    return 1


# Memoized: the build daemon cuts the same unchanged file at every rebuild (the policies,
# when a tool's declaration is edited), 10 ms at 1,000 tools. A Layout is never changed.
@functools.lru_cache(maxsize=4)
def split(text: str, section: str) -> Layout | None:
    """Cut the file into pieces, or None when its layout is not the plain block form. Only the
    lines indented no deeper than an entry's key are looked at (a regex finds them), which
    keeps this at a few milliseconds for a 1,000-tool file."""
    if _risky(text):
        return None
    indent_of_entries = _entry_indent(text, section)
    # A leading newline lets the regex engine skip from line break to line break.
    low = re.compile(rf"\n( {{0,{indent_of_entries}}})([^ \r\n][^\n]*)")
    bounds: list[tuple[PieceId, int, int]] = []  # (piece, first line, offset), in order
    frame = 0
    in_section = False
    seen: set[str] = set()
    line, at = 0, 0
    text = "\n" + text
    for match in low.finditer(text):
        line += text.count("\n", at, match.start())
        at = match.start()
        indent, content = len(match.group(1)), match.group(2)
        if content.startswith("#"):
            continue
        if indent == 0:
            top = _TOP_KEY.fullmatch(content)
            if top is None:
                return None
            value = (top.group(2) or "").strip()
            if top.group(1) == section and value and not value.startswith("#"):
                return None  # the section in flow style, or a scalar
            in_section = top.group(1) == section
            bounds.append((("frame", frame), line, at))
            frame += 1
        elif not in_section:
            continue
        elif indent < indent_of_entries:
            return None
        else:
            key = _ENTRY_KEY.match(content)
            if key is None or key.group(1) in seen:
                return None
            seen.add(key.group(1))
            bounds.append((("entry", key.group(1)), line, at))
    text = text[1:]  # offsets into the prefixed text are offsets of line starts here
    if not bounds or bounds[0][1] != 0:
        bounds.insert(0, (("frame", -2), 0, 0))  # leading comments and blank lines
    total = text.count("\n") + 1
    pieces: list[Piece] = []
    for i, (piece, first, offset) in enumerate(bounds):
        last = i + 1 == len(bounds)
        end_line = total if last else bounds[i + 1][1]
        end = len(text) if last else bounds[i + 1][2]
        body = text[offset:end]
        pieces.append(Piece(piece, first, end_line - first, _digest(body), offset, end))
    return Layout(text, pieces)
