"""`pipeline.compile` is pure: it reads nothing but the bytes it is given and writes nothing,
and what it returns is what `toolc build` writes. A build reads each config file once."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import EXAMPLES
from toolc import verbs
from toolc.pipeline import compile
from toolc.source.inputs import read_inputs

_EVENTS: list[tuple[str, tuple[object, ...]]] | None = None
_WRITING = {"os.rename", "os.replace", "os.remove", "os.rmdir", "os.mkdir", "os.link",
            "os.symlink", "os.chmod", "os.truncate", "shutil.rmtree", "shutil.copyfile"}  # fmt: skip


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _EVENTS is not None and (event == "open" or event in _WRITING):
        _EVENTS.append((event, args))


sys.addaudithook(_audit)  # audit hooks cannot be removed: it records only inside `watched`


@contextmanager
def watched() -> Iterator[list[tuple[str, tuple[object, ...]]]]:
    global _EVENTS
    _EVENTS = []
    try:
        yield _EVENTS
    finally:
        _EVENTS = None


def _for_writing(mode: object, flags: object) -> bool:
    if isinstance(mode, str):
        return bool(set(mode) & set("wax+"))
    return isinstance(flags, int) and bool(flags & 0o3)  # O_WRONLY / O_RDWR


def _writes(events: list[tuple[str, tuple[object, ...]]]) -> list[object]:
    found = []
    for event, args in events:
        if event == "open" and args[0] == "/dev/null":
            continue  # where ctypes' library lookup (memory.py) sends a helper's output
        if event != "open":
            found.append((event, args))
        elif _for_writing(args[1], args[2]):
            found.append(args[0])
    return found


def _opened(events: list[tuple[str, tuple[object, ...]]], folder: Path) -> list[str]:
    return [str(a[0]) for e, a in events if e == "open" and str(a[0]).startswith(str(folder))]


def test_the_watch_sees_reads_and_writes(tmp_path: Path) -> None:
    """The checks below can fail: a write and a read under the folder are both seen."""
    with watched() as events:
        (tmp_path / "x").write_text("x")
        (tmp_path / "x").read_text()
    assert _writes(events) and len(_opened(events, tmp_path)) == 2


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_compile_reads_and_writes_nothing_and_is_the_build(example: Path) -> None:
    inputs = read_inputs(example, example)
    with watched() as events:
        compiled = compile(inputs)
    assert _writes(events) == []
    assert _opened(events, example) == []  # the config's bytes came with `inputs`
    assert not compiled.has_errors and compiled.package is not None
    golden = example / "generated" / "mcp_tools"
    on_disk = {
        p.relative_to(golden).as_posix(): p.read_bytes()
        for p in golden.rglob("*")
        if p.is_file() and p.name != ".toolc-manifest.json"
    }
    assert compiled.files == on_disk
    assert set(compiled.tools) == set(compiled.package.snapshot)


def test_a_build_reads_each_config_file_once(tmp_path: Path) -> None:
    example = next(p for p in EXAMPLES if p.name == "telecom")
    config = tmp_path / "config"
    config.mkdir()
    for name in ("tools.yaml", "tool_policies.yaml"):
        (config / name).write_bytes((example / name).read_bytes())
    out = tmp_path / "gen" / "mcp_tools"
    with watched() as events:
        result = verbs.build(config, out, tmp_path / "snap.json", write=True, cwd=tmp_path)
    assert result.written, result.diagnostics
    assert sorted(Path(p).name for p in _opened(events, config)) == [
        "tool_policies.yaml",
        "tools.yaml",
    ]
