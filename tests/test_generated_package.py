"""The committed golden output of the examples: fresh, black-stable, ruff-clean, mypy-strict,
importable with nothing but pydantic, and what the official MCP SDK reads back unchanged."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import jsonschema
import pydantic
import pytest
from conftest import EXAMPLES, run_toolc
from toolc import verbs

PACKAGES = [example / "generated" / "mcp_tools" for example in EXAMPLES]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_golden_output_is_what_toolc_builds(example: Path) -> None:
    result = run_toolc("check", str(example))
    assert result.returncode == 0, result.stderr + "\nrun `make golden` to refresh the goldens"
    assert "output up to date" in result.stderr
    again = verbs.build(
        example,
        example / "generated" / "mcp_tools",
        example / "mcp-tools.json",
        write=False,
        cwd=example,
    )
    assert again.drift is not None and not (
        again.drift.missing or again.drift.changed or again.drift.orphaned
    )


def test_goldens_are_black_stable() -> None:
    result = subprocess.run(
        [str(BIN / "black"), "--check", "--line-length", "88", *map(str, PACKAGES)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_goldens_pass_ruff_with_its_defaults() -> None:
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--isolated", "--no-cache", *map(str, PACKAGES)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("package", PACKAGES, ids=[p.parent.parent.name for p in PACKAGES])
def test_goldens_pass_mypy_strict(package: Path, tmp_path: Path) -> None:
    from mypy import api

    # A user's own settings, not this repository's: its pydantic plugin makes model
    # constructors take Any, which hid a wrong argument type from this gate once.
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    config = ["--config-file", str(tmp_path / "mypy.ini")]
    out, err, status = api.run(
        ["--strict", "--no-incremental", "--namespace-packages", *config, str(package)]
    )
    assert status == 0, out + err


@pytest.fixture(scope="module")
def pydantic_only_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment holding pydantic (and what it needs), nothing else."""
    import pydantic

    folder = tmp_path_factory.mktemp("venv")
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"pydantic=={pydantic.VERSION}"],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return python


