"""`toolc init` around what the user has: a pyproject.toml that configures toolc, however its
TOML spells it, is kept; one that is no TOML, or whose `tool` no section can extend, stops init
with the file's line and column; a write the system refuses (a file where a folder goes, a
folder where pyproject.toml goes) is an `io-error`, and nothing at all is written. The config
folder is quoted for the shell and for YAML in the workflow and the pre-commit hook."""

from __future__ import annotations

import json
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from conftest import run_toolc


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
        if ".git" not in p.relative_to(root).parts[:1] or p.name == ".github"
    }


def _git_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    return path


@pytest.mark.parametrize(
    "existing",
    [
        "[tool]\ntoolc.strict = true\n",
        '[tool."toolc"]\n',
        "[tool.black]\nline-length = 100\n\n[tool. 'toolc' ]\nstrict = true\n",
        'tool.toolc = {out = "gen/pkg"}\n',
    ],
)
def test_toolc_configured_in_any_spelling_is_kept(tmp_path: Path, existing: str) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "pyproject.toml").write_text(existing)
    done = run_toolc("init", str(config))
    assert done.returncode == 0, done.stderr
    assert f"kept {config / 'pyproject.toml'} as it is" in done.stderr
    assert (config / "pyproject.toml").read_text() == existing
    assert run_toolc("check", str(config)).returncode == 0  # its settings still read


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[project]\nname = "x"\nversion =\n', "pyproject.toml:3:10: "),
        ("[project]\n\n[project]\n", "pyproject.toml:3:"),
        ("tool = {black = {}}\n", "no table a [tool.toolc] section can extend"),
        ("tool = 1\n", "no table a [tool.toolc] section can extend"),
    ],
)
def test_a_pyproject_init_cannot_add_to_stops_it(tmp_path: Path, text: str, said: str) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "pyproject.toml").write_text(text)
    done = run_toolc("init", str(config))
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert said in done.stderr and "nothing written" in done.stderr
    assert _tree(tmp_path) == {"cfg": None, "cfg/pyproject.toml": text.encode()}


def test_a_folder_named_pyproject_toml_is_an_io_error(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    (config / "pyproject.toml").mkdir(parents=True)
    done = run_toolc("init", str(config))
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[io-error]" in done.stderr and "cannot read" in done.stderr
    assert _tree(tmp_path) == {"cfg": None, "cfg/pyproject.toml": None}


def test_a_file_where_a_folder_goes_writes_nothing(tmp_path: Path) -> None:
    repo = _git_repo(tmp_path / "repo")
    (repo / ".github").write_text("mine")  # the workflow goes in .github/workflows
    listing = tmp_path / "listing.json"
    listing.write_text(
        json.dumps([{"name": "t", "description": "T.", "inputSchema": {"type": "object"}}])
    )
    done = run_toolc("init", "cfg", "--from", str(listing), "--server", "s", cwd=repo)
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[io-error]" in done.stderr and ".github is a file, not a directory" in done.stderr
    assert _tree(repo) == {".github": b"mine"}  # not the config, not pyproject.toml


@pytest.mark.parametrize(
    "folder",
    ['my cfg #1: it\'s "x" $HOME', "cfg \U0001f600 \u2028 line"],  # an astral character read
    ids=["quotes", "unicode"],  # back as two lone surrogates from JSON's escapes
)
def test_the_config_folder_is_quoted_for_the_shell_and_for_yaml(
    tmp_path: Path, folder: str
) -> None:
    repo = _git_repo(tmp_path / "repo")
    done = run_toolc("init", folder, cwd=repo)
    assert done.returncode == 0, done.stderr
    workflow = yaml.safe_load((repo / ".github" / "workflows" / "toolc.yml").read_text())
    run = shlex.split(workflow["jobs"]["check"]["steps"][-1]["run"])
    assert run[:3] == ["toolc", "check", folder] and run[3] == "--against"
    hooks = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text())
    assert shlex.split(hooks["repos"][0]["hooks"][0]["entry"]) == ["toolc", "check", folder]
    assert tomllib.loads((repo / folder / "pyproject.toml").read_text())["tool"]["toolc"] == {}
