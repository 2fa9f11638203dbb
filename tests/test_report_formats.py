"""Every `--format` carries hostile text as data (an output-format review's findings): a
message holding escape sequences, line breaks, HTML, pipes, backticks and characters XML
cannot hold; a folder whose name is no UTF-8; several lines under one span. Machine formats
own stdout, in one document, parseable by what reads them; text on a terminal is shown,
never obeyed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import run_toolc
from test_sarif import _valid_sarif
from toolc.diagnostics.sarif import _uri

HOSTILE = (
    '"\\e[2K\\rall good\\nfake.yaml:1:1: error[forged]: \\u2028 <img src=x> | & \\uFFFE `tick`"'
)
TOOLS = f"""\
tools:
  a_tool:
    version: 1.0.0
    description: Looks up a thing.
    mcp_server: s
    tool_type: query
    args_schema:
      x: {{type: string, format: {HOSTILE}}}
"""


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    (tmp_path / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    return tmp_path


def _toolc(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """toolc with its output as bytes: what is written is judged, not decoded leniently."""
    exe = Path(sys.executable).parent / "toolc"
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, timeout=120)


def test_text_shows_control_characters_and_indents_a_message_s_lines(hostile: Path) -> None:
    done = _toolc("check", ".", cwd=hostile)
    assert b"\x1b" not in done.stderr and b"\r" not in done.stderr
    lines = done.stderr.decode("utf-8").splitlines()
    assert not any(line.startswith("fake.yaml") for line in lines), lines
    assert any(line.startswith("    fake.yaml:1:1: error[forged]") for line in lines), lines


def test_machine_formats_parse_and_keep_the_text(hostile: Path) -> None:
    out = {
        fmt: _toolc("check", "--format", fmt, ".", cwd=hostile).stdout.decode("utf-8")
        for fmt in ("json", "markdown", "junit", "github", "sarif")
    }
    (row,) = out["json"].splitlines()  # U+2028 escaped: one line still
    assert "\\u2028" in row and "error[forged]" in json.loads(row)["message"]
    suite = ET.fromstring(out["junit"])  # U+FFFE is no XML character
    assert "error[forged]" in suite.find(".//system-out").text  # type: ignore[union-attr]
    _valid_sarif(out["sarif"])
    (table_row,) = [line for line in out["markdown"].split("\n") if "unknown-format" in line]
    assert "<img" not in table_row and "&lt;img src=x&gt;" in table_row
    assert "\\| &amp;" in table_row and "\x1b" not in table_row and "\r" not in table_row
    assert table_row.count(" | ") == 3  # four cells, no more (the message's pipe escaped)
    assert out["github"].count("\n") == 1 and "%0D" in out["github"]


def test_a_folder_name_that_is_no_utf_8_is_written_as_valid_utf_8(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path) + b"/bad\xffdir"
    os.mkdir(folder)
    with open(folder + b"/tools.yaml", "w", encoding="utf-8") as f:
        f.write("tools:\n  Bad Name: {}\n")
    for fmt in ("text", "json", "markdown", "junit", "github", "sarif"):
        done = _toolc("check", "--format", fmt, b"bad\xffdir", cwd=tmp_path)
        assert done.returncode == 1, (fmt, done.stderr)
        said = (done.stdout if fmt != "text" else done.stderr).decode("utf-8")  # strict
        assert "bad\N{REPLACEMENT CHARACTER}dir/tools.yaml" in said or fmt == "sarif", said
        if fmt == "sarif":
            run = _valid_sarif(said)["runs"][0]
            places = {
                loc["physicalLocation"]["artifactLocation"]["uri"]
                for r in run["results"]
                for loc in r["locations"]
            }
            assert places == {"bad%FFdir/tools.yaml"}  # the name's own byte
        if fmt == "json":
            assert all(json.loads(line) for line in said.splitlines())
        if fmt == "junit":
            ET.fromstring(said)


def test_check_diff_beside_a_machine_format_leaves_stdout_to_the_report(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(TOOLS.split("    args_schema:")[0], encoding="utf-8")
    assert run_toolc("build", ".", cwd=tmp_path).returncode == 0
    with (tmp_path / "generated" / "mcp_tools" / "tools.json").open("a") as f:
        f.write("# edited\n")
    done = run_toolc("check", "--diff", "--format", "sarif", ".", cwd=tmp_path)
    assert done.returncode == 1
    run = _valid_sarif(done.stdout)["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["output-changed"]
    assert "+++ b/tools.json" in done.stderr and "-# edited" in done.stderr
    text = run_toolc("check", "--diff", ".", cwd=tmp_path)
    assert "-# edited" in text.stdout  # on its own, the diff is what was asked for


def test_import_and_init_print_one_report_when_nothing_can_be_written(tmp_path: Path) -> None:
    listing = tmp_path / "list.json"
    listing.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}))
    (tmp_path / "afile").write_text("x")
    for args in (
        ("import", str(listing), "--out", "afile/sub"),
        ("init", "afile/sub", "--from", str(listing)),
    ):
        done = run_toolc(*args, "--format", "sarif", cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        run = _valid_sarif(done.stdout)["runs"][0]  # one document: json.loads takes it whole
        assert run["results"], args
        junit = run_toolc(*args, "--format", "junit", cwd=tmp_path).stdout
        assert junit.count("<?xml") == 1
        ET.fromstring(junit)


def test_init_without_a_source_still_reports_in_a_machine_format(tmp_path: Path) -> None:
    done = run_toolc("init", "new", "--format", "sarif", cwd=tmp_path)
    assert done.returncode == 0 and _valid_sarif(done.stdout)["runs"][0]["results"] == []
    again = run_toolc("init", "new", "--format", "sarif", cwd=tmp_path)
    assert again.returncode == 1
    [refused, *_] = _valid_sarif(again.stdout)["runs"][0]["results"]  # the report says why
    assert "never overwrites" in refused["message"]["text"]
    junit = ET.fromstring(run_toolc("init", "new", "--format", "junit", cwd=tmp_path).stdout)
    assert junit.get("failures") != "0"


def test_under_strict_a_warning_fails_the_junit_case_too(hostile: Path) -> None:
    done = run_toolc("check", "--strict", "--format", "junit", ".", cwd=hostile)
    assert done.returncode == 1
    suite = ET.fromstring(done.stdout)
    assert suite.get("failures") == "1" and suite.find(".//failure") is not None
    relaxed = ET.fromstring(run_toolc("check", "--format", "junit", ".", cwd=hostile).stdout)
    assert relaxed.get("failures") == "0"
    markdown = run_toolc("check", "--strict", "--format", "markdown", ".", cwd=hostile).stdout
    assert "failed: --strict counts warnings as errors" in markdown


def test_github_gives_columns_only_within_one_line(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text("tools:\n  t:\n    - a\n    - b\n")
    done = run_toolc("check", "--format", "github", ".", cwd=tmp_path)
    spanning = [line for line in done.stdout.splitlines() if "line=3," in line]
    assert spanning and all("col=" not in line and "endColumn=" not in line for line in spanning)
    assert "endLine=" in spanning[0]


def test_junit_cases_at_one_place_with_one_code_are_told_apart(tmp_path: Path) -> None:
    # one tool missing two keys: two missing-key findings at its name
    (tmp_path / "tools.yaml").write_text("tools:\n  t:\n    version: 1.0.0\n    description: d\n")
    suite = ET.fromstring(run_toolc("check", "--format", "junit", ".", cwd=tmp_path).stdout)
    names = [(c.get("classname"), c.get("name")) for c in suite.iter("testcase")]
    assert ("config", "tools.yaml:2:3 missing-key (2)") in names
    assert len(names) == len(set(names)) >= 2, names


@pytest.mark.parametrize(
    ("path", "uri"),
    [("win\\dir/tools.yaml", "win%5Cdir/tools.yaml"), ("C:/x/tools.yaml", "C%3A/x/tools.yaml")],
)
def test_windows_path_rules_only_on_windows(path: str, uri: str, monkeypatch: Any) -> None:
    if os.name == "nt":
        pytest.skip("POSIX names")
    assert _uri(path) == uri


def test_diff_carries_the_values_it_quotes_as_data(tmp_path: Path) -> None:
    """`toolc diff` quotes enum values: a line separator stays escaped in its JSON lines,
    an escape sequence is not obeyed in its text, HTML is inert in its Markdown."""
    tools = TOOLS.split("    args_schema:")[0] + "    args_schema:\n      x: {enum: [a]}\n"
    (tmp_path / "tools.yaml").write_text(tools, encoding="utf-8")
    assert run_toolc("build", ".", cwd=tmp_path).returncode == 0
    changed = tools.replace("enum: [a]", 'enum: [a, "b\\u2028\\e[2K<img src=x>"]')
    (tmp_path / "tools.yaml").write_text(changed, encoding="utf-8")
    lines = _toolc("diff", "--format", "json", ".", cwd=tmp_path).stdout.decode().split("\n")
    assert all(json.loads(line) for line in lines if line)  # each line one value
    assert len([line for line in lines if line]) == len(
        _toolc("diff", "--format", "json", ".", cwd=tmp_path).stdout.decode().splitlines()
    )
    text = _toolc("diff", ".", cwd=tmp_path).stdout
    assert b"\x1b" not in text and b"input-enum-value-added" in text
    markdown = _toolc("diff", "--format", "markdown", ".", cwd=tmp_path).stdout.decode()
    assert "<img" not in markdown and "&lt;img" in markdown


LIVE_SERVER = """\
import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

