"""What the YAML parser's own errors become: a located diagnostic with a hint."""

from __future__ import annotations

import yaml

from toolc.diagnostics import Diagnostic, Note, Span, diag
from toolc.diagnostics.textlines import position, yaml_lines

MAX_DEPTH = 64

# The parser says what it expected; these say what usually went wrong.
_SYNTAX_HINTS = (
    (
        "did not find expected key",
        "check the indentation: keys of one mapping start in the same column",
    ),
    ("mapping values are not allowed", "quote a value that contains ': ', or fix the indentation"),
    ("end of stream", "close the quote or bracket that is still open"),
    ("could not find expected ':'", "a key needs ': ' after it"),
    ("did not find expected ',' or ']'", "close the list with ']' or separate items with ','"),
    ("did not find expected ',' or '}'", "close the mapping with '}' or separate entries with ','"),
    ("did not find expected '-' indicator", "list items start with '- ' in the same column"),
)


def _printable(character: object) -> str:
    ch = chr(character) if isinstance(character, int) else str(character)
    return ascii(ch)


def _at(path: str, mark: yaml.Mark, text: str) -> Span:
    """The mark as a span, kept inside the file: at the end of input the parser's mark sits on a
    line past the last one, which editors and annotations cannot show."""
    lines = yaml_lines(text) or [""]
    if mark.line >= len(lines):
        return Span.point(path, len(lines), len(lines[-1]) + 1)
    return Span.point(path, mark.line + 1, mark.column + 1)


def syntax_error(exc: yaml.YAMLError, text: str, path: str) -> Diagnostic:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        problem = exc.problem or "invalid YAML"
        lines = yaml_lines(text)
        line_text = lines[mark.line] if mark.line < len(lines) else ""
        if "nesting depth" in problem:  # newer PyYAML/libyaml stop runaway nesting themselves
            return diag(
                "yaml-depth-limit",
                _at(path, mark, text),
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure or share parts through `types:` and `$ref`",
            )
        if (mark.column < len(line_text) and line_text[mark.column] == "\t") or "'\\t'" in problem:
            # After a `- ` the tab is separation, which YAML 1.2 allows and the parser toolc
            # reads with does not: said as it is, not as indentation.
            after_dash = line_text[: mark.column].rstrip("\t ").endswith("-")
            return diag(
                "yaml-tab-indent",
                _at(path, mark, text),
                "tab character after `-`: toolc's YAML reader takes only spaces there"
                if after_dash
                else "tab character used for indentation",
                "replace the tab with a space"
                if after_dash
                else "YAML indents with spaces; replace the tab with spaces",
            )
        hint = next((h for phrase, h in _SYNTAX_HINTS if phrase in problem), None)
        if "end of stream" in problem and exc.context_mark is not None:
            # At the end of the file the parser has nothing to show; what was left open is
            # where the fix goes.
            return diag(
                "yaml-syntax",
                _at(path, exc.context_mark, text),
                f"{exc.context} never closed: {problem}",
                hint,
            )
        context = f" {exc.context}" if exc.context else ""
        return diag("yaml-syntax", _at(path, mark, text), f"{problem}{context}".strip(), hint)
    if isinstance(exc, yaml.reader.ReaderError):
        at, found = exc.position, exc.character
        code = found if isinstance(found, int) else ord(found) if len(found) == 1 else -1
        if not (0 <= at < len(text) and ord(text[at]) == code):
            # libyaml counts bytes of UTF-8, Python's reader characters
            at = len(text.encode("utf-8")[:at].decode("utf-8", "ignore"))
        return diag(
            "yaml-syntax",
            Span.point(path, *position(text, at)),
            f"character {_printable(exc.character)} is not allowed in YAML ({exc.reason})",
            "remove it, or write it as an escape (`\\x1b`) inside a double-quoted string",
        )
    return diag("yaml-syntax", Span.whole_file(path), str(exc))


def duplicate_key(key: str, here: Span, first: Span) -> Diagnostic:
    """PyYAML would keep the second silently; toolc refuses it, pointing at both."""
    note = Note(first, f"'{key}' first defined here")
    return diag(
        "yaml-duplicate-key",
        here,
        f"duplicate key '{key}'",
        "remove one of the two entries, or rename it",
        (note,),
    )
