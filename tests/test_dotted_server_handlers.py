"""`toolc test` finds the handlers `toolc scaffold` wrote for a server whose name holds a dot
(`retail.api` → `retail.api_server.py`): the dots are part of the file's name, not packages."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import run_toolc
from toolc.testkit.loading import KitError, load_handlers

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on sys.path, as the package's parent is when the kit runs."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    return tmp_path


def test_a_dotted_default_module_is_loaded_from_its_file(beside: Path) -> None:
    (beside / "retail.api_server.py").write_text("class Handlers:\n    made = 'here'\n")
    handlers = load_handlers("retail.api_server:Handlers")
    assert type(handlers).__name__ == "Handlers" and handlers.made == "here"  # type: ignore[attr-defined]


def test_a_missing_import_inside_that_file_is_still_reported(beside: Path) -> None:
    (beside / "retail.api_server.py").write_text("import no_such_dependency_s26\n")
    with pytest.raises(KitError, match=r"No module named 'no_such_dependency_s26'"):
        load_handlers("retail.api_server:Handlers")


def test_a_dotted_name_with_no_such_file_says_what_is_missing(beside: Path) -> None:
    with pytest.raises(KitError, match=r"cannot import 'nowhere_s26\.api_server'"):
        load_handlers("nowhere_s26.api_server:Handlers")


def test_scaffold_then_test_with_a_dotted_server_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLC_NO_DAEMON", "1")
    config = tmp_path / "retail"
    config.mkdir()
    for source in (ROOT / "examples" / "retail").glob("*.yaml"):
        shutil.copy(source, config)
    tools = config / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    assert "mcp_server: retail\n" in text and "\n  retail:\n" in text
    text = text.replace("mcp_server: retail\n", "mcp_server: retail.api\n")
    tools.write_text(text.replace("\n  retail:\n", "\n  retail.api:\n"), encoding="utf-8")
    assert run_toolc("build", str(config)).returncode == 0
    assert run_toolc("scaffold", str(config)).returncode == 0
    assert (config / "generated" / "retail.api_server.py").is_file()
    done = run_toolc("test", str(config), cwd=tmp_path)
    # The starter's methods are not implemented yet: each case fails, none is a usage error.
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "FAIL consultar_pedidos [valid arguments #1]" in done.stdout
    assert "NotImplementedError: consultar_pedidos: not implemented yet" in done.stdout
    assert "(server 'retail.api'" in done.stdout
