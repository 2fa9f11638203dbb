"""The pre-commit hooks this repository ships (.pre-commit-hooks.yaml), run by the real pre-commit
as a user's project runs them: pre-commit installs toolc from a git repository into its own
environment, `toolc-check` refuses a commit whose generated output is stale, and `toolc-build`
regenerates it (the commit stops so the changed files can be reviewed), then stays quiet."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "examples"
# What building toolc from a checkout needs (pyproject's wheel and its force-include).
SHIPPED = (
    "pyproject.toml",
    "README.md",
    ".pre-commit-hooks.yaml",
    "compiler",
    "schemas",
    "templates",
)
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _repo(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    _git(path, "init", "-q", "-b", "main")
    _git(path, "config", "user.email", "test@example.com")
    _git(path, "config", "user.name", "test")
    _git(path, "config", "commit.gpgsign", "false")


def _commit(path: Path, message: str) -> subprocess.CompletedProcess[str]:
    _git(path, "add", "-A")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=path, capture_output=True,
                          text=True, env=os.environ | {"PATH": _path()})  # fmt: skip


def _path() -> str:
    # `git commit` runs the installed hook script, which finds pre-commit beside this Python.
    return f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("pre-commit")
    hooks = base / "toolc"
    _repo(hooks)
    for name in SHIPPED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, hooks / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, hooks / name)
    _git(hooks, "add", "-A")
    _git(hooks, "commit", "-q", "-m", "toolc")
    rev = _git(hooks, "rev-parse", "HEAD")

    work = base / "project"
    _repo(work)
    shutil.copytree(
        EXAMPLES_DIR / "retail",
        work / "config",
        ignore=shutil.ignore_patterns("generated", "mcp-tools.json"),
    )
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_uri()}\n    rev: {rev}\n    hooks:\n"
        "      - {id: toolc-build, args: [config]}\n      - {id: toolc-check, args: [config]}\n",
        encoding="utf-8",
    )
    _git(work, "add", "-A")  # pre-commit judges the files git knows
    env = os.environ | {"PRE_COMMIT_HOME": str(base / "home"), "PATH": _path()}
    env.pop("VIRTUAL_ENV", None)
    return work, env


def _run(work: Path, env: dict[str, str], hook: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PRE_COMMIT, "run", hook, "--all-files"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip


def test_the_hooks_gate_and_regenerate_a_projects_output(
    project: tuple[Path, dict[str, str]],
) -> None:
    work, env = project
    # Nothing built yet: the build hook writes the output. New files are not tracked, so
    # pre-commit has nothing to call modified (its rule for every hook); the user adds them.
    first = _run(work, env, "toolc-build")
    assert first.returncode == 0, first.stdout
    assert (work / "config" / "generated" / "mcp_tools" / "tools.json").is_file()
    assert (work / "config" / "mcp-tools.json").is_file()
    _git(work, "add", "-A")
    again = _run(work, env, "toolc-build")
    assert again.returncode == 0 and "Passed" in again.stdout, again.stdout
    checked = _run(work, env, "toolc-check")
    assert checked.returncode == 0 and "Passed" in checked.stdout, checked.stdout

    # A described change committed without its build: the check hook refuses the commit.
    subprocess.run([*PRE_COMMIT, "install", "-t", "pre-commit"], cwd=work, env=env, check=True,
                   capture_output=True)  # fmt: skip
    assert _commit(work, "config and output").returncode == 0
    tools = work / "config" / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    edited = text.replace("Cancela um ou mais pedidos.", "Cancela pedidos.").replace(
        "version: 2.0.0", "version: 2.0.1", 1
    )
    assert edited != text
    tools.write_text(edited, encoding="utf-8")
    refused = _run(work, env, "toolc-check")
    assert refused.returncode == 1 and "error[output-changed]" in refused.stdout, refused.stdout
    # The commit runs both hooks: the build regenerates the output and stops it for review.
    stopped = _commit(work, "description only")
    assert stopped.returncode == 1, stopped.stdout
    assert "files were modified by this hook" in stopped.stdout + stopped.stderr
    assert "Cancela pedidos." in (
        work / "config" / "generated" / "mcp_tools" / "tools.json"
    ).read_text(encoding="utf-8")
    # Reviewed and added, the same commit goes through; the hooks have nothing left to do.
    done = _commit(work, "description and output")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _run(work, env, "toolc-build").returncode == 0
