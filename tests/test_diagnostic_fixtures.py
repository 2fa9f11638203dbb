"""Golden diagnostics: each folder under fixtures/diagnostics is a config directory whose
expected diagnostics are written beside the offending lines (`# E: code, code W: code`), or in
`expected.txt` (`path:line:col: severity[code]`) where the input cannot hold a comment."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES
from expectations import annotated
from toolc import verbs
from toolc.cli.settings import load_settings
from toolc.diagnostics import CODES

CASES = sorted(p for p in (FIXTURES / "diagnostics").iterdir() if p.is_dir())
SIDECAR = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[a-z0-9-]+)\]$"
)

Expectation = tuple[
    str, int, int | None, str, str
]  # path, line, column (None: any), severity, code


def expected(case: Path) -> Counter[Expectation]:
    found: Counter[Expectation] = Counter()
    sidecar = case / "expected.txt"
    if sidecar.exists():
        for line in sidecar.read_text().splitlines():
            m = SIDECAR.match(line)
            assert m, f"{sidecar}: malformed line {line!r}"
            found[(m["path"], int(m["line"]), int(m["col"]), m["sev"], m["code"])] += 1
        return found
    for file in sorted(case.glob("*.yaml")):
        for number, column, severity, code in annotated(file.read_bytes()):
            found[(file.name, number, column, severity, code)] += 1
    return found


def actual(case: Path, pinned: set[tuple[str, int, str, str]] | None) -> Counter[Expectation]:
    """The run's diagnostics; columns kept where the expectation pins them (None: everywhere)."""
    # A fixture of the opt-in metadata lint turns it on in its own pyproject.toml.
    settings = load_settings(case)  # a fixture of the targets asks for them there too
    result = verbs.check_config(
        case, cwd=case, metadata_lint=settings.metadata_lint, targets=settings.targets
    )
    found: Counter[Expectation] = Counter()
    for d in result.diagnostics:
        key = (d.span.path, d.span.line, d.severity.value, d.code)
        column = d.span.column if pinned is None or key in pinned else None
        found[(d.span.path, d.span.line, column, d.severity.value, d.code)] += 1
    return found


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture_reports_exactly_what_is_annotated(case: Path) -> None:
    want = expected(case)
    assert want, f"{case.name} declares no expected diagnostic"
    sidecar = (case / "expected.txt").exists()
    pinned = None if sidecar else {(f, ln, sev, code) for f, ln, col, sev, code in want if col}
    assert actual(case, pinned) == want


def test_every_code_has_a_fixture() -> None:
    covered = {key[-1] for case in CASES for key in expected(case)}
    # file-too-large and yaml-size-limit need huge inputs: tests/test_loading.py makes them. The
    # build's codes need an earlier build: tests/test_build.py, tests/test_evolution_cli.py and
    # tests/test_output_safety.py assert each of them (tests/test_listing_cost.py the budget's).
    build_codes = {code for code, rule in CODES.items() if rule.group == "build"}
    here = Path(__file__).parent
    build_tests = "".join(
        (here / name).read_text()
        for name in (
            "test_build.py",
            "test_evolution_cli.py",
            "test_output_safety.py",
            "test_listing_cost.py",
        )
    )
    assert all(f'"{code}"' in build_tests for code in build_codes), "build codes untested"
    # The targets' rules that tools.yaml's own schema leaves unreachable: tests/test_targets.py.
    unreachable = {"mcp-tool-name", "mcp-root-type"}
    assert all(f'"{code}"' in (here / "test_targets.py").read_text() for code in unreachable)
    # `toolc import` reads no config: tests/test_import.py produces each of its codes.
    import_codes = {code for code, rule in CODES.items() if rule.group == "import"}
    import_tests = (here / "test_import.py").read_text()
    assert all(f"[{code}]" in import_tests for code in import_codes), "import codes untested"
    untested = (
        set(CODES) - covered - {"file-too-large", "yaml-size-limit"} - build_codes
        - unreachable - import_codes
    )  # fmt: skip
    assert not untested, f"codes with no golden fixture: {sorted(untested)}"
    assert covered <= set(CODES), f"fixtures name unknown codes: {sorted(covered - set(CODES))}"


def test_every_fixture_diagnostic_has_a_position_inside_its_file() -> None:
    for case in CASES:
        for d in verbs.check_config(case, cwd=case).diagnostics:
            file = case / d.span.path
            if not file.is_file():  # a missing file, or a path that is no file (not-a-file)
                continue
            lines = file.read_bytes().splitlines() or [b""]
            assert 1 <= d.span.line <= max(len(lines), 1), (case.name, d)
            assert d.span.column >= 1 and (d.span.end_line, d.span.end_column) >= (
                d.span.line,
                d.span.column,
            ), (case.name, d)
