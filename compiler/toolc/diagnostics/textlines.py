"""Lines as YAML 1.2 counts them: only `\\n`, `\\r\\n` and `\\r` end a line (Python's
`str.splitlines` also breaks at NEL, U+2028, U+2029, form feeds and more, which shifted line
numbers in diagnostics). A leaf module: the loader and the renderers both use it."""

from __future__ import annotations

import re

_BREAKS = re.compile(r"\r\n|\r|\n")


def yaml_lines(text: str, keepends: bool = False) -> list[str]:
    """`text` split at YAML 1.2 line breaks only."""
    if not text:
        return []
    lines = []
    start = 0
    for match in _BREAKS.finditer(text):
        lines.append(text[start : match.end() if keepends else match.start()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines
