"""What `toolc import` writes, and what it refuses to write: strings holding what YAML 1.1 calls
a line break read back as themselves; the files of one import are written all or none (a file
in the way, a file size limit, a failure between two files: an `io-error`, nothing left
behind); a dangling link is an existing config; sources too deep, an origin command that does
not split and hints that are no booleans are diagnostics, never an internal error."""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_toolc
from toolc import verbs
from toolc.source.yaml_loader import load_yaml
from toolc.workspace import files

# NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR break lines in YAML 1.1 (PyYAML writes them so),
# not in YAML 1.2 (toolc reads them so); the others for company.
_BREAKS = ["\x85", "\u2028", "\u2029"]
_STRINGS = [*_BREAKS, "\n", "a\u2028b", "two\nlines\u2029", "\u2028\n", " \x85 ", "\ufeffx", "t\tb"]


def _tool(name: str, schema: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    return {"name": name, "description": f"Does {name}.", "inputSchema": schema or {"type": "object"}, **more}  # fmt: skip


def _import(tmp: Path, listing: Any, *extra: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    source = tmp / "listing.json"
    source.write_text(json.dumps(listing))
    out = tmp / "out"
    return run_toolc("import", str(source), "--out", str(out), "--server", "s", *extra), out


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path below `root`, with a file's bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
    }


def test_line_breaks_of_yaml_1_1_are_read_back_as_themselves(tmp_path: Path) -> None:
    properties = {
        f"p{i}": {"type": "string", "description": f"about{s}it", "const": s, "default": s}
        for i, s in enumerate(_STRINGS)
    }
    properties["all"] = {"type": "string", "enum": _STRINGS}
    schema = {"type": "object", "properties": properties}
    described = "Splits\u2028text\x85at\u2029marks.\nTwice."
    done, out = _import(tmp_path, [_tool("sep", schema, description=described)])
    assert done.returncode == 0, done.stderr
    text = (out / "tools.yaml").read_text(encoding="utf-8")
    config, _, problems = load_yaml(text, "tools.yaml")  # toolc's own reader, YAML 1.2
    assert problems == []
    tool = config["tools"]["sep"]
    assert tool["description"] == described
    assert tool["args_schema"] == properties  # every character, every place a string goes
    built = verbs.build(out, tmp_path / "pkg", tmp_path / "snap.json", write=True, cwd=out)
    assert built.written, built.diagnostics
    published = json.loads((tmp_path / "pkg" / "tools.json").read_text())["tools"][0]
    assert published["inputSchema"]["properties"]["all"]["enum"] == _STRINGS


def test_a_file_in_the_way_is_an_io_error_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("mine")
    source = tmp_path / "listing.json"
    source.write_text(json.dumps([_tool("t")]))
    before = _tree(tmp_path)
    done = run_toolc("import", str(source), "--out", str(tmp_path / "afile" / "sub"))
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[io-error]" in done.stderr and "afile is a file, not a directory" in done.stderr
    assert "nothing was written" in done.stderr
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / ".toolc").write_text("mine")  # where the editor schemas go
    before = _tree(tmp_path)
    done = run_toolc("import", str(source), "--out", str(tmp_path / "out"))
    assert done.returncode == 1 and "error[io-error]" in done.stderr, done.stderr
    assert _tree(tmp_path) == before  # not tools.yaml without its schemas either


def test_a_file_size_limit_leaves_nothing_and_a_retry_succeeds(tmp_path: Path) -> None:
    described = "A description long enough to make the config large. " * 20
    listing = [_tool(f"t{i}", description=described) for i in range(100)]  # tools.yaml > 100 KB
    source = tmp_path / "listing.json"
    source.write_text(json.dumps(listing))

    def limited() -> None:  # the schemas (~20 KB) fit, tools.yaml does not
        resource.setrlimit(resource.RLIMIT_FSIZE, (60_000, 60_000))

    toolc = Path(sys.executable).parent / "toolc"
    command = [str(toolc), "import", str(source), "--out", str(tmp_path / "out"), "--server", "s"]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=limited)
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[io-error]" in done.stderr and "File too large" in done.stderr
    assert not (tmp_path / "out").exists()  # the folder it made is gone too
    again = run_toolc(*command[1:])
    assert again.returncode == 0 and "100 tool(s) imported" in again.stderr, again.stderr


