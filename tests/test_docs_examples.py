"""The docs cannot drift from the code: every ```yaml example of README.md and docs/*.md is
checked with `toolc check` and must report exactly what its comments announce (the conventions
are in tests/doc_blocks.py), every `toolc` command and flag the pages name exists, and every
diagnostic code, rule ID and severity they name is the code's."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from doc_blocks import PAGES, ROOT, Block, Case, classify, every_page, fenced_blocks
from expectations import annotated
from toolc.cli import cli, run
from toolc.diagnostics import CODES
from toolc.diagnostics.catalogue import catalogue

CASES, MODELINES, EXEMPT, PROBLEMS = every_page()

# (file, line, column or None, severity, code), in the block's own lines and columns
Seen = Counter[tuple[str, int, int | None, str, str]]


def announced(case: Case) -> Seen:
    return Counter(
        (name, line, column, severity, code)
        for name, file in case.files.items()
        for line, column, severity, code in annotated(file.block.text.encode("utf-8"))
    )


def reported(case: Case, folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Seen]:
    """Run `toolc check --format json` on the case as a user would (the real command line, in
    this process), and map each diagnostic back to the lines and columns of its block."""
    for name, file in case.files.items():
        (folder / name).write_text(file.text(), encoding="utf-8")
    capsys.readouterr()
    status = run(["check", str(folder), "--format", "json"])
    out = capsys.readouterr().out
    pinned = {(f, ln, sev, code) for f, ln, col, sev, code in announced(case) if col}
    seen: Seen = Counter()
    for row in map(json.loads, out.splitlines()):
        name = Path(row["path"]).name
        file = case.files.get(name)
        line = row["line"] - (file.line_offset if file else 0)
        column = row["column"] - (file.indent if file else 0)
        key = (name, line, row["severity"], row["code"])
        seen[(name, line, column if key in pinned else None, row["severity"], row["code"])] += 1
    return status, seen


@pytest.mark.parametrize("case", CASES, ids=[c.where for c in CASES])
def test_example_checks_as_its_comments_announce(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, seen = reported(case, tmp_path, capsys)
    want = announced(case)
    assert seen == want, f"{case.where}: toolc check reports {dict(seen)}, the page {dict(want)}"
    errors = any(severity == "error" for _, _, _, severity, _ in want)
    assert status == (1 if errors else 0)


def test_every_yaml_block_fits_a_convention() -> None:
    assert not PROBLEMS, "\n".join(PROBLEMS)
    assert len(CASES) >= 20  # the extraction itself works: config.md alone has more


def test_modelines_name_the_published_schemas() -> None:
    published = {p.name for p in (ROOT / "schemas").glob("*.schema.json")}
    assert MODELINES
    for modeline in MODELINES:
        assert set(modeline.schemas) <= published, modeline.block.where
    for case in CASES:  # the modeline atop a whole file too
        for file in case.files.values():
            for target in re.findall(r"\$schema=(\S+)", file.block.text):
                assert Path(target).name in published, file.block.where


# --- the conventions themselves, on pages made up for the purpose ---------------------------

TOOLS = "tools:\n  t:\n    version: 1.0.0\n    description: d.\n    mcp_server: s\n"


def _page(tmp_path: Path, *blocks: str) -> list[Block]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    page = tmp_path / "page.md"
    page.write_text("".join(f"Some prose.\n\n```yaml\n{b}```\n\n" for b in blocks))
    return fenced_blocks(page)


def _checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], *blocks: str) -> bool:
    cases, _, _, problems = classify(_page(tmp_path, *blocks))
    assert not problems and len(cases) == 1, problems
    folder = tmp_path / "cfg"
    folder.mkdir()
    return reported(cases[0], folder, capsys)[1] == announced(cases[0])


def test_an_announced_code_must_be_reported_and_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = TOOLS + "    tool_type: query\n"
    wrong = TOOLS + "    tool_type: querie\n"
    assert _checked(tmp_path / "a", capsys, clean)
    assert not _checked(tmp_path / "b", capsys, wrong)  # unannounced
    assert _checked(
        tmp_path / "c", capsys, wrong.replace("querie\n", "querie  # E: invalid-value\n")
    )
    assert not _checked(
        tmp_path / "d", capsys, clean.replace("query\n", "query  # E: unknown-key\n")
    )


def test_a_policies_block_joins_the_tools_block_above(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = TOOLS + "    tool_type: action\n    confirmation_required: true\n"
    policies = "# tool_policies.yaml\ntool_policies:\n  t:\n    require_confirmation: false"
    assert _checked(tmp_path / "a", capsys, tools, policies + "  # E: confirmation-mismatch\n")
    assert not _checked(tmp_path / "b", capsys, tools, policies + "\n")
    _, _, _, problems = classify(_page(tmp_path, tools, policies.split("\n", 1)[1] + "\n"))
    assert problems and "needs the leading comment" in problems[0]
    _, _, _, problems = classify(_page(tmp_path, policies + "\n"))
    assert problems and "no tools.yaml block above" in problems[0]


@pytest.mark.parametrize(
    "fragment",
    [
        "# fragment: args_schema\nq: {type: strng}  # E: unknown-type@11\n",
        "# fragment: returns\ntype: object\nproperties: {a: {type: strng}}  # E: unknown-type\n",
        "# fragment: tool\nversion: 1.0.0\ndescription: d.\nmcp_server: s\ntool_type: querie  # E: invalid-value\n",
    ],
)  # fmt: skip
def test_a_fragment_is_checked_inside_a_minimal_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fragment: str
) -> None:
    assert _checked(tmp_path / "a", capsys, fragment)
    # Lines and columns are the block's own: the announcement on another line fails.
    code, comment = fragment.rstrip("\n").rsplit("  # E:", 1)
    assert not _checked(tmp_path / "b", capsys, f"{code}\n# E:{comment}\n")
    if "@11" in fragment:  # and so is a pinned column
        assert not _checked(tmp_path / "c", capsys, fragment.replace("@11", "@16"))


def test_unclassified_blocks_are_refused_never_skipped(tmp_path: Path) -> None:
    blocks = ["order_id: {type: string}\n", "# not-a-config\nfoo: 1\n", "# fragment: nope\na: 1\n"]
    _, _, exempt, problems = classify(_page(tmp_path, *blocks, "# not-a-config: a sketch\nx: 1\n"))
    assert len(problems) == 3 and [e.reason for e in exempt] == ["a sketch"]


# --- commands, codes and severities named in the prose ---------------------------------------

COMMAND = re.compile(r"(?:^|[\s/`(])toolc ([a-z]+)((?:[^`#\n])*)")
INLINE = re.compile(r"`([^`\n]+)`")


def _commands() -> list[tuple[str, str, str]]:
    """(page, verb, rest of the command line) for every `toolc VERB ...` in a shell or text
    block or an inline code span."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        shown = [b.text for b in fenced_blocks(page) if b.lang in ("sh", "bash", "text", "")]
        spans = INLINE.findall(FENCE_FREE.sub("", text))
        for chunk in [*shown, *(f"`{s}`" for s in spans)]:
            for m in COMMAND.finditer(chunk):
                found.append((page.name, m[1], m[2]))
    return found


