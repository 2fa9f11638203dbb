"""A symbolic link in a loop at tools.yaml or tool_policies.yaml is refused as a link to nothing
is (`not-a-file`, exit 1), not an internal error: showing the path resolved it, and Python 3.11
resolves a loop to a RuntimeError."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_toolc

TOOL = """\
tools:
  t:
    version: 1.0.0
    description: Acts.
    mcp_server: s
    tool_type: action
"""


@pytest.mark.parametrize("name", ["tools.yaml", "tool_policies.yaml"])
@pytest.mark.parametrize("loop", ["itself", "through-another"])
def test_a_link_in_a_loop_is_a_located_error(tmp_path: Path, name: str, loop: str) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(TOOL, encoding="utf-8")
    assert run_toolc("build", ".", cwd=config).returncode == 0  # warm the cache and the output
    target = config / name
    target.unlink(missing_ok=True)
    if loop == "itself":
        target.symlink_to(name)
    else:  # name -> other.yaml -> name
        target.symlink_to("other.yaml")
        (config / "other.yaml").symlink_to(name)
    for command in ("check", "build"):
        for where, cwd, shown in ((".", config, name), (str(config), tmp_path, f"config/{name}")):
            result = run_toolc(command, where, cwd=cwd)
            assert result.returncode == 1, (command, where, result.stderr)
            assert result.stderr.startswith(
                f"{shown}:1:1: error[not-a-file]: {name} is a symbolic link in a loop\n"
                "  = hint: point the link at the file, or replace it with the file\n"
            ), (command, where, result.stderr)


@pytest.mark.parametrize(
    ("option", "value", "what"),
    [("--out", "lp/mcp_tools", "output directory"), ("--snapshot", "lp/s.json", "snapshot"),
     ("--docs-out", "lp/docs", "docs directory")],
)  # fmt: skip
def test_a_link_in_a_loop_on_an_output_path_is_a_usage_error(
    tmp_path: Path, option: str, value: str, what: str
) -> None:
    (tmp_path / "tools.yaml").write_text(TOOL, encoding="utf-8")
    (tmp_path / "lp").symlink_to("lp")
    for verb in ("build", "check"):
        done = run_toolc(verb, ".", option, value, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert f"the {what} {value} cannot be reached: a symbolic link" in done.stderr
        assert "internal error" not in done.stderr