def test_a_failure_between_two_files_takes_back_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = os.link

    def failing(source: str, target: Path) -> None:
        if Path(target).name == "c.yaml":
            raise OSError(errno.EIO, "Input/output error")
        link(source, target)

    monkeypatch.setattr(files.os, "link", failing)
    (tmp_path / "kept").write_text("mine")
    before = _tree(tmp_path)
    planned = {tmp_path / "a.yaml": b"a", tmp_path / "new" / "deep" / "b.yaml": b"b"}
    planned[tmp_path / "c.yaml"] = b"c"
    with pytest.raises(OSError) as raised:
        files.create_all(planned, {tmp_path / "kept": b"changed"})
    assert raised.value.filename == str(tmp_path / "c.yaml")  # the file, not a temporary
    assert _tree(tmp_path) == before  # no file, folder or temporary of ours is left


def test_a_dangling_link_is_an_existing_config(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "tools.yaml").symlink_to("nowhere")
    done, _ = _import(tmp_path, [_tool("t")])
    assert done.returncode == 1 and "error[import-config-exists]" in done.stderr, done.stderr
    assert "imported" not in done.stderr.splitlines()[-1]  # no success where nothing was written
    assert os.readlink(out / "tools.yaml") == "nowhere" and len(list(out.iterdir())) == 1


def _nested(levels: int) -> str:
    """An argument nested `levels` arrays deep, as JSON text (json.dumps itself recurses)."""
    return '{"type": "array", "items": ' * levels + '{"type": "string"}' + "}" * levels


@pytest.mark.parametrize("levels", [300, 400, 900])
def test_a_schema_too_deep_skips_its_tool(tmp_path: Path, levels: int) -> None:
    deep = f'{{"name": "deep", "description": "D.", "inputSchema": {{"type": "object", "properties": {{"x": {_nested(levels)}}}}}}}'  # fmt: skip
    (tmp_path / "listing.json").write_text(f"[{deep}, {json.dumps(_tool('fine'))}]")
    out = tmp_path / "out"
    done = run_toolc("import", str(tmp_path / "listing.json"), "--out", str(out), "--server", "s")
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    assert "warning[import-tool-skipped]: tool 'deep'" in done.stderr
    assert "deeper than 64 levels" in done.stderr and (out / "tools.yaml").is_file()


def test_a_source_too_deep_to_read_is_invalid(tmp_path: Path) -> None:
    deep = f'[{{"name": "deep", "inputSchema": {{"type": "object", "properties": {{"x": {_nested(5000)}}}}}}}]'  # fmt: skip
    (tmp_path / "listing.json").write_text(deep)
    done = run_toolc("import", str(tmp_path / "listing.json"), "--out", str(tmp_path / "out"))
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "error[import-source-invalid]" in done.stderr and "too deeply" in done.stderr


def test_an_origin_command_that_does_not_split_is_a_usage_error(tmp_path: Path) -> None:
    done, out = _import(tmp_path, [_tool("t")], "--proxied", "--origin-command", 'uvx "x')
    assert done.returncode == 2 and "internal error" not in done.stderr, done.stderr
    assert "--origin-command" in done.stderr and "No closing quotation" in done.stderr
    assert not out.exists()


def test_hints_that_are_no_booleans_are_named_where_the_tool_is(tmp_path: Path) -> None:
    odd = _tool("odd", annotations={"readOnlyHint": "true", "destructiveHint": False, "x": 1})
    done, _ = _import(tmp_path, [_tool("plain"), odd])
    assert done.returncode == 0, done.stderr
    warned = [ln for ln in done.stderr.splitlines() if "warning[import-not-carried]" in ln]
    assert len(warned) == 1 and "tool 'odd'" in warned[0], done.stderr
    assert "annotations.readOnlyHint 'true' (not a boolean)" in warned[0]
    assert "annotations.x" in warned[0]
    assert warned[0].startswith(f"{tmp_path / 'listing.json'}:1:")  # located at the tool
