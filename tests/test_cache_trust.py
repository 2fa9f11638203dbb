"""The build cache is data that cannot execute, and only the user's own (issue 10, item 1): a
planted pickle runs nothing, a tampered or foreign cache is ignored with a warning and rebuilt
(never an error: shared CI caches must keep working), a cache directory other users can write
is neither read nor written, and a CI cache restored with the same TOOLC_CACHE_KEY is reused."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

RETAIL = ROOT / "examples" / "retail"


def toolc(config: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "toolc"
    environment = {**os.environ, **env}
    return subprocess.run(
        [str(exe), *args, str(config)], capture_output=True, text=True, env=environment, timeout=120
    )


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """A config, its private cache directory, and the environment that points at it."""
    config = tmp_path / "cfg"
    shutil.copytree(RETAIL, config, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    cache = tmp_path / "cache"
    env = {  # the user's own key file (in a configuration directory of the test's)
        "TOOLC_CACHE_DIR": str(cache),
        "XDG_CONFIG_HOME": str(tmp_path / "home-config"),
        "TOOLC_CACHE_KEY": "",
    }
    assert toolc(config, "build", **env).returncode == 0
    yield config, cache, env


def edit(config: Path) -> None:
    text = (config / "tools.yaml").read_text()
    text = text.replace("version: 2.0.0", "version: 2.0.1", 1)
    (config / "tools.yaml").write_text(text.replace("Cancela um ou mais pedidos.", "Cancela."))


def cache_file(cache: Path) -> Path:
    (found,) = cache.glob("build-*.cache")
    return found


def test_a_planted_pickle_runs_nothing(
    world: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    config, cache, env = world
    marker = tmp_path / "PWNED"

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    cache_file(cache).write_bytes(b"toolc-build-cache-1" + pickle.dumps(Payload()))
    edit(config)
    for command in ("check", "build"):
        done = toolc(config, command, **env)
        assert "ignoring the build cache" in done.stderr, done.stderr
        assert not marker.exists()
    assert done.returncode == 0


def test_a_tampered_cache_writes_nothing_extra(world: tuple[Path, Path, dict[str, str]]) -> None:
    config, cache, env = world
    path = cache_file(cache)
    path.write_bytes(
        path.read_bytes().replace(
            b"class ConsultarPedidosArgs", b"import os\nclass ConsultarPedidosArgs", 1
        )
    )
    edit(config)
    done = toolc(config, "build", **env)
    assert done.returncode == 0 and "ignoring the build cache" in done.stderr
    assert "was not written by you" in done.stderr
    module = config / "generated" / "mcp_tools" / "tools" / "consultar_pedidos.py"
    assert "import os" not in module.read_text()


def test_another_key_is_another_user(world: tuple[Path, Path, dict[str, str]]) -> None:
    config, _cache, env = world
    edit(config)
    done = toolc(config, "build", **{**env, "TOOLC_CACHE_KEY": "somebody else"})
    assert done.returncode == 0 and "ignoring the build cache" in done.stderr


def test_a_cache_others_can_write_is_neither_read_nor_written(
    world: tuple[Path, Path, dict[str, str]],
) -> None:
    config, cache, env = world
    before = cache_file(cache).read_bytes()
    os.chmod(cache, 0o777)
    edit(config)
    done = toolc(config, "build", **env)
    assert done.returncode == 0 and "can be written by other users" in done.stderr
    assert cache_file(cache).read_bytes() == before  # not rewritten either


def test_a_restored_ci_cache_with_the_same_key_is_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolc import verbs

    config = tmp_path / "cfg"
    shutil.copytree(RETAIL, config, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    monkeypatch.setenv("TOOLC_CACHE_KEY", "ci-secret")
    monkeypatch.setenv("TOOLC_CACHE_DIR", str(tmp_path / "c1"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "machine-1"))
    out, snapshot = config / "generated" / "mcp_tools", config / "mcp-tools.json"
    assert verbs.build(config, out, snapshot, write=True, cwd=config).written
    shutil.copytree(tmp_path / "c1", tmp_path / "c2")  # restored on another machine
    monkeypatch.setenv("TOOLC_CACHE_DIR", str(tmp_path / "c2"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "machine-2"))
    edit(config)
    result = verbs.build(config, out, snapshot, write=True, cwd=config)
    assert result.written and result.reread == frozenset({"cancelar_pedidos"})


def test_the_user_key_is_kept_outside_the_cache(world: tuple[Path, Path, dict[str, str]]) -> None:
    _config, cache, env = world
    key = Path(env["XDG_CONFIG_HOME"]) / "toolc" / "cache.key"
    assert key.is_file() and key.stat().st_mode & 0o077 == 0
    assert not key.is_relative_to(cache)
