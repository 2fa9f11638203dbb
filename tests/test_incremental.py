"""The incremental build gives exactly what a full build gives: for each kind of edit, a build
that uses the cache and one that does not (from the same previous output and snapshot) must
agree on every diagnostic, every file and the snapshot. Each case also states whether the
cache was used, so a cache that is never used cannot pass for a correct one."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, run_toolc
from toolc import verbs
from toolc.cache.codec import MAGIC
from toolc.cache.layout import split
from toolc.diagnostics.render import render_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from gen_config import render

NAMES = re.findall(r"^  ([a-z_0-9]+):$", render(12)[0], re.M)


def _base() -> tuple[str, str]:
    tools, policies = render(12)
    # A warning in a late tool (an unknown format): it must move when an edit above shifts it.
    late = NAMES[10]
    at = tools.index(f"  {late}:\n")
    args = tools.index("    args_schema:\n", at) + len("    args_schema:\n")
    colour = "      colour:\n        type: string\n        format: colour\n"
    return tools[:args] + colour + tools[args:], policies


def _bump(text: str, tool: str) -> str:
    at = text.index(f"  {tool}:\n")
    start = text.index("    version: ", at)
    end = text.index("\n", start)
    major = int(text[start + 13 : end].split(".")[0])
    return text[:start] + f"    version: {major + 1}.0.0" + text[end:]


def _in_tool(text: str, tool: str, old: str, new: str) -> str:
    at = text.index(f"  {tool}:\n")
    where = text.index(old, at)
    return text[:where] + new + text[where + len(old) :]


def _prefix_description(text: str, tool: str, prefix: str) -> str:
    at = text.index(f"  {tool}:\n")
    start = text.index("    description: ", at) + len("    description: ")
    if text[start] == '"':  # inside the quotes, not before them
        start += 1
    return text[:start] + prefix + text[start:]


Edit = Callable[[str, str], tuple[str, str]]


def _describe(tools: str, policies: str) -> tuple[str, str]:
    return _bump(_prefix_description(tools, NAMES[0], "Edited. "), NAMES[0]), policies


def _grow(tools: str, policies: str) -> tuple[str, str]:
    extra = "      note_extra:\n        type: string\n        maxLength: 9\n"
    t = _in_tool(tools, NAMES[2], "    args_schema:\n", "    args_schema:\n" + extra)
    return _bump(t, NAMES[2]), policies


def _break(tools: str, policies: str) -> tuple[str, str]:
    return _in_tool(tools, NAMES[3], "        type: string\n", "        type: strng\n"), policies


def _no_bump(tools: str, policies: str) -> tuple[str, str]:
    return _prefix_description(tools, NAMES[4], "Quietly. "), policies


def _policy(tools: str, policies: str) -> tuple[str, str]:
    """A pre-validated tool's policy: the tool and its validator are read again."""
    match = re.search(
        r"^  (\w+):\n(?:    .*\n)*?    pre_validation: \{enabled: true, tool: \w+", policies, re.M
    )
    assert match is not None
    name = match.group(1)
    p = policies[: match.end()] + ", fail_open: true" + policies[match.end() :]
    return _bump(tools, name), p


def _accepts(tools: str, policies: str) -> tuple[str, str]:
    """A pre-validated tool gains `accepts`: it and its validator are checked together."""
    match = re.search(
        r"^  (\w+):\n(?:    .*\n)*?    pre_validation: \{enabled: true", policies, re.M
    )
    assert match is not None
    name = match.group(1)
    sent = '    accepts:\n      cart_id: {type: string, pattern: "^CRT-[0-9]{4,10}$"}\n'
    return _bump(
        _in_tool(tools, name, "    args_schema:\n", sent + "    args_schema:\n"), name
    ), policies


def _types(tools: str, policies: str) -> tuple[str, str]:
    at = tools.index("\ntypes:\n")
    where = tools.index("description: ", at) + len("description: ")
    return tools[:where] + "Shared. " + tools[where:], policies


def _add_tool(tools: str, policies: str) -> tuple[str, str]:
    new = (
        "  zz_added_tool:\n    version: 1.0.0\n    description: Added.\n"
        "    mcp_server: orders\n    tool_type: query\n"
    )
    at = tools.index("\ntypes:\n")
    return tools[:at] + "\n" + new + tools[at:], policies


def _no_policy(tools: str, policies: str) -> tuple[str, str]:
    """A tool without a policy entry: the re-read needs no policies file at all."""
    name = next(n for n in NAMES if f"  {n}:" not in policies)
    return _bump(_prefix_description(tools, name, "Edited. "), name), policies


