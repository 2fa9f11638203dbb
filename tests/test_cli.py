"""The command line as a user runs it: exit statuses, output formats, settings."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES, run_toolc
from toolc import __version__
from toolc.cli import run
from toolc.diagnostics import CODES
from toolc.evolution.rules import RULES

BROKEN = FIXTURES / "diagnostics" / "schema-tools"
WARNS = FIXTURES / "diagnostics" / "cross-file"
CLEAN = EXAMPLES[0]


def test_version() -> None:
    result = run_toolc("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"toolc {__version__}"


def test_the_command_line_starts_without_the_sdk_or_the_compiler() -> None:
    """Every command pays for what the command line imports before it runs: `toolc.cli` once
    pulled in the SDK and the import verbs (0.8 s of a 1.1 s `toolc --version`); each command
    now imports its verb when it runs."""
    code = (
        "import sys, toolc.cli\n"
        "heavy = [m for m in ('mcp', 'pydantic', 'jinja2', 'toolc.verbs', 'toolc.pipeline',"
        " 'toolc.emit', 'toolc.adopt') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_examples_are_clean(example: Path) -> None:
    result = run_toolc("check", str(example))
    assert result.returncode == 0, result.stderr
    assert "output up to date" in result.stderr and result.stdout == ""


def test_errors_exit_1_with_gcc_style_text_on_stderr() -> None:
    result = run_toolc("check", ".", cwd=BROKEN)
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert (
        first
        == "tools.yaml:2:3: error[invalid-tool-name]: 'cancelar pedidos' is not a valid MCP tool name"
    )
    assert "    2 |   cancelar pedidos:" in result.stderr
    assert "      |   ^~~~~~~~~~~~~~~~" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_type_message_names_the_fix() -> None:
    result = run_toolc("check", ".", cwd=BROKEN)
    assert (
        "tools.yaml:21:15: error[unknown-type]: unknown type 'strng'; did you mean 'string'?"
        in result.stderr
    )


def test_an_unknown_pre_validator_is_not_told_to_be_its_own_tool(tmp_path: Path) -> None:
    """`lookupp` for `lookup`'s pre-validator suggested `lookup`, which prevalidator-self
    then refuses; the tool itself is no candidate."""
    tool = (
        "  {0}:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n    tool_type: query\n"
    )
    (tmp_path / "tools.yaml").write_text(
        "tools:\n" + tool.format("lookup") + tool.format("lookupq")
    )
    (tmp_path / "tool_policies.yaml").write_text(
        "tool_policies:\n  lookup:\n    pre_validation: {tool: lookupp}\n"
    )
    result = run_toolc("check", str(tmp_path))
    assert "error[prevalidator-unknown]" in result.stderr
    assert "did you mean 'lookupq'?" in result.stderr, result.stderr


def _warnings_only(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n    tool_type: action\n"
    )
    return tmp_path


def test_warnings_exit_0_unless_strict(tmp_path: Path) -> None:
    config = _warnings_only(tmp_path)
    assert run_toolc("check", str(config)).returncode == 0
    strict = run_toolc("check", "--strict", str(config))
    assert strict.returncode == 1 and "warning[transactional-without-confirmation]" in strict.stderr


def test_strict_from_pyproject_and_flag_override(tmp_path: Path) -> None:
    config = _warnings_only(tmp_path / "cfg")
    (tmp_path / "pyproject.toml").write_text("[tool.toolc]\nstrict = true\n")
    assert run_toolc("check", str(config)).returncode == 1
    assert run_toolc("check", "--no-strict", str(config)).returncode == 0


def test_unknown_setting_is_a_usage_error(tmp_path: Path) -> None:
    shutil.copytree(CLEAN, tmp_path / "cfg")
    (tmp_path / "pyproject.toml").write_text("[tool.toolc]\nstrickt = true\n")
    result = run_toolc("check", str(tmp_path / "cfg"))
    assert result.returncode == 2 and "unknown setting 'strickt'" in result.stderr


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ('out = "gen\\u0000/mcp_tools"', "out must be a path"),  # was an internal error
        ('snapshot = "a\\u0000b"', "snapshot must be a path"),
        ('docs_out = ""', "docs_out must be a path"),
        # a folder as the snapshot failed late, an io-error naming the output
        ('snapshot = "cfg/generated"', "is a folder (or would hold the output directory)"),
        ('snapshot = "cfg"', "is a folder"),
        ('snapshot = "d/s"\ndocs_out = "d/s/docs"', "would be inside the snapshot's path"),
    ],
)
def test_a_path_setting_that_cannot_be_one_is_a_usage_error(
    tmp_path: Path, setting: str, said: str
) -> None:
    shutil.copytree(CLEAN, tmp_path / "cfg")
    (tmp_path / "pyproject.toml").write_text(f"[tool.toolc]\n{setting}\n")
    before = sorted(tmp_path.rglob("*"))
    for verb in ("check", "build"):
        result = run_toolc(verb, str(tmp_path / "cfg"))
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert "pyproject.toml:" in result.stderr  # where the setting is
    assert sorted(tmp_path.rglob("*")) == before  # nothing written


def test_every_format_names_the_notes_places(tmp_path: Path) -> None:
    """A duplicate key's "first defined here": text and SARIF gave it; JSON, GitHub,
    Markdown and JUnit dropped it."""
    tool = "  t:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n    tool_type: query\n"
    (tmp_path / "tools.yaml").write_text("tools:\n" + tool + tool)
    place = "tools.yaml:2:3"
    json_out = run_toolc("check", "--format", "json", ".", cwd=tmp_path)
    (row,) = [json.loads(line) for line in json_out.stdout.splitlines()]
    assert row["code"] == "yaml-duplicate-key"
    ((note),) = row["notes"]
    assert (note["path"], note["line"], note["column"]) == ("tools.yaml", 2, 3)
    assert set(note) == {"path", "line", "column", "end", "message"}
    for fmt in ("github", "markdown", "junit"):
        out = run_toolc("check", "--format", fmt, ".", cwd=tmp_path).stdout
        assert f"note: {place}" in out.replace("%3A", ":"), (fmt, out)


def test_json_format_one_object_per_line() -> None:
    result = run_toolc("check", "--format", "json", ".", cwd=BROKEN)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == (BROKEN / "tools.yaml").read_text().count("# E:")
    for line in lines:
        obj = json.loads(line)
        assert set(obj) >= {"path", "line", "column", "end", "code", "severity", "message"}
        assert obj["code"] in CODES and obj["severity"] in ("error", "warning")
        assert set(obj["end"]) == {"line", "column"}
    first = json.loads(lines[0])
    assert (first["path"], first["line"], first["column"], first["code"]) == (
        "tools.yaml",
        2,
        3,
        "invalid-tool-name",
    )


# ::error file={name},line={line},endLine={endLine},col={col},endColumn={endColumn},title={title}::{message}
GITHUB = re.compile(
    r"^::(error|warning) file=[^,:]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z0-9-]+::[^\n\r]+$"
)


def test_github_format_is_workflow_commands() -> None:
    result = run_toolc("check", "--format", "github", ".", cwd=WARNS)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines and all(GITHUB.match(line) for line in lines), lines
    assert any(line.startswith("::warning file=tools.yaml,line=20,") for line in lines)
    assert any("%0A%0Ahint: " in line for line in lines)  # newlines escaped, not raw


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run_toolc("check", str(tmp_path / "missing")).returncode == 2
    assert run_toolc("check", "--format", "xml", str(CLEAN)).returncode == 2
    assert run_toolc("explain", "no-such-code").returncode == 2
    assert run_toolc("frobnicate").returncode == 2


def test_missing_tools_yaml_is_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "tools.yml").write_text("tools: {}\n")
    result = run_toolc("check", str(tmp_path))
    assert result.returncode == 1
    assert "error[file-not-found]" in result.stderr and "found tools.yml" in result.stderr


@pytest.mark.parametrize("code", sorted(CODES))
def test_explain_every_code(code: str) -> None:
    result = run_toolc("explain", code)
    assert result.returncode == 0
    assert result.stdout.startswith(f"{code} ({CODES[code].severity.value}): {CODES[code].summary}")


@pytest.mark.parametrize("rule", sorted(RULES))
def test_explain_every_evolution_rule(rule: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run(["explain", rule]) == 0
    out = capsys.readouterr().out
    said = f"{rule} ({RULES[rule].level}): {RULES[rule].summary}\nA rule of contract evolution"
    assert said in out and RULES[rule].explanation in out
    assert out.startswith(f"{rule} (") and f"docs/evolution.md#{rule}" in out


def test_explain_names_the_bump_a_rule_calls_for() -> None:
    result = run_toolc("explain", "arg-removed")  # the rule version-bump messages name
    assert result.returncode == 0
    assert result.stdout.startswith("arg-removed (breaking): An argument")
    assert "needs a major version step (minor below 1.0.0)" in result.stdout
    assert "needs a patch version step" in run_toolc("explain", "description-changed").stdout


def test_explain_an_id_of_both_kinds_shows_both_aspects() -> None:
    out = run_toolc("explain", "tool-removed").stdout
    diagnostic = f"tool-removed (error): {CODES['tool-removed'].summary}\nA diagnostic"
    rule = f"\n\ntool-removed (breaking): {RULES['tool-removed'].summary}\nA rule"
    assert out.startswith(diagnostic) and rule in out
    assert CODES["tool-removed"].explanation in out and RULES["tool-removed"].explanation in out


def test_explain_unknown_suggests_from_both_tables() -> None:
    rule = run_toolc("explain", "arg-remove")
    assert rule.returncode == 2 and "did you mean 'arg-removed'?" in rule.stderr
    code = run_toolc("explain", "yaml-duplicate-kye")
    assert code.returncode == 2 and "did you mean 'yaml-duplicate-key'?" in code.stderr
    assert "unknown diagnostic code or evolution rule 'arg-remove'" in rule.stderr


def test_explain_list_rules_lists_both_kinds() -> None:
    out = run_toolc("explain", "--list-rules")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert len(lines) == len(CODES) + len(RULES)  # tool-removed once per kind
    assert re.search(r"^yaml-duplicate-key +diagnostic +error +A mapping", out.stdout, re.M)
    assert re.search(r"^arg-removed +evolution +breaking +An argument", out.stdout, re.M)
    assert re.search(r"^tool-removed +diagnostic +error ", out.stdout, re.M)
    assert re.search(r"^tool-removed +evolution +breaking ", out.stdout, re.M)
    rules = run_toolc("explain", "--list-rules", "--kind", "evolution").stdout
    assert rules == run_toolc("diff", "--list-rules").stdout  # the same listing
    assert [line.split()[0] for line in rules.splitlines()] == list(RULES)
    codes = run_toolc("explain", "--list-rules", "--kind", "diagnostic").stdout
    assert sorted(line.split()[0] for line in codes.splitlines()) == sorted(CODES)
    assert re.search(r"^yaml-duplicate-key +error +A mapping", codes, re.M)


def test_explain_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["explain"]) == 2
    assert run(["explain", "arg-removed", "--list-rules"]) == 2
    assert run(["explain", "arg-removed", "--kind", "evolution"]) == 2
    assert run(["explain", "--list-rules", "--kind", "rules"]) == 2


def test_schema_command() -> None:
    tools = run_toolc("schema")
    assert json.loads(tools.stdout)["title"] == "toolc tools.yaml"
    policies = run_toolc("schema", "--policies")
    assert json.loads(policies.stdout)["title"] == "toolc tool_policies.yaml"
    where = run_toolc("schema", "--path")
    assert (
        Path(where.stdout.strip()).name == "tools.schema.json"
        and Path(where.stdout.strip()).is_file()
    )


def test_internal_error_is_reported_as_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolc import cli

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr("toolc.verbs.compile_config", boom)
    monkeypatch.setattr("toolc.verbs.build", boom)
    assert cli.run(["check", str(CLEAN)]) == 70
    err = capsys.readouterr().err
    assert "internal error" in err and "bug in toolc" in err and "Traceback" not in err


@pytest.mark.parametrize("out", ["..", ".", "../..", "gen/../.."])
def test_an_output_that_would_hold_the_project_is_refused(tmp_path: Path, out: str) -> None:
    """Each build replaces the output directory whole: the config's folder or an ancestor of it
    is refused before anything is written (`out = ".."` used to exit 70)."""
    project = tmp_path / "team" / "proj"
    shutil.copytree(CLEAN, project, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    before = sorted(p.name for p in tmp_path.rglob("*"))
    flag = run_toolc(
        "build", ".", "--out", out, "--snapshot", str(tmp_path / "s.json"), cwd=project
    )
    assert flag.returncode == 2 and "--out: the output directory" in flag.stderr
    assert "would hold the config directory" in flag.stderr and "internal error" not in flag.stderr
    (project / "pyproject.toml").write_text(f'[tool.toolc]\nstrict = false\nout = "{out}"\n')
    setting = run_toolc("build", ".", cwd=project)
    assert setting.returncode == 2
    assert f"{project / 'pyproject.toml'}:3:1: the output directory" in setting.stderr
    (project / "pyproject.toml").unlink()
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_deleted_working_directory_is_a_usage_error(tmp_path: Path) -> None:
    """Every relative path fails once the working directory is gone: a message that says so
    and status 2, not an internal error; `--version` needs no folder and still answers."""
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (
        "import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]);"
        "sys.argv = ['toolc', *sys.argv[2:]];"
        "from toolc.entry import main; main()"
    )
    out = ["--out", str(tmp_path / "out" / "pkg"), "--snapshot", str(tmp_path / "snap.json")]
    done = subprocess.run(
        [sys.executable, "-c", script, str(gone), "build", str(CLEAN), *out],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("toolc: the working directory no longer exists"), done.stderr
    gone.mkdir()
    version = subprocess.run(
        [sys.executable, "-c", script, str(gone), "--version"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert version.returncode == 0 and version.stdout.strip() == f"toolc {__version__}"


def test_strict_failure_is_not_summed_up_as_ok(tmp_path: Path) -> None:
    """`check --strict` on a config with warnings exited 1 under a summary that began "ok"."""
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  get_order:\n    version: 1.0.0\n"
        "    description: Looks up one order; returns `colour`.\n"
        "    mcp_server: shop\n    tool_type: query\n"
        "    returns: {type: object, properties: {status: {type: string}}}\n",
        encoding="utf-8",
    )
    lenient = run_toolc("check", str(tmp_path))
    assert lenient.returncode == 0 and ": ok: 1 tool(s), 0 error(s), 1 warning(s)" in lenient.stderr
    for verb in ("check", "build"):
        strict = run_toolc(verb, "--strict", str(tmp_path))
        assert strict.returncode == 1, strict.stderr
        summary = strict.stderr.strip().splitlines()[-1]
        assert summary.endswith(
            "0 error(s), 1 warning(s), failed: --strict counts warnings as errors"
        )
        assert "ok" not in summary.split(": ", 1)[1], summary


def test_a_tab_after_a_dash_is_not_called_indentation(tmp_path: Path) -> None:
    """`-\tx` is separation, not indentation: the message said indentation, which the line
    shows it is not, and YAML 1.2 allows it; it says what toolc's reader takes."""
    (tmp_path / "tools.yaml").write_text("tools:\n  t:\n    requires:\n    -\tx\n")
    result = run_toolc("check", str(tmp_path))
    assert "tools.yaml:4:6: error[yaml-tab-indent]: tab character after `-`" in result.stderr
    assert "hint: replace the tab with a space" in result.stderr


