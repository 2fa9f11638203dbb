"""`toolc scaffold` where the system refuses the write (a file where a folder goes): an
`io-error` naming the path and the file in the way, exit 1, nothing written; never an internal
error."""

from __future__ import annotations

from pathlib import Path

from conftest import run_toolc


def test_a_file_where_a_folder_goes_is_an_io_error(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    assert run_toolc("init", str(config)).returncode == 0
    (tmp_path / "afile").write_text("mine")
    before = sorted(tmp_path.rglob("*"))
    done = run_toolc("scaffold", str(config), "--file", str(tmp_path / "afile" / "x.py"))
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[io-error]" in done.stderr and "afile is a file, not a directory" in done.stderr
    assert "--file" in done.stderr  # the hint: write it elsewhere
    assert sorted(tmp_path.rglob("*")) == before and (tmp_path / "afile").read_text() == "mine"
    done = run_toolc("scaffold", str(config), "--file", str(tmp_path / "new" / "x.py"))
    assert done.returncode == 0 and (tmp_path / "new" / "x.py").is_file(), done.stderr