FENCE_FREE = re.compile(r"^```.*?^```", re.M | re.S)


def _help(verb: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = run([verb, "--help"])
    return status, capsys.readouterr().out


def test_every_toolc_command_and_flag_the_docs_name_exists(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = _commands()
    verbs = {verb for _, verb, _ in commands}
    assert {"check", "build", "diff", "bump", "serve", "scaffold", "schema", "explain"} <= verbs
    for page, verb, rest in commands:
        assert verb in cli.commands, f"{page}: `toolc {verb}` is no command"
        status, text = _help(verb, capsys)
        assert status == 0, (page, verb)
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest):
            assert re.search(rf"(?<![\w-]){flag}\b", text), f"{page}: `toolc {verb} {flag}`"
        if verb == "explain" and (code := rest.split()[0] if rest.split() else "") in catalogue():
            assert run(["explain", code]) == 0


def test_every_make_target_the_docs_name_exists() -> None:
    makefile = (ROOT / "Makefile").read_text()
    named = set()
    for page in PAGES:  # `make X` in a shell block or a code span
        shell = [b.text for b in fenced_blocks(page) if b.lang in ("sh", "bash")]
        spans = INLINE.findall(FENCE_FREE.sub("", page.read_text(encoding="utf-8")))
        named |= {t for chunk in [*shell, *spans] for t in re.findall(r"(?m)^make ([a-z]+)", chunk)}
    assert {"demo", "test", "docs", "golden"} <= named
    for target in named:
        assert re.search(rf"^{target}:", makefile, re.M), f"make {target}"


def test_diagnostics_shown_in_text_blocks_have_real_codes() -> None:
    for page in PAGES:
        for block in fenced_blocks(page):
            for severity, code in re.findall(r"\b(error|warning)\[([a-z0-9-]+)\]", block.text):
                assert code in CODES and CODES[code].severity.value == severity, block.where


# A name in backquotes that looks like a code, and is none: a format, an annotation, an example.
NOT_CODES = {
    "cancel-order",
    "date-time",
    "x-toolc-label",
    "x-toolc-user-prompt",
    "toolc-check",
    "toolc-build",
    "openai-strict",  # a provider target (decision 0074)
    "version-guard",  # a gate of the JSON format
    "output-fresh",
}
NAME = r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`"
LEVEL_AFTER = re.compile(
    NAME + r"\)?,?\s+\(?(?:is\s+)?(?:an?\s+)?(warning|error|breaking|compatible)\b"
)
LEVEL_BEFORE = re.compile(r"\b(?:the\s+)?(warning|error)\s+" + NAME)  # fmt: skip


def _levels(name: str) -> set[str]:
    """What a name can be called: its severity as a diagnostic code, its level as a rule."""
    return {aspect.grade for aspect in catalogue().get(name, ())}


def test_every_code_named_in_the_prose_exists_with_the_level_it_is_given() -> None:
    for page in PAGES:
        prose = FENCE_FREE.sub("", page.read_text(encoding="utf-8"))
        for name in re.findall(NAME, prose):
            assert name in catalogue() or name in NOT_CODES, f"{page.name}: `{name}`"
        stated = [(m[1], m[2]) for m in LEVEL_AFTER.finditer(prose)]
        stated += [(m[2], m[1]) for m in LEVEL_BEFORE.finditer(prose)]
        for name, level in stated:
            assert level in _levels(name), f"{page.name}: `{name}` called {level}"


def test_the_readme_shows_the_diagnostic_toolc_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first thing the README shows, byte for byte: a misspelt type on line 21."""
    shown = next(b for b in fenced_blocks(ROOT / "README.md") if b.lang == "text").text
    tools = "# a comment\n" * 12 + TOOLS + "    tool_type: query\n    args_schema:\n"
    tools += "      q:\n        type: strng\n"
    assert tools.splitlines()[20] == "        type: strng"
    (tmp_path / "tools.yaml").write_text(tools)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    capsys.readouterr()
    assert run(["check", "."]) == 1
    assert capsys.readouterr().err.startswith(shown)


def test_the_explanations_name_every_framework_code() -> None:
    from toolc.contract.framework import FRAMEWORK_ERRORS

    explanation = CODES["reserved-error-code"].explanation
    assert all(code in explanation for code in FRAMEWORK_ERRORS)
    table = (ROOT / "docs" / "envelope.md").read_text(encoding="utf-8")
    for code, (retryable, _) in FRAMEWORK_ERRORS.items():
        said = "—" if retryable is None else str(retryable).lower()
        assert f"| `{code}` | {said} |" in table, code


GOLDEN = ROOT / "examples" / "retail" / "generated" / "mcp_tools"


def _top_level_names(module: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def test_python_examples_use_what_the_retail_package_has() -> None:
    """The Python the pages show is the retail example's: it parses, what it imports from
    `mcp_tools` exists in examples/retail's generated package, and a handler raises only codes
    its tool declares (an undeclared one is sent as TOOL_ERROR)."""
    from toolc.source.yaml_loader import load_yaml

    text = (ROOT / "examples" / "retail" / "tools.yaml").read_text(encoding="utf-8")
    tools = load_yaml(text, "tools.yaml")[0]["tools"]
    blocks = [b for page in PAGES for b in fenced_blocks(page) if b.lang == "python"]
    assert len(blocks) >= 4
    for block in blocks:
        tree = ast.parse(block.text, block.where, feature_version=(3, 11))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mcp_tools"):
                module = GOLDEN.joinpath(*node.module.split(".")[1:])
                module = module / "__init__.py" if module.is_dir() else module.with_suffix(".py")
                missing = {a.name for a in node.names} - _top_level_names(module)
                assert not missing, f"{block.where}: {node.module} has no {missing}"
            if isinstance(node, ast.AsyncFunctionDef) and node.name in tools:
                declared = tools[node.name].get("errors") or {}
                for call in ast.walk(node):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "ToolFailure"
                        and isinstance(call.args[0], ast.Constant)
                    ):
                        assert call.args[0].value in declared, f"{block.where}: {node.name}"