def _names_a_tool(tools: str, policies: str) -> tuple[str, str]:
    """A description naming another tool, in backticks, close to one of its own arguments:
    only the whole config knows that name (the re-read alone warned, and kept the warning)."""
    arg = f"    args_schema:\n      {NAMES[9]}s:\n        type: string\n"
    t = _in_tool(tools, NAMES[0], "    args_schema:\n", arg)
    t = _prefix_description(t, NAMES[0], f"Like `{NAMES[9]}`. ")
    return _bump(t, NAMES[0]), policies


def _comment_only(tools: str, policies: str) -> tuple[str, str]:
    return _in_tool(tools, NAMES[5], "    version: ", "    # a note\n    version: "), policies


# (edit, expected: True = incremental, False = full read)
CASES: dict[str, tuple[Edit, bool]] = {
    "description-and-bump": (_describe, True),
    "lines-added-above-a-warning": (_grow, True),
    "error-falls-back": (_break, False),
    "contract-changed-without-bump": (_no_bump, True),
    "policy-changed": (_policy, True),
    "accepts-added": (_accepts, True),
    "shared-type-changed": (_types, False),
    "tool-added": (_add_tool, False),
    "comment-only": (_comment_only, True),
    "description-names-another-tool": (_names_a_tool, False),
    "tool-without-policy": (_no_policy, True),
}


