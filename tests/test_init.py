"""`toolc init`: the starting config builds clean under --strict, its editor schemas are where its
modelines say, the CI workflow and the pre-commit hook it writes work (the hook run by the real
pre-commit), and nothing a user already has is overwritten."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import toolc
import yaml
from conftest import ROOT, run_toolc
from toolc.verbs import init as init_verb


def _git_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    return path


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def test_a_new_project_builds_clean_and_its_hooks_work(tmp_path: Path) -> None:
    repo = _git_repo(tmp_path / "repo")
    done = run_toolc("init", "tools", cwd=repo)
    assert done.returncode == 0, done.stderr
    config = repo / "tools"
    assert set(_files(repo)) == {
        "tools/tools.yaml", "tools/tool_policies.yaml", "tools/pyproject.toml",
        "tools/.toolc/tools.schema.json", "tools/.toolc/tool_policies.schema.json",
        ".github/workflows/toolc.yml", ".pre-commit-config.yaml",
    }  # fmt: skip
    for name, schema in (("tools.yaml", "tools"), ("tool_policies.yaml", "tool_policies")):
        modeline = (config / name).read_text(encoding="utf-8").splitlines()[0]
        target = modeline.split("$schema=", 1)[1]
        shipped = ROOT / "schemas" / f"{schema}.schema.json"
        assert (config / target).read_bytes() == shipped.read_bytes()
    assert tomllib.loads((config / "pyproject.toml").read_text())["tool"]["toolc"] == {}
    for verb in ("check", "build", "check"):
        step = run_toolc(verb, "--strict", str(config))
        assert step.returncode == 0, step.stderr
    assert "2 tool(s)" in step.stderr and "no problems" in step.stderr

    workflow = yaml.safe_load((repo / ".github" / "workflows" / "toolc.yml").read_text())
    command = workflow["jobs"]["check"]["steps"][-1]["run"]
    assert command == "toolc check tools --against origin/${{ github.base_ref }} --format github"
    # the toolc that wrote it, pinned: `pip install toolc` took whatever toolc came (0145)
    install = workflow["jobs"]["check"]["steps"][-2]["run"]
    assert install == f"pip install toolc=={toolc.__version__}"

    env = os.environ | {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit")}  # fmt: skip
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    hook = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    passed = subprocess.run(hook, cwd=repo, env=env, capture_output=True, text=True)
    assert passed.returncode == 0 and "toolc check" in passed.stdout, passed.stdout
    tools = config / "tools.yaml"
    edited = tools.read_text().replace("for today and the next days", "for a week")
    tools.write_text(edited.replace("version: 1.0.0", "version: 1.0.1", 1))  # bumped, not built
    failed = subprocess.run(hook, cwd=repo, env=env, capture_output=True, text=True)
    assert failed.returncode == 1 and "output-changed" in failed.stdout, failed.stdout


def test_an_existing_config_is_never_overwritten(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    assert run_toolc("init", str(config)).returncode == 0
    (config / "tool_policies.yaml").unlink()
    before = _files(tmp_path)
    again = run_toolc("init", str(config))
    assert again.returncode == 1
    assert "tools.yaml exists, and init never overwrites a config" in again.stderr
    assert _files(tmp_path) == before  # not even the missing policies file


def test_a_pyproject_gains_the_section_and_keeps_its_text(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    original = '[project]\nname = "weather"\nversion = "1.0"'  # no final newline
    (config / "pyproject.toml").write_text(original)
    assert run_toolc("init", str(config)).returncode == 0
    text = (config / "pyproject.toml").read_text()
    assert text.startswith(original + "\n\n[tool.toolc]\n")
    document = tomllib.loads(text)
    assert document["project"]["name"] == "weather" and document["tool"]["toolc"] == {}


@pytest.mark.parametrize("existing", ["[tool.toolc]\nstrict = true\n", "[tool. toolc ]\n"])
def test_a_pyproject_with_the_section_is_kept(tmp_path: Path, existing: str) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "pyproject.toml").write_text(existing)
    done = run_toolc("init", str(config))
    assert done.returncode == 0 and "kept" in done.stderr and "pyproject.toml" in done.stderr
    assert (config / "pyproject.toml").read_text() == existing


def test_outside_git_everything_goes_in_the_folder(tmp_path: Path) -> None:
    done = run_toolc("init", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".pre-commit-config.yaml").is_file()
    assert "entry: toolc check .\n" in (tmp_path / ".pre-commit-config.yaml").read_text()


@pytest.mark.parametrize(
    ("direct_url", "wanted"),
    [
        ('{"url": "https://github.com/o/toolc", "vcs_info": {"vcs": "git", "commit_id": "abc"}}',
         "toolc @ git+https://github.com/o/toolc@abc"),
        ('{"url": "file:///home/me/toolc", "dir_info": {"editable": true}}', "toolc==X"),
        (None, "toolc==X"),
    ],
)  # fmt: skip
def test_ci_installs_the_toolc_that_wrote_it(
    monkeypatch: pytest.MonkeyPatch, direct_url: str | None, wanted: str
) -> None:
    """A git install is installed from its revision; a local or an index install by its
    version (a local path means nothing on the CI machine)."""

    class Installed:
        def read_text(self, name: str) -> str | None:
            return direct_url if name == "direct_url.json" else None

    monkeypatch.setattr(init_verb.metadata, "distribution", lambda name: Installed())
    wanted = wanted.replace("X", toolc.__version__)
    assert init_verb.install_requirement() == wanted
