"""Issue 16: a no-op `toolc build` ends before the CLI loads, from the ticket the last run of
the same command line in the same folder left (cache.noop_ticket). It must say exactly what
the CLI says, and give way to the CLI whenever anything the CLI resolved may have changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

EXE = Path(sys.executable).parent / "toolc"
# Modules the fast path must not need: the CLI's, and the heavy ones it loads.
HEAVY = ("click", "toolc.cli", "pathlib", "typing", "orjson", "msgspec", "json")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[str, str, int, set[str]]:
    """stdout, stderr without the import report, the status, and the modules imported."""
    environment = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", **(env or {})}
    done = subprocess.run(
        [str(EXE), *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=120
    )
    report = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    said = "".join(
        line + "\n" for line in done.stderr.splitlines() if not line.startswith("import time:")
    )
    imported = {line.rpartition("|")[2].strip() for line in report}
    return done.stdout, said, done.returncode, imported


def fast(imported: set[str]) -> bool:
    return not imported & set(HEAVY)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLC_CACHE_DIR", str(tmp_path / "cache"))  # this test's tickets alone
    folder = tmp_path / "project"
    shutil.copytree(
        ROOT / "examples" / "retail",
        folder / "cfg",
        ignore=shutil.ignore_patterns("generated", "mcp-tools.json"),
    )
    return folder


def tickets() -> list[Path]:
    return sorted(Path(os.environ["TOOLC_CACHE_DIR"]).glob("noop-*"))


ARGS = ("build", "cfg", "--out", "out/pkg", "--snapshot", "snap.json")


def test_a_no_op_ends_before_the_cli_and_says_what_the_cli_says(project: Path) -> None:
    _, said, status, imported = run(*ARGS, cwd=project)
    assert status == 0 and "wrote" in said and not fast(imported), said
    answer = run(*ARGS, cwd=project)
    assert answer[1] == "toolc build cfg: up to date (out/pkg)\n"
    assert answer[0] == "" and answer[2] == 0 and fast(answer[3]), answer[3] & set(HEAVY)
    for ticket in tickets():
        ticket.unlink()
    by_the_cli = run(*ARGS, cwd=project)
    assert not fast(by_the_cli[3])
    assert by_the_cli[:3] == answer[:3]  # byte for byte, and it left the ticket again
    assert fast(run(*ARGS, cwd=project)[3])


def test_another_command_line_or_folder_has_its_own_ticket(project: Path) -> None:
    assert run(*ARGS, cwd=project)[2] == 0
    assert fast(run(*ARGS, cwd=project)[3])
    spelled = ("build", "./cfg", "--out", "out/pkg", "--snapshot", "snap.json")
    first = run(*spelled, cwd=project)
    assert first[1] == "toolc build cfg: up to date (out/pkg)\n" and not fast(first[3])
    inside = ("build", ".", "--out", "../out/pkg", "--snapshot", "../snap.json")
    elsewhere = run(*inside, cwd=project / "cfg")
    outside = (project / "out" / "pkg").resolve()  # not below the folder: shown whole
    assert elsewhere[1] == f"toolc build .: up to date ({outside})\n"
    assert not fast(elsewhere[3])
    assert fast(run(*inside, cwd=project / "cfg")[3])


def test_a_changed_setting_goes_to_the_cli(project: Path) -> None:
    """The nearest pyproject.toml is read by the CLI: edited, or a new one nearer the config,
    the ticket no longer holds."""
    plain = ("build", "cfg")
    (project / "pyproject.toml").write_text("[tool.toolc]\n")
    assert run(*plain, cwd=project)[2] == 0
    assert fast(run(*plain, cwd=project)[3])
    (project / "pyproject.toml").write_text('[tool.toolc]\nout = "built/pkg"\n')
    moved = run(*plain, cwd=project)
    assert "wrote built/pkg" in moved[1] and not fast(moved[3]), moved[1]
    assert fast(run(*plain, cwd=project)[3])
    (project / "cfg" / "pyproject.toml").write_text('[tool.toolc]\nout = "near/pkg"\n')
    nearer = run(*plain, cwd=project)
    assert "wrote cfg/near/pkg" in nearer[1] and not fast(nearer[3]), nearer[1]


def test_a_link_that_leads_elsewhere_goes_to_the_cli(project: Path) -> None:
    (project / "a").mkdir()
    (project / "b").mkdir()
    (project / "link").symlink_to("a")
    linked = ("build", "cfg", "--out", "link/pkg", "--snapshot", "snap.json")
    assert run(*linked, cwd=project)[2] == 0
    assert fast(run(*linked, cwd=project)[3])
    (project / "link").unlink()
    (project / "link").symlink_to("b")
    again = run(*linked, cwd=project)
    assert "wrote b/pkg" in again[1] and not fast(again[3]), again[1]
    assert (project / "b" / "pkg" / "server.py").is_file()


def test_a_hand_edit_or_a_new_input_goes_to_the_cli(project: Path) -> None:
    assert run(*ARGS, cwd=project)[2] == 0
    server = project / "out" / "pkg" / "server.py"
    server.write_text(server.read_text() + "# mine\n")
    restored = run(*ARGS, cwd=project)
    assert "wrote" in restored[1] and not fast(restored[3]) and "# mine" not in server.read_text()
    tools = project / "cfg" / "tools.yaml"
    tools.write_text(tools.read_text() + "\n")
    assert "wrote" in run(*ARGS, cwd=project)[1]
    assert fast(run(*ARGS, cwd=project)[3])


def test_a_forged_ticket_or_another_home_goes_to_the_cli(project: Path) -> None:
    assert run(*ARGS, cwd=project)[2] == 0
    (ticket,) = tickets()
    mac, _, body = ticket.read_bytes().partition(b"\n")
    ticket.write_bytes(mac + b"\n" + body.replace(b"out/pkg", b"out/pkX"))
    forged = run(*ARGS, cwd=project)
    assert forged[1] == "toolc build cfg: up to date (out/pkg)\n" and not fast(forged[3])
    assert fast(run(*ARGS, cwd=project)[3])
    elsewhere = run(*ARGS, cwd=project, env={"HOME": str(project / "out" / "pkg")})
    assert elsewhere[2] == 2 and "your home directory" in elsewhere[1], elsewhere[1]


def test_strict_targets_and_no_cache_leave_no_ticket(project: Path) -> None:
    """Each of them reports or rebuilds what a no-op would skip: the CLI always runs them."""
    assert run(*ARGS, cwd=project)[2] == 0 and len(tickets()) == 1
    for extra in (("--strict",), ("--no-cache",), ("--target", "mcp")):
        for ticket in tickets():
            ticket.unlink()
        run(*ARGS, *extra, cwd=project)
        assert tickets() == [], extra


def test_the_cli_skips_the_check_the_fast_path_refused(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit the fast path has checked already: the CLI builds without checking
    again, and only when it resolved the same arguments."""
    from toolc.cache import noop_ticket, uptodate
    from toolc.cli import run as run_cli

    monkeypatch.chdir(project)
    argv = list(ARGS)
    monkeypatch.setattr(noop_ticket, "command_line", argv)
    assert run_cli(argv) == 0
    assert noop_ticket.up_to_date(argv) == "toolc build cfg: up to date (out/pkg)"
    tools = project / "cfg" / "tools.yaml"
    tools.write_text(tools.read_text() + "\n")
    assert noop_ticket.up_to_date(argv) is None and noop_ticket.refused is not None
    checks: list[object] = []
    real = uptodate.is_up_to_date

    def counted(*args: object, **kwargs: object) -> bool:
        checks.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(uptodate, "is_up_to_date", counted)
    assert run_cli(argv) == 0 and checks == []
    monkeypatch.setattr(noop_ticket, "refused", ("another", "set", "of", "arguments", None))
    assert run_cli(argv) == 0 and len(checks) == 1