@pytest.mark.parametrize("package", PACKAGES, ids=[p.parent.parent.name for p in PACKAGES])
def test_package_imports_with_only_pydantic(pydantic_only_python: Path, package: Path) -> None:
    script = (
        "import sys, mcp_tools\n"
        "assert 'toolc' not in sys.modules and 'mcp' not in sys.modules, sorted(sys.modules)\n"
        "spec = next(iter(mcp_tools.ALL_TOOLS.values()))\n"
        "assert spec.input_schema['type'] == 'object'\n"
        "print(len(mcp_tools.TOOLS))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run(
        [str(pydantic_only_python), "-c", script], cwd=package.parent, capture_output=True, text=True, env=env
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 2


def _tools_json(package: Path) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads((package / "tools.json").read_text())["tools"]
    return tools


@pytest.mark.parametrize("package", PACKAGES, ids=[p.parent.parent.name for p in PACKAGES])
def test_every_descriptor_round_trips_through_the_sdk_tool_model(package: Path) -> None:
    from mcp import types

    for entry in _tools_json(package):
        tool = types.Tool.model_validate(entry)
        assert tool.model_dump(by_alias=True, exclude_none=True, mode="json") == entry
        assert tool.meta is not None and tool.meta["version"] == entry["_meta"]["version"]


@pytest.mark.parametrize("package", PACKAGES, ids=[p.parent.parent.name for p in PACKAGES])
def test_published_schemas_are_valid_2020_12_and_self_contained(package: Path) -> None:
    for path in sorted((package / "schemas").glob("*.json")):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        text = path.read_text()
        refs = [r for r in text.split('"$ref": "')[1:]]
        assert all(r.startswith("#/$defs/") for r in refs), path


def _output_validator(package: Path, tool: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((package / "schemas" / f"{tool}.output.json").read_text())
    )


RETAIL = EXAMPLES[[e.name for e in EXAMPLES].index("retail")] / "generated" / "mcp_tools"
META = {"tool": "consultar_pedidos", "version": "3.0.0"}
RESULTS = [{"order_id": "P-1", "ok": True, "status": "paid"}, {"order_id": "P-2", "ok": False}]
DATA = {
    "results": RESULTS,
    "multi_item_status": "PARTIAL_SUCCESS",
    "partial_success": True,
    "metadata": {"multi_item": {"status": "PARTIAL_SUCCESS", "items_count": 2, "items_succeeded_count": 1,
                                "items_failed_count": 1, "primary_tool": "consultar_pedidos"}},
}  # fmt: skip


@pytest.mark.parametrize(
    "envelope",
    [
        {"ok": True, "data": DATA, "meta": META},
        {
            "ok": True,
            "data": {
                **DATA,
                "original_ok": False,
                "secondary_error": {"code": "TOOL_ERROR", "message": "x"},
            },
            "meta": META,
        },
        {
            "ok": False,
            "error": {
                "code": "VALIDATION_ERROR",
                "message": "bad",
                "details": {"field": "order_ids"},
            },
            "meta": META,
        },
        {
            "ok": False,
            "error": {
                "code": "TOOL_ERROR",
                "message": "boom",
                "errorId": "e-1",
                "retryable": False,
                "hint": "h",
            },
            "meta": META,
        },
        {
            "ok": False,
            "error": {"code": "PRE_VALIDATION_FAILED", "message": "x"},
            "meta": META,
            "data": DATA,
        },
    ],
)
def test_output_schema_accepts_valid_envelopes(envelope: dict[str, Any]) -> None:
    validator = _output_validator(RETAIL, "consultar_pedidos")
    assert not list(validator.iter_errors(envelope))


@pytest.mark.parametrize(
    ("envelope", "why"),
    [
        ({"ok": True, "data": DATA}, "missing meta"),
        ({"ok": True, "data": DATA, "meta": {**META, "version": "9.9.9"}}, "wrong version"),
        (
            {"ok": True, "data": DATA, "meta": {**META, "tool": "cancelar_pedidos"}},
            "another tool's meta",
        ),
        (
            {"ok": False, "error": {"code": "NOT_DECLARED", "message": "x"}, "meta": META},
            "undeclared error code",
        ),
        (
            {
                "ok": True,
                "data": DATA,
                "error": {"code": "TOOL_ERROR", "message": "x"},
                "meta": META,
            },
            "ok true with error",
        ),
        ({"ok": False, "data": DATA, "meta": META}, "ok false without error"),
        (
            {"ok": True, "data": {**DATA, "results": [{"order_id": "P-1"}]}, "meta": META},
            "item without ok",
        ),
        (
            {"ok": True, "data": {**DATA, "multi_item_status": "MOSTLY"}, "meta": META},
            "unknown status",
        ),
        (
            {"ok": True, "data": {k: v for k, v in DATA.items() if k != "results"}, "meta": META},
            "no results",
        ),
    ],
)
def test_output_schema_rejects_broken_envelopes(envelope: dict[str, Any], why: str) -> None:
    validator = _output_validator(RETAIL, "consultar_pedidos")
    assert list(validator.iter_errors(envelope)), why


def test_domain_error_codes_are_in_the_output_schema() -> None:
    validator = _output_validator(RETAIL, "cancelar_pedidos")
    meta = {
        "tool": "cancelar_pedidos",
        "version": json.loads((RETAIL.parent.parent / "mcp-tools.json").read_text())[
            "cancelar_pedidos"
        ]["version"],
    }
    ok = {
        "ok": False,
        "error": {"code": "ORDER_SERVICE_UNAVAILABLE", "message": "x", "retryable": True},
        "meta": meta,
    }
    assert not list(validator.iter_errors(ok))


def test_envelope_reserve_bytes_is_the_measured_overhead() -> None:
    """Measured on the generated envelope models' own JSON, not recomputed by toolc's formula."""
    sys.path.insert(0, str(RETAIL.parent))
    try:
        import mcp_tools
    finally:
        sys.path.remove(str(RETAIL.parent))
    for name, spec in mcp_tools.TOOLS.items():  # type: ignore[attr-defined]
        data = {"x": "é", "n": [1, 2]}
        sealed = mcp_tools.Ok[Any](data=data, meta=mcp_tools.Meta(tool=name, version=spec.version))  # type: ignore[attr-defined]
        wire = sealed.model_dump_json().encode()
        bare = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
        assert len(wire) - len(bare) == spec.envelope_reserve_bytes


GOOD = sorted(p for p in (Path(__file__).parent / "fixtures" / "good").iterdir() if p.is_dir())


@pytest.mark.parametrize("config", GOOD, ids=[p.name for p in GOOD])
def test_every_good_fixture_builds_a_package_that_passes_the_gates(
    config: Path, tmp_path: Path
) -> None:
    """Not only the goldens: every valid fixture, adversarial names and shapes included, gives
    Python that black, ruff and mypy --strict accept and that imports."""
    out = tmp_path / f"pkg_{config.name.replace('-', '_')}"
    result = verbs.build(config, out, tmp_path / "snap.json", write=True, cwd=config)
    assert result.written, result.diagnostics
    black = subprocess.run(
        [str(BIN / "black"), "--check", "-q", str(out)], capture_output=True, text=True
    )
    assert black.returncode == 0, black.stderr
    ruff = subprocess.run(
        [str(BIN / "ruff"), "check", "--isolated", "--no-cache", str(out)],
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout
    from mypy import api

    report, errors, status = api.run(["--strict", "--no-incremental", str(out)])
    assert status == 0, report + errors
    script = f"import {out.name} as p\nfor s in p.TOOLS.values(): s.args_model.model_json_schema(); s.data_model"
    imported = subprocess.run(
        [sys.executable, "-W", "error", "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert imported.returncode == 0, imported.stderr


def _retail() -> Any:
    sys.path.insert(0, str(RETAIL.parent))
    try:
        import mcp_tools

        return mcp_tools
    finally:
        sys.path.remove(str(RETAIL.parent))


def test_generated_envelopes_seal_to_what_the_output_schema_accepts() -> None:
    """The envelope models' wire form, not hand-written dicts: a handler's data with optional
    fields left out, a failure with only code and message."""
    pkg = _retail()
    spec = pkg.TOOLS["consultar_pedidos"]
    meta = pkg.Meta(tool="consultar_pedidos", version=spec.version)
    data = spec.data_model.model_validate(DATA)
    validator = _output_validator(RETAIL, "consultar_pedidos")
    for sealed in (
        pkg.Ok[Any](data=data, meta=meta),
        pkg.Err(error=pkg.ErrorInfo(code="TOOL_ERROR", message="boom"), meta=meta),
        pkg.Err(
            error=pkg.ErrorInfo(code="TOOL_ERROR", message="x", error_id="e-1"),
            meta=meta,
            data=data,
        ),
    ):
        wire = sealed.wire()
        assert not list(validator.iter_errors(wire)), wire
        text = sealed.wire_json()
        assert json.loads(text) == wire and ": " not in text and ", " not in text
    ok = pkg.Ok[Any](data=data, meta=meta)
    assert (
        len(ok.wire_json().encode())
        - len(json.dumps(ok.wire()["data"], separators=(",", ":"), ensure_ascii=False).encode())
        == spec.envelope_reserve_bytes
    )


def test_a_catastrophic_pattern_cannot_stall_a_model(tmp_path: Path) -> None:
    """`^(a+)+$` takes seconds per character in a backtracking engine; the models' engine is
    linear (decision 0024), so a long near-miss is refused at once."""
    import time

    (tmp_path / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: D.\n    mcp_server: s\n"
        "    tool_type: query\n    args_schema:\n      s: {type: string, pattern: '^(a+)+$'}\n"
    )
    out = tmp_path / "stall_pkg"
    assert verbs.build(tmp_path, out, tmp_path / "snap.json", write=True, cwd=tmp_path).written
    sys.path.insert(0, str(tmp_path))
    try:
        model = importlib.import_module("stall_pkg").TArgs
    finally:
        sys.path.remove(str(tmp_path))
    started = time.perf_counter()
    with pytest.raises(pydantic.ValidationError):  # Python's `re` takes seconds on this one
        model.model_validate({"s": "a" * 28 + "!"})
    assert time.perf_counter() - started < 1.0  # (and hours on the next)
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({"s": "a" * 10_000 + "!"})
    assert time.perf_counter() - started < 1.0
    assert model.model_validate({"s": "a" * 10_000}).s == "a" * 10_000