PATTERN = {"type": "string", "pattern": "b["}
TOOLS = [
    types.Tool(name="fine", description="Fine.", input_schema={"type": "object"}),
    types.Tool(name="refused", description="Refused.",
               input_schema={"type": "object", "properties": {"a": PATTERN}}),
]


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=TOOLS)


async def main():
    server = Server("live", version="1", on_list_tools=list_tools)
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())

anyio.run(main)
"""


def test_a_live_listing_is_a_source_without_lines(tmp_path: Path) -> None:
    """A live server's tools/list has no lines: it was printed `tools/list of CMD:1:1:`, as
    if a file of that name held the tool on its first line."""
    (tmp_path / "srv.py").write_text(LIVE_SERVER, encoding="utf-8")
    shown = f"tools/list of {sys.executable} srv.py"

    def imported(fmt: str, out: str) -> str:
        args = ("import", "--out", out, "--format", fmt, "--stdio", "--", sys.executable, "srv.py")
        done = _toolc(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return (done.stderr if fmt == "text" else done.stdout).decode("utf-8")

    text = imported("text", "a")
    assert f"{shown}: warning[import-tool-skipped]: tool 'refused'" in text, text
    (row,) = [json.loads(line) for line in imported("json", "b").splitlines() if "{" in line]
    assert (row["path"], row["line"], row["column"]) == (shown, 0, 0)
    (annotation,) = imported("github", "c").splitlines()[:1]
    assert annotation.startswith("::warning title=import-tool-skipped::tools/list of ")
    sarif = json.loads(imported("sarif", "d"))
    _valid_sarif(json.dumps(sarif))
    (result,) = sarif["runs"][0]["results"]
    assert "region" not in result["locations"][0]["physicalLocation"]
    assert f"`{shown}`" in imported("markdown", "e")
