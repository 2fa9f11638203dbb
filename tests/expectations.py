"""Expected diagnostics written beside the offending line, as `# E: code, code W: code` at its
end (`code@column` pins the column too). Read by the golden fixtures
(tests/test_diagnostic_fixtures.py) and by the docs' examples (tests/test_docs_examples.py)."""

from __future__ import annotations

import re

CODE = rb"[a-z0-9-]+(?:@[0-9]+)?"
CODES_LIST = CODE + rb"(?:\s*,\s*" + CODE + rb")*"
COMMENT = re.compile(rb"#\s*((?:[EW]:\s*" + CODES_LIST + rb"\s*)+)$")
GROUP = re.compile(rb"([EW]):\s*(" + CODES_LIST + rb")")

# line (1-based), column (None: any), severity, code
LineExpectation = tuple[int, int | None, str, str]


def annotated(data: bytes) -> list[LineExpectation]:
    """Every diagnostic the annotations of a YAML text expect, in line order."""
    found: list[LineExpectation] = []
    for number, raw in enumerate(data.splitlines(), start=1):
        m = COMMENT.search(raw)
        for kind, codes in GROUP.findall(m[1]) if m else ():
            severity = "error" if kind == b"E" else "warning"
            for entry in codes.decode().split(","):
                code, _, column = entry.strip().partition("@")
                found.append((number, int(column) if column else None, severity, code))
    return found
