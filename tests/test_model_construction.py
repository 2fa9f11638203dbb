"""Generated models are built by keyword with their Python field names, the ones type checkers
show, and validate wire data by the wire names only (decision 0016; 0033)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from toolc import verbs

CONFIG = """\
tools:
  read_file:
    version: 1.0.0
    description: Reads a file.
    mcp_server: fs
    tool_type: query
    requires: [filePath]
    args_schema:
      filePath: {type: string}
    returns:
      type: object
      required: [mimeType, chunks]
      properties:
        mimeType: {type: string}
        chunks:
          type: array
          items:
            type: object
            required: [byteCount]
            properties: {byteCount: {type: integer}}
        sizeInfo: {$ref: '#/types/SizeInfo'}
types:
  SizeInfo:
    type: object
    required: [totalBytes]
    properties:
      totalBytes: {type: integer}
"""

SNIPPET = """\
from construction_pkg.shared import SizeInfo
from construction_pkg.tools.read_file import ReadFileArgs, ReadFileData, ReadFileDataChunksItem

data = ReadFileData(
    mime_type="text/plain",
    chunks=[ReadFileDataChunksItem(byte_count=3)],
    size_info=SizeInfo(total_bytes=3),
)
args = ReadFileArgs(file_path="/etc/hosts")
kind: str = data.mime_type
assert data.model_dump(mode="json", exclude_unset=True) == {
    "mimeType": "text/plain",
    "chunks": [{"byteCount": 3}],
    "sizeInfo": {"totalBytes": 3},
}
assert args.model_dump(exclude_unset=True) == {"filePath": "/etc/hosts"}
print("built")
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("construction")
    config = where / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(CONFIG)
    result = verbs.build(
        config, where / "construction_pkg", where / "snap.json", write=True, cwd=config
    )
    assert result.written, result.diagnostics
    (where / "snippet.py").write_text(SNIPPET)
    (where / "mypy.ini").write_text("[mypy]\n")  # no pydantic plugin: what every user has
    return where


def _mypy(root: Path, *files: str) -> tuple[int, str]:
    from mypy import api

    out, err, status = api.run(
        ["--strict", "--config-file", str(root / "mypy.ini"), "--no-incremental", *files]
    )
    return status, out + err


def test_building_by_python_name_type_checks_without_the_pydantic_plugin(root: Path) -> None:
    status, report = _mypy(root, str(root / "snippet.py"))
    assert status == 0, report


def test_the_wire_names_as_keywords_do_not_type_check(root: Path) -> None:
    """What type checkers show is what works: the alias keyword is refused by both."""
    wrong = root / "wrong.py"
    wrong.write_text(
        "from construction_pkg.tools.read_file import ReadFileData\nReadFileData(mimeType='x', chunks=[])\n"
    )
    status, report = _mypy(root, str(wrong))
    assert status == 1 and 'Unexpected keyword argument "mimeType"' in report


def test_building_by_python_name_works_at_run_time(root: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-W", "error", str(root / "snippet.py")],
        cwd=root, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0 and run.stdout == "built\n", run.stderr


def _package(root: Path) -> Any:
    sys.path.insert(0, str(root))
    try:
        import construction_pkg

        return construction_pkg
    finally:
        sys.path.remove(str(root))


@pytest.mark.parametrize(
    "wire",
    [
        {"mime_type": "x", "chunks": []},  # the Python name at the top
        {"mimeType": "x", "chunks": [{"byte_count": 1}]},  # in a nested model
        {"mimeType": "x", "chunks": [], "sizeInfo": {"total_bytes": 1}},  # in a shared type
    ],
)
def test_wire_data_is_validated_by_wire_name_only(root: Path, wire: dict[str, Any]) -> None:
    pkg = _package(root)
    spec = pkg.TOOLS["read_file"]
    with pytest.raises(pydantic.ValidationError):
        spec.data_model.model_validate(wire)
    with pytest.raises(pydantic.ValidationError):
        pydantic.TypeAdapter(spec.data_model).validate_python(wire)  # as the server checks
    good = {"mimeType": "x", "chunks": [{"byteCount": 1}], "sizeInfo": {"totalBytes": 1}}
    assert spec.data_model.model_validate(good).model_dump(mode="json") == good
    with pytest.raises(pydantic.ValidationError):
        spec.args_model.model_validate({"file_path": "/x"})
    with pytest.raises(pydantic.ValidationError):  # keywords take Python names only
        spec.args_model(filePath="/x")