def _write(folder: Path, tools: str, policies: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tools.yaml").write_text(tools, encoding="utf-8")
    (folder / "tool_policies.yaml").write_text(policies, encoding="utf-8")


def _tree(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _shown(result: verbs.BuildResult) -> str:
    return render_text(result.diagnostics, result.sources)


@pytest.mark.parametrize("case", sorted(CASES))
def test_incremental_build_equals_full_build(case: str, tmp_path: Path) -> None:
    edit, incremental = CASES[case]
    tools, policies = _base()
    config = tmp_path / "cfg"
    _write(config, tools, policies)
    cached_out, full_out = tmp_path / "a" / "pkg", tmp_path / "b" / "pkg"
    cached_snap, full_snap = tmp_path / "a.json", tmp_path / "b.json"
    first = verbs.build(config, cached_out, cached_snap, write=True, cwd=tmp_path)
    assert first.written and first.reread is None, _shown(first)
    assert [d.code for d in first.diagnostics] == ["unknown-format"]
    shutil.copytree(cached_out, full_out)
    shutil.copy(cached_snap, full_snap)

    _write(config, *edit(tools, policies))
    cached = verbs.build(config, cached_out, cached_snap, write=True, cwd=tmp_path)
    full = verbs.build(config, full_out, full_snap, write=True, cwd=tmp_path, cache=False)

    assert (cached.reread is not None) == incremental, cached.reread
    assert full.reread is None
    assert _shown(cached) == _shown(full)
    assert cached.written == full.written
    assert _tree(cached_out) == _tree(full_out)
    assert cached_snap.read_bytes() == full_snap.read_bytes()


def test_a_chain_of_incremental_builds_stays_exact(tmp_path: Path) -> None:
    """Edit after edit, each build from the cache the last one left."""
    tools, policies = _base()
    config, out, snap = tmp_path / "cfg", tmp_path / "a" / "pkg", tmp_path / "a.json"
    _write(config, tools, policies)
    verbs.build(config, out, snap, write=True, cwd=tmp_path)
    for step, tool in enumerate(NAMES[:6]):
        tools = _bump(_prefix_description(tools, tool, f"S{step}. "), tool)
        _write(config, tools, policies)
        result = verbs.build(config, out, snap, write=True, cwd=tmp_path)
        assert result.written and result.reread is not None and tool in result.reread
        fresh = tmp_path / f"fresh{step}"
        again = verbs.build(config, fresh / "pkg", fresh / "s.json", write=False, cache=False)
        on_disk = _tree(out)
        del on_disk[".toolc-manifest.json"]
        assert again.files == on_disk


def test_windows_line_endings_use_the_cache(tmp_path: Path) -> None:
    tools, policies = _base()
    config, out, snap = tmp_path / "cfg", tmp_path / "a" / "pkg", tmp_path / "a.json"
    _write(config, tools.replace("\n", "\r\n"), policies.replace("\n", "\r\n"))
    verbs.build(config, out, snap, write=True, cwd=tmp_path)
    edited = _bump(_prefix_description(tools, NAMES[0], "E. "), NAMES[0])
    _write(config, edited.replace("\n", "\r\n"), policies.replace("\n", "\r\n"))
    cached = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    full = verbs.build(
        config, tmp_path / "b" / "pkg", tmp_path / "b.json", write=False, cache=False
    )
    assert cached.reread is not None and cached.written
    on_disk = _tree(out)
    del on_disk[".toolc-manifest.json"]
    assert full.files == on_disk


def test_a_hand_edited_output_file_is_restored(tmp_path: Path) -> None:
    tools, policies = _base()
    config, out, snap = tmp_path / "cfg", tmp_path / "a" / "pkg", tmp_path / "a.json"
    _write(config, tools, policies)
    verbs.build(config, out, snap, write=True, cwd=tmp_path)
    victim = out / "contracts" / f"{NAMES[7]}.json"
    original = victim.read_bytes()
    victim.write_bytes(original + b"\n")
    tools, _ = _describe(tools, policies)
    _write(config, tools, policies)
    result = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert result.reread is not None and NAMES[7] not in result.reread
    assert victim.read_bytes() == original


def test_an_unreadable_cache_means_a_full_build(tmp_path: Path) -> None:
    tools, policies = _base()
    config, out, snap = tmp_path / "cfg", tmp_path / "a" / "pkg", tmp_path / "a.json"
    _write(config, tools, policies)
    verbs.build(config, out, snap, write=True, cwd=tmp_path)
    caches = list(Path(__import__("os").environ["TOOLC_CACHE_DIR"]).glob("build-*.cache"))
    assert caches
    for cache in caches:
        cache.write_bytes(MAGIC + b"garbage")  # our magic, then nothing of ours
    _write(config, *_describe(tools, policies))
    result = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert result.written and result.reread is None


# --- cutting files into pieces --------------------------------------------------------------


def test_split_cuts_entries_and_keeps_lines() -> None:
    text = (
        "# head\ntools:\n  a:\n    version: 1.0.0\n\n  # about b\n  b:\n    x: 1\ntypes:\n  T: {}\n"
    )
    layout = split(text, "tools")
    assert layout is not None
    assert list(layout.entries) == ["a", "b"]
    kept = layout.keeping({"b"})
    assert kept.count("\n") == text.count("\n")
    assert "version" not in kept and "x: 1" in kept and "T: {}" in kept
    assert layout.piece_at(7) == (("entry", "b"), 0)
    assert layout.line_of(("entry", "b"), 1) == 8
    assert layout.keeping(set(layout.entries)) == text


@pytest.mark.parametrize(
    "text",
    [
        "tools:\n  a: &x\n    v: 1\n  b: *x\n",  # anchors tie entries together
        "tools:\n  a:\n    d: |+\n      keep\n\n  b: {}\n",  # kept trailing newlines
        "tools:\n\ta: {}\n",  # a tab
        "---\ntools:\n  a: {}\n",  # document markers
        "tools: {a: {}}\n",  # flow style
        "tools:\n  a: {}\n  a: {}\n",  # a duplicate key
        'tools:\n  "a": {}\n',  # a quoted key
        'tools:\n  a:\n    d: "x\ny"\n',  # a scalar continued at column 0
    ],
)
def test_split_declines_layouts_it_cannot_cut_safely(text: str) -> None:
    assert split(text, "tools") is None


@pytest.mark.parametrize("example", ["files", "telecom"])
def test_tools_with_checked_patterns_or_accepts_keep_their_cache(
    example: str, tmp_path: Path
) -> None:
    """A tool's unit may hold its pattern translations (patterns/<tool>.json) and, with
    `accepts`, its handler's form (schemas/<tool>.handler.json): the cache reuses them instead of
    calling them another tool's files."""
    config = tmp_path / example
    shutil.copytree(ROOT / "examples" / example, config)
    shutil.rmtree(config / "generated")
    (config / "mcp-tools.json").unlink()
    first = run_toolc("build", str(config))
    assert first.returncode == 0, first.stderr
    text = (config / "tools.yaml").read_text(encoding="utf-8")
    (config / "tools.yaml").write_text(text + "\n# an edit the cache must absorb\n")
    again = run_toolc("build", str(config))
    assert again.returncode == 0, again.stderr
    assert "ignoring the build cache" not in again.stderr, again.stderr


def _built(tmp_path: Path, tools: str, policies: str) -> tuple[Path, Path, Path, Path]:
    """A first build of the config: its folder, output, snapshot and build cache."""
    from toolc.cache import incremental

    config, out, snap = tmp_path / "cfg", tmp_path / "a" / "pkg", tmp_path / "a.json"
    _write(config, tools, policies)
    verbs.build(config, out, snap, write=True, cwd=tmp_path)
    path = incremental.cache_file(config, out, snap)
    assert path is not None
    return config, out, snap, path


def test_an_authentic_cache_malformed_below_its_fields_means_a_full_build(tmp_path: Path) -> None:
    """Its key holder wrote a record whose span holds text where a line offset goes: loading
    checks only each field's top, so the incremental build trips on it and the full build
    runs instead, with the output a full build gives (decision 0118)."""
    from msgspec.structs import replace
    from toolc.cache import incremental

    tools, policies = _base()
    config, out, snap, path = _built(tmp_path, tools, policies)
    cache = incremental.load(path)
    assert cache is not None
    name = cache.tool_order[-1]
    record = cache.records[name]
    key, version, value = record.declared
    bad = replace(record, declared=(key, version, (*value[:2], "x", *value[3:])))
    with path.open("wb") as stream:
        incremental.dump(replace(cache, records={**cache.records, name: bad}), path, stream)
    assert incremental.load(path) is not None  # authentic, and its fields' tops are right
    _write(config, *_describe(tools, policies))
    result = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert result.written and result.reread is None
    fresh = tmp_path / "b" / "pkg"
    verbs.build(config, fresh, tmp_path / "b.json", write=True, cwd=tmp_path, cache=False)

    def files(root: Path) -> dict[Path, bytes]:
        found = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        return {rel: data for rel, data in found.items() if rel.name != ".toolc-manifest.json"}

    assert files(out) == files(fresh) and len(files(out)) > 10


def test_records_an_edit_did_not_touch_are_written_as_they_were_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache after a one-tool edit: every record the edit did not reach is written as the
    bytes it was loaded from (their items in tools.json moved, which the records do not hold),
    the edited ones are encoded afresh, and the file loads to what the build made."""
    from toolc.cache import incremental
    from toolc.cache.codec import Frames, Reuse

    tools, policies = _base()
    config, out, snap, path = _built(tmp_path, tools, policies)
    before: Frames = {}
    assert incremental.load(path, frames=before) is not None
    reused: list[str] = []
    real = incremental.unchanged_frames

    def counting(previous: incremental.BuildCache, frames: Frames) -> Reuse:
        inner = real(previous, frames)

        def reuse(field: str, key: str, value: object) -> memoryview | None:
            found = inner(field, key, value)
            if found is not None:
                reused.append(key)
            return found

        return reuse

    monkeypatch.setattr(incremental, "unchanged_frames", counting)
    _write(config, *_describe(tools, policies))
    result = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert result.reread is not None and NAMES[0] in result.reread
    after: Frames = {}
    cache = incremental.load(path, frames=after)
    assert cache is not None
    # Every record not read again is written as read; so is a re-read one whose output came
    # out the same (the edited tool's validator); the edited tool's never is.
    assert set(cache.tool_order) - result.reread <= set(reused)
    assert NAMES[0] not in reused and len(reused) >= len(NAMES) - 2
    for name in cache.tool_order:
        same = bytes(after[("records", name)]) == bytes(before[("records", name)])
        assert same == (name in reused), name
    again = verbs.compile_config(config, tmp_path).package
    assert again is not None
    assert cache.tools_json == again.files["tools.json"]
    assert cache.item_spans == again.item_spans


def test_a_validator_read_again_keeps_its_findings_about_every_target(tmp_path: Path) -> None:
    """A target's check against its validator reports at the validator: editing another
    target of the same validator re-read the validator without the first target, and the
    first one's warning was lost (and stayed lost: the cache kept the clean record)."""

    def tool(name: str, pattern: str, description: str = "Looks.", version: str = "1.0.0") -> str:
        return (
            f"  {name}:\n    version: {version}\n    description: {description}\n"
            f"    mcp_server: shop\n    tool_type: query\n    args_schema:\n"
            f"      order_id: {{type: string, pattern: '{pattern}'}}\n"
        )

    fillers = "".join(tool(f"filler_{n}", "^x$") for n in ("one", "two", "three"))
    policies = (
        "tool_policies:\n  aaa_target:\n    pre_validation: {tool: check_order}\n"
        "  bbb_target:\n    pre_validation: {tool: check_order}\n"
    )

    def tools(bbb: str) -> str:
        return (
            "tools:\n"
            + tool("aaa_target", "^a*c$")
            + bbb
            + tool("check_order", "^(a|b)*c$")
            + fillers
        )

    config = tmp_path / "cfg"
    _write(config, tools(tool("bbb_target", "^(a|b)*c$")), policies)
    out, snap = tmp_path / "a" / "pkg", tmp_path / "a.json"
    first = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    assert [d.code for d in first.diagnostics] == ["prevalidator-undecided"], _shown(first)
    shutil.copytree(out, tmp_path / "b" / "pkg")
    shutil.copy(snap, tmp_path / "b.json")
    edited = tool("bbb_target", "^(a|b)*c$", "Looks again.", "1.0.1")
    _write(config, tools(edited), policies)
    cached = verbs.build(config, out, snap, write=True, cwd=tmp_path)
    full = verbs.build(
        config, tmp_path / "b" / "pkg", tmp_path / "b.json", write=True, cwd=tmp_path, cache=False
    )
    assert cached.reread is not None  # the incremental path, and still the whole verdict
    assert _shown(cached) == _shown(full) == _shown(first)
    assert [d.code for d in cached.diagnostics] == ["prevalidator-undecided"]