def test_a_folder_name_of_any_bytes_builds_and_takes_the_fast_path(project: Path) -> None:
    """Names that are not UTF-8 reach Python with surrogate escapes: the ticket's name and
    MAC must not depend on their being UTF-8."""
    odd = Path(os.fsdecode(bytes(project) + b"/odd\xff"))
    odd.mkdir()
    config = str(project / "cfg")
    first = run("build", config, "--out", "out/pkg", "--snapshot", "snap.json", cwd=odd)
    assert first[2] == 0 and "wrote" in first[1], first[1]
    again = run("build", config, "--out", "out/pkg", "--snapshot", "snap.json", cwd=odd)
    assert again[2] == 0 and "up to date" in again[1], again[1]


def test_the_manifest_head_is_read_as_its_parser_reads_it(tmp_path: Path) -> None:
    """The bytes-level reading says "made from these inputs" only where the manifest's JSON
    parser says so too; a head in another layout goes to the parser."""
    from toolc.workspace import manifest_head
    from toolc.workspace.manifest_head import MANIFEST

    inputs = "ab" * 32
    heads = {
        "toolc's own": f'{{\n  "generator": "toolc 0.1.0",\n  "inputs": "{inputs}",\n',
        "empty generator": f'{{\n  "generator": "",\n  "inputs": "{inputs}",\n',
        "quote shared": f'{{\n  "generator": ",\n  "inputs": "{inputs}",\n',
        "escaped quote": f'{{\n  "generator": "a\\",\n  "inputs": "{inputs}",\n',
        "another digest": f'{{\n  "generator": "toolc",\n  "inputs": "{"cd" * 32}",\n',
        "reformatted": f'{{"generator": "toolc", "inputs": "{inputs}",\n',
        "other order": f'{{\n  "inputs": "{inputs}",\n  "generator": "toolc",\n',
    }
    verdicts = {}
    for name, head in heads.items():
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        (folder / MANIFEST).write_text(head + '  "files": {}\n}\n')
        parsed = manifest_head.read_head(str(folder))
        verdicts[name] = manifest_head.made_from(str(folder), inputs)
        assert verdicts[name] == (parsed is not None and parsed.get("inputs") == inputs), name
    assert verdicts == {
        "toolc's own": True,
        "empty generator": True,
        "quote shared": False,
        "escaped quote": False,
        "another digest": False,
        "reformatted": True,
        "other order": True,
    }