@pytest.mark.parametrize("end", ["\n", "\r"], ids=["lf", "cr"])
def test_a_control_character_is_placed_in_characters(tmp_path: Path, end: str) -> None:
    """libyaml gives the place in bytes: after two accented letters it was two columns off,
    and lines ended by CR alone were counted as one."""
    text = end.join(["tools:", "  a:", '    description: "éé\x1b"', ""])
    (tmp_path / "tools.yaml").write_bytes(text.encode("utf-8"))
    result = run_toolc("check", "--no-cache", str(tmp_path))
    assert "tools.yaml:3:21: error[yaml-syntax]: character '\\x1b'" in result.stderr, result.stderr
    assert "hint: remove it, or write it as an escape" in result.stderr


def test_docs_help_gives_its_own_default() -> None:
    """`toolc docs` writes DIR/docs without a setting; its help said the default was none."""
    shown = " ".join(run_toolc("docs", "--help").stdout.split())
    assert (
        "--docs-out DIRECTORY Where the pages go. Default: the docs_out setting, else DIR/docs."
        in shown
    )


def test_a_proxied_tool_is_not_told_to_ask_for_confirmation(tmp_path: Path) -> None:
    """The hint said `confirmation_required: true`, which proxy-envelope-feature refuses
    for a proxied tool."""
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n"
        "    tool_type: action\n    args_schema: {}\n"
        "    proxy: {tool: t, command: [origin]}\n"
    )
    result = run_toolc("check", str(tmp_path))
    assert "warning[transactional-without-confirmation]" in result.stderr, result.stderr
    assert "confirmation_required: true" not in result.stderr
    assert "a proxied tool cannot ask" in " ".join(result.stderr.split())
