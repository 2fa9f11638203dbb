"""The build daemon (decision 0123): `toolc build` and `toolc check` handed to a resident toolc
print, exit and write exactly what they do run alone; the daemon keeps build caches in memory
and writes them when idle; it serves only its own toolc, and a client with no daemon (or a
dead one) builds by itself."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES
from toolc.daemon import client, protocol
from toolc.workspace.private import hold_private_lock, release_lock

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

RETAIL = next(e for e in EXAMPLES if e.name == "retail")
TOOLC = Path(sys.executable).parent / "toolc"


class Toolc:
    """The `toolc` command with an environment of the test's own (its cache folder, so its
    daemon serves no other test)."""

    def __init__(self, cache: Path) -> None:
        self.env = {**os.environ, "TOOLC_CACHE_DIR": str(cache), "TOOLC_CACHE_KEY": "daemon-test"}
        self.env.pop("TOOLC_NO_DAEMON", None)
        self.env.pop("TOOLC_DEBUG", None)

    def __call__(
        self, *args: str, cwd: Path | None = None, alone: bool = False
    ) -> subprocess.CompletedProcess[str]:
        env = {**self.env, "TOOLC_NO_DAEMON": "1"} if alone else self.env
        return subprocess.run(
            [str(TOOLC), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180
        )

    def served(self) -> dict[str, object]:
        """What the running daemon says it has done."""
        old = os.environ.copy()
        os.environ.update(self.env)
        try:
            answer = client.request("ping")
        finally:
            os.environ.clear()
            os.environ.update(old)
        assert answer is not None, "the daemon does not answer"
        return answer

    def socket(self) -> str:
        """The socket's path as the `toolc` command itself computes it (its interpreter)."""
        python = TOOLC.read_text(encoding="utf-8").splitlines()[0].removeprefix("#!")
        found = subprocess.run(
            [python, "-c", "from toolc.daemon import protocol; print(protocol.socket_path())"],
            env=self.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return found.stdout.strip()


@pytest.fixture
def toolc(tmp_path: Path) -> Iterator[Toolc]:
    command = Toolc(tmp_path / "cache")
    yield command
    command("daemon", "stop")


@pytest.fixture
def daemon(toolc: Toolc) -> Toolc:
    started = toolc("daemon", "start", "--idle-timeout", "300")
    assert started.returncode == 0, started.stderr
    assert "started" in started.stderr
    return toolc


@pytest.fixture
def config(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    shutil.copytree(RETAIL, folder, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    return folder


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def outcome(result: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    return result.returncode, result.stdout, result.stderr


def edit(config: Path, round_: int) -> None:
    """A new description and a bumped version for the first tool (a one-tool edit)."""
    path = config / "tools.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^    version: .*$", f"    version: 2.{round_}.0", text, count=1)
    described = f"    description: Cancela ({round_})."
    text = re.sub(r"(?m)^    description: .*$", described, text, count=1)
    path.write_text(text, encoding="utf-8")


def test_a_build_through_the_daemon_is_the_build_run_alone(daemon: Toolc, config: Path) -> None:
    served = daemon("build", "cfg", cwd=config.parent)
    assert served.returncode == 0, served.stderr
    assert daemon.served()["served"] == 1  # it went through the daemon
    through = tree(config)
    shutil.rmtree(config / "generated")
    (config / "mcp-tools.json").unlink()
    alone = daemon("build", "cfg", "--no-cache", cwd=config.parent, alone=True)
    assert outcome(served) == outcome(alone)
    assert through == tree(config)
    # The no-op and `check` alike.
    assert outcome(daemon("build", "cfg", cwd=config.parent)) == outcome(
        daemon("build", "cfg", cwd=config.parent, alone=True)
    )
    assert outcome(daemon("check", "cfg", "--format", "json", cwd=config.parent)) == outcome(
        daemon("check", "cfg", "--format", "json", cwd=config.parent, alone=True)
    )
    assert daemon.served()["served"] == 3


def test_errors_print_and_exit_as_they_do_alone(daemon: Toolc, config: Path) -> None:
    path = config / "tools.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("version: 2.0.0", "version: 2"))
    here = config / "generated"
    here.mkdir()
    results = {}
    for args in (("build", "../../cfg"), ("check", "../../cfg", "--format", "sarif")):
        served = results[args[0]] = daemon(*args, cwd=here)
        assert served.returncode == 1
        assert outcome(served) == outcome(daemon(*args, cwd=here, alone=True))
    assert "../../cfg/tools.yaml:5:" in results["build"].stderr  # from the client's folder
    assert '"uri": "../../cfg/tools.yaml"' in results["check"].stdout
    assert not (here / "mcp_tools").exists()
    assert daemon.served()["served"] == 2


def test_edits_are_served_from_memory_and_the_cache_reaches_the_disk(
    daemon: Toolc, config: Path, tmp_path: Path
) -> None:
    first = daemon("build", "cfg", cwd=config.parent)
    assert first.returncode == 0, first.stderr
    reference = tmp_path / "reference"
    for round_ in range(1, 4):
        edit(config, round_)
        served = daemon("build", "cfg", cwd=config.parent)
        assert served.returncode == 0, served.stderr
        # The same files as a cold build of the same config, run alone.
        shutil.rmtree(reference, ignore_errors=True)
        shutil.copytree(config, reference, ignore=shutil.ignore_patterns("generated"))
        alone = daemon("build", "reference", "--no-cache", cwd=tmp_path, alone=True)
        assert alone.returncode == 0, alone.stderr
        assert _package(config) == _package(reference)
    kept = daemon.served()["resident"]
    assert isinstance(kept, dict) and kept["memory"] >= 3, kept
    # After each build the daemon makes the next one's staging directory ahead (0124), beside
    # its socket: one, for this output; gone when it stops.
    standbys = Path(protocol.beside(daemon.socket(), ".standby"))
    deadline = time.time() + 30
    while len(os.listdir(standbys)) != 1 and time.time() < deadline:
        time.sleep(0.05)
    assert [name.split(".")[0] for name in os.listdir(standbys)] == ["mcp_tools"]
    # Idle for a moment, the daemon writes the newest cache: a build run alone then reuses
    # it for one more edit and writes the same files as a cold build.
    edit(config, 8)
    assert daemon("build", "cfg", cwd=config.parent).returncode == 0
    last_build = time.time()
    folder = Path(daemon.env["TOOLC_CACHE_DIR"])
    # Pending in memory: not written yet (the daemon was never idle for long enough).
    assert all(c.stat().st_mtime < last_build for c in folder.glob("build-*.cache"))
    time.sleep(1.5)
    (cache,) = folder.glob("build-*.cache")
    assert cache.stat().st_mtime > last_build  # written once the daemon was idle
    edit(config, 9)
    alone = daemon("build", "cfg", cwd=config.parent, alone=True)
    assert alone.returncode == 0, alone.stderr
    shutil.rmtree(reference)
    shutil.copytree(config, reference, ignore=shutil.ignore_patterns("generated"))
    assert daemon("build", "reference", "--no-cache", cwd=tmp_path, alone=True).returncode == 0
    assert _package(config) == _package(reference)
    assert daemon("daemon", "stop").returncode == 0
    assert os.listdir(standbys) == []


def _package(config: Path) -> dict[str, object]:
    """The generated files, and what the manifest records of each (its digests, sizes)."""
    out = config / "generated" / "mcp_tools"
    files = tree(out)
    manifest = json.loads((out / ".toolc-manifest.json").read_bytes())
    files.pop(".toolc-manifest.json")
    assert manifest["files"] == {k: v for k, v in files.items()}  # every digest is the file's
    snapshot = (config / "mcp-tools.json").read_bytes()
    return {"files": files, "sizes": manifest["sizes"], "snapshot": snapshot}


def test_a_daemon_of_another_installation_stops_and_the_client_builds(
    daemon: Toolc, config: Path
) -> None:
    conn = protocol.connect(daemon.socket(), 10)
    try:
        request = {"op": "run", "installation": "another toolc", "argv": ["build", "cfg"]}
        protocol.send_value(conn, protocol.REPLY, request)
        frame = protocol.receive(conn)
    finally:
        conn.close()
    assert frame is not None and frame[0] == protocol.REPLY
    assert protocol.value_of(frame[1]) == {"stale": "it serves another toolc installation"}
    deadline = time.monotonic() + 10
    while os.path.exists(daemon.socket()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(daemon.socket())
    built = daemon("build", "cfg", cwd=config.parent)
    assert built.returncode == 0 and (config / "generated" / "mcp_tools" / "tools.json").exists()


def test_a_socket_nobody_listens_on_is_passed_by(toolc: Toolc, config: Path) -> None:
    Path(toolc.env["TOOLC_CACHE_DIR"]).mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(toolc.socket())
    dead.close()  # the file stays; nothing listens
    built = toolc("build", "cfg", cwd=config.parent)
    assert built.returncode == 0, built.stderr
    assert (
        built.stderr
        == "toolc build cfg: wrote cfg/generated/mcp_tools and cfg/mcp-tools.json, no problems\n"
    )
    assert (config / "generated" / "mcp_tools" / "tools.json").exists()


def test_start_stop_and_status(toolc: Toolc) -> None:
    assert toolc("daemon", "status").returncode == 1
    assert "not running" in toolc("daemon", "stop").stderr
    assert toolc("daemon", "start").returncode == 0
    again = toolc("daemon", "start")
    assert again.returncode == 0 and "already running" in again.stderr
    status = toolc("daemon", "status")
    assert status.returncode == 0 and "running (pid" in status.stdout
    assert (os.stat(toolc.socket()).st_mode & 0o077) == 0  # the user's alone
    assert "stopped" in toolc("daemon", "stop").stderr
    assert not os.path.exists(toolc.socket())
    assert toolc("daemon", "status").returncode == 1


def test_a_daemon_removes_what_stopped_daemons_of_other_installations_left(
    toolc: Toolc,
) -> None:
    """An upgrade leaves the old daemon's trash and standby folders (links to old outputs'
    files) under another name: the next daemon to start removes them, unless that daemon
    runs (its lock is held)."""
    folder = Path(toolc.env["TOOLC_CACHE_DIR"])
    folder.mkdir(mode=0o700)
    gone = [folder / "daemon-0123456789abcdef.standby", folder / "daemon-0123456789abcdef.trash"]
    kept = folder / "daemon-fedcba9876543210.standby"
    for leftover in (*gone, kept):
        (leftover / "mcp_tools.x" / "tools").mkdir(parents=True)
        (leftover / "mcp_tools.x" / "tools" / "a.py").write_bytes(b"old\n")
    running = hold_private_lock(str(folder / "daemon-fedcba9876543210.lock"))
    assert running is not None
    try:
        assert toolc("daemon", "start").returncode == 0
        assert toolc.served()["served"] == 0  # it serves: its start-up is over
        assert not any(path.exists() for path in gone)
        assert (kept / "mcp_tools.x" / "tools" / "a.py").read_bytes() == b"old\n"
    finally:
        release_lock(running)


def test_a_socket_path_too_long_for_the_kernel_is_reached_from_its_folder(
    tmp_path: Path, config: Path
) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    toolc = Toolc(deep)
    assert len(toolc.socket()) > 108
    try:
        assert toolc("daemon", "start").returncode == 0
        built = toolc("build", "cfg", cwd=config.parent)
        assert built.returncode == 0, built.stderr
        assert toolc.served()["served"] == 1
    finally:
        toolc("daemon", "stop")


def test_the_old_output_is_gone_when_the_command_returns(daemon: Toolc, config: Path) -> None:
    """The folder around the output and its lock are as a build alone leaves them: a build
    run alone right after neither waits nor sees the old output."""
    assert daemon("build", "cfg", cwd=config.parent).returncode == 0
    edit(config, 1)
    assert daemon("build", "cfg", cwd=config.parent).returncode == 0
    assert sorted(os.listdir(config / "generated")) == ["mcp_tools"]
    edit(config, 2)
    alone = daemon("build", "cfg", cwd=config.parent, alone=True)
    assert alone.returncode == 0 and "waiting" not in alone.stderr, alone.stderr


def test_each_command_has_the_umask_and_environment_of_its_client(
    daemon: Toolc, config: Path, tmp_path: Path
) -> None:
    for mask, mode in ((0o077, 0o600), (0o022, 0o644)):
        shutil.rmtree(config / "generated", ignore_errors=True)
        built = subprocess.run(
            ["sh", "-c", f"umask {mask:03o} && exec {TOOLC} build cfg"],
            cwd=config.parent, env=daemon.env, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert built.returncode == 0, built.stderr
        assert (config / "generated" / "mcp_tools" / "tools.json").stat().st_mode & 0o777 == mode
        # The folder and the snapshot too, which toolc gives their mode itself (not the kernel
        # from the process's umask): the client's umask, not the one the daemon started with.
        assert (config / "generated" / "mcp_tools").stat().st_mode & 0o777 == 0o777 & ~mask
        assert (config / "mcp-tools.json").stat().st_mode & 0o777 == mode
    assert daemon.served()["served"] == 2
    # The cache key comes from the command's environment: a cache kept under another key is
    # neither taken from memory nor trusted on disk, as a build alone would not trust it.
    edit(config, 1)
    time.sleep(1.5)  # the daemon, idle, writes the cache it keeps under the first key
    other = {**daemon.env, "TOOLC_CACHE_KEY": "another key"}
    built = subprocess.run(
        [str(TOOLC), "build", "cfg"], cwd=config.parent, env=other, capture_output=True,
        text=True, timeout=180,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert "ignoring the build cache" in built.stderr and "key does not match" in built.stderr
    kept = daemon.served()["resident"]
    assert isinstance(kept, dict) and kept["memory"] == 1, kept  # the second umask build


def test_a_socket_others_could_have_made_is_not_used(toolc: Toolc, config: Path) -> None:
    """A socket anyone may connect to, or in a folder others can write to, could be someone
    else's listener: the client sends nothing there and runs the command itself."""
    folder = Path(toolc.env["TOOLC_CACHE_DIR"])
    folder.mkdir(mode=0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(toolc.socket())
    listener.listen(1)
    listener.settimeout(0.5)
    try:
        for socket_mode, folder_mode in ((0o666, 0o700), (0o600, 0o777)):
            os.chmod(toolc.socket(), socket_mode)
            os.chmod(folder, folder_mode)
            built = toolc("build", "cfg", cwd=config.parent)
            assert built.returncode == 0, built.stderr
            with pytest.raises(TimeoutError):
                listener.accept()  # nothing connected
    finally:
        listener.close()


def test_a_client_with_other_interpreter_settings_runs_its_command_itself(
    daemon: Toolc, config: Path
) -> None:
    env = {**daemon.env, "PYTHONWARNINGS": "error"}
    built = subprocess.run(
        [str(TOOLC), "build", "cfg"], cwd=config.parent, env=env, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    assert (config / "generated" / "mcp_tools" / "tools.json").exists()
    assert daemon.served()["served"] == 0  # declined, and still running


def test_ctrl_c_in_the_client_ends_as_a_command_alone_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """toolc alone, interrupted in a command, prints click's blank line and "Aborted!" and
    exits 1 (tests/test_noop_ticket.py compares its fast path with it): so does the client
    waiting for the daemon's answer."""
    from toolc.daemon import client, protocol

    class Conn:
        def close(self) -> None:
            pass

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.delenv("TOOLC_NO_DAEMON", raising=False)
    monkeypatch.setattr(protocol, "socket_path", lambda: "/nowhere/toolc.sock")
    monkeypatch.setattr(protocol, "trusted", lambda path: True)
    monkeypatch.setattr(protocol, "busy", lambda path: False)
    monkeypatch.setattr(client, "_connected", lambda path, wait: Conn())
    monkeypatch.setattr(protocol, "send_value", interrupted)
    assert client.forward(["build", "."]) == 1
    assert capsys.readouterr().err == "\nAborted!\n"