def test_settings_read_after_a_change_leave_no_ticket(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The facts are taken before the CLI reads the settings; when the bytes it read are not
    the ones the facts hold (a change came between, maybe undone since), no ticket."""
    from toolc.cache import noop_ticket
    from toolc.cli.settings import load_settings

    (project / "pyproject.toml").write_text("[tool.toolc]\n")
    monkeypatch.chdir(project)
    monkeypatch.setattr(noop_ticket, "command_line", ["build", "cfg"])
    taken = noop_ticket.facts(Path("cfg"))
    assert taken is not None
    (project / "pyproject.toml").write_text('[tool.toolc]\nout = "elsewhere/pkg"\n')
    source = load_settings(Path("cfg")).source
    assert source is not None and source[0] == str(project.resolve() / "pyproject.toml")
    pairs = [(Path("out/pkg"), (project / "out/pkg").resolve())]
    arguments = ("cfg", "a", "b", None, None)
    noop_ticket.leave(taken, source, pairs, arguments, "toolc build cfg: up to date (a)")
    assert tickets() == []
    fresh = noop_ticket.facts(Path("cfg"))
    assert fresh is not None
    noop_ticket.leave(fresh, source, pairs, arguments, "toolc build cfg: up to date (a)")
    assert len(tickets()) == 1  # the same call with facts of the bytes read leaves one


_INTERRUPTED = """
import sys
from toolc.cache import uptodate
def interrupted(*args, **kwargs):
    raise KeyboardInterrupt
uptodate.is_up_to_date = interrupted
sys.argv = ["toolc", *sys.argv[1:]]
from toolc.entry import main
main()
"""


def test_ctrl_c_in_the_check_ends_as_the_cli_ends_it(project: Path) -> None:
    """click ends an interrupted command with a blank line, "Aborted!" and status 1: the
    fast path too."""
    assert run(*ARGS, cwd=project)[2] == 0 and len(tickets()) == 1

    def interrupted() -> tuple[str, int]:
        done = subprocess.run(
            [sys.executable, "-c", _INTERRUPTED, *ARGS],
            cwd=project, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return done.stderr, done.returncode

    by_the_fast_path = interrupted()
    for ticket in tickets():
        ticket.unlink()
    assert by_the_fast_path == interrupted() == ("\nAborted!\n", 1)


_INTERRUPTED_IMPORT = """
import builtins, sys
real = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "toolc.cli":  # Ctrl-C while click and the CLI load
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = importing
sys.argv = ["toolc", *sys.argv[1:]]
from toolc.entry import main
main()
"""


@pytest.mark.parametrize("args", [("--version",), ("check", "."), ("build", "--no-cache")])
def test_ctrl_c_while_the_cli_loads_is_not_a_traceback(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Ctrl-C in the first 50 ms, while click was being imported, printed a Python
    traceback; it ends as click ends an interrupted command."""
    done = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_IMPORT, *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (done.stderr, done.returncode) == ("\nAborted!\n", 1)
