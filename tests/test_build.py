"""`toolc build`: what it writes, that it writes the same bytes every time, the version guard,
and that a failed build leaves everything as it was."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, run_toolc
from toolc import verbs, workspace

RETAIL = next(e for e in EXAMPLES if e.name == "retail")


def tree(folder: Path) -> dict[str, str]:
    """Every file below `folder` by relative path, with its content's sha256."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture
def config(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    shutil.copytree(RETAIL, folder, ignore=shutil.ignore_patterns("generated", "mcp-tools.json"))
    return folder


def build(config: Path, **kw: object) -> object:
    result = verbs.build(
        config,
        config / "generated" / "mcp_tools",
        config / "mcp-tools.json",
        write=True,
        cwd=config,
    )
    return result


def codes(result: object) -> list[str]:
    return [d.code for d in result.diagnostics]  # type: ignore[attr-defined]


def edit(config: Path, old: str, new: str, count: int = 1) -> None:
    path = config / "tools.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_build_writes_the_package_and_the_snapshot(config: Path) -> None:
    result = build(config)
    assert result.written and codes(result) == []  # type: ignore[attr-defined]
    out = config / "generated" / "mcp_tools"
    files = tree(out)
    for name in ("cancelar_pedidos", "consultar_pedidos"):
        assert f"schemas/{name}.input.json" in files and f"schemas/{name}.output.json" in files
        assert f"contracts/{name}.json" in files
    assert "tools.json" in files and "py.typed" in files and workspace.MANIFEST in files
    lines = (config / "mcp-tools.json").read_text().splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and len(lines) == 4
    entry = json.loads("{" + lines[1].rstrip(",") + "}")
    assert list(entry["cancelar_pedidos"]) == ["version", "server", "schema", "contract"]
    assert all(len(entry["cancelar_pedidos"][k]) == 16 for k in ("schema", "contract"))


def test_second_build_changes_nothing(config: Path) -> None:
    build(config)
    before = tree(config)
    again = run_toolc("build", str(config))
    assert again.returncode == 0 and "up to date" in again.stderr
    assert tree(config) == before
    (config / "generated" / "mcp_tools" / workspace.MANIFEST).unlink()  # force the full path
    assert build(config).written  # type: ignore[attr-defined]
    assert {k: v for k, v in tree(config).items() if not k.endswith(workspace.MANIFEST)} == {
        k: v for k, v in before.items() if not k.endswith(workspace.MANIFEST)
    }


def test_output_is_identical_across_working_directories_and_hash_seeds(
    config: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(config, twin)
    first = run_toolc("build", str(config), cwd=tmp_path)
    second = run_toolc("build", ".", cwd=twin)  # another working directory, another hash seed
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert tree(config) == tree(twin)


def test_black_and_ruff_settings_of_the_user_do_not_matter(config: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(config, plain)
    (config / "pyproject.toml").write_text(
        "[tool.black]\nline-length = 20\nskip-string-normalization = true\n[tool.ruff]\nline-length = 30\n"
    )
    build(config)
    build(plain)
    assert tree(config / "generated") == tree(plain / "generated")


def test_reordering_tools_changes_nothing(config: Path, tmp_path: Path) -> None:
    build(config)
    before = tree(config / "generated") | {"snapshot": tree(config)["mcp-tools.json"]}
    text = (config / "tools.yaml").read_text(encoding="utf-8")
    head, rest = text.split("  cancelar_pedidos:\n", 1)
    cancel, tail = rest.split("\n  consultar_pedidos:\n", 1)
    consult, types = tail.split("\ntypes:\n", 1)
    swapped = (
        head
        + "  consultar_pedidos:\n"
        + consult
        + "\n  cancelar_pedidos:\n"
        + cancel
        + "\ntypes:\n"
        + types
    )
    (config / "tools.yaml").write_text(swapped, encoding="utf-8")
    assert build(config).written  # type: ignore[attr-defined]
    after = tree(config / "generated") | {"snapshot": tree(config)["mcp-tools.json"]}
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed <= {f"mcp_tools/{workspace.MANIFEST}"}  # only the recorded input digest


def test_adding_a_tool_changes_no_other_tools_files(config: Path) -> None:
    build(config)
    before = tree(config / "generated" / "mcp_tools")
    edit(
        config,
        "\ntypes:\n",
        """
  devolver_pedidos:
    version: 1.0.0
    description: Devolve pedidos.
    mcp_server: retail
    tool_type: query
types:
""",
    )
    assert build(config).written  # type: ignore[attr-defined]
    after = tree(config / "generated" / "mcp_tools")
    per_tool = [k for k in before if k.startswith(("schemas/", "contracts/", "tools/"))]
    assert per_tool and all(before[k] == after[k] for k in per_tool)
    assert "contracts/devolver_pedidos.json" in after


def test_description_only_change_needs_a_bump_and_keeps_the_schema_fingerprint(
    config: Path,
) -> None:
    build(config)
    old = json.loads((config / "mcp-tools.json").read_text())["cancelar_pedidos"]
    snapshot_before = (config / "mcp-tools.json").read_bytes()
    edit(config, "Lista de identificadores de pedidos a cancelar.", "Os pedidos a cancelar.")
    refused = build(config)
    assert codes(refused) == ["version-not-bumped"] and not refused.written  # type: ignore[attr-defined]
    message = refused.diagnostics[0].message  # type: ignore[attr-defined]
    assert "kept version 2.0.0; bump it to at least 2.0.1" in message and old["contract"] in message
    assert (config / "mcp-tools.json").read_bytes() == snapshot_before
    edit(config, "version: 2.0.0", "version: 2.0.1")
    assert build(config).written  # type: ignore[attr-defined]
    new = json.loads((config / "mcp-tools.json").read_text())["cancelar_pedidos"]
    assert new["schema"] == old["schema"] and new["contract"] != old["contract"]
    assert new["version"] == "2.0.1"


def test_shape_change_changes_the_schema_fingerprint(config: Path) -> None:
    build(config)
    old = json.loads((config / "mcp-tools.json").read_text())["cancelar_pedidos"]
    edit(config, "maxLength: 200", "maxLength: 100")
    edit(config, "version: 2.0.0", "version: 3.0.0")
    assert build(config).written  # type: ignore[attr-defined]
    new = json.loads((config / "mcp-tools.json").read_text())["cancelar_pedidos"]
    assert new["schema"] != old["schema"]


def test_bump_without_change_and_lower_version(config: Path) -> None:
    build(config)
    edit(config, "version: 2.0.0", "version: 2.1.0")
    assert build(config).written  # type: ignore[attr-defined]
    edit(config, "version: 2.1.0", "version: 2.0.5")
    lowered = build(config)
    assert codes(lowered) == ["version-decreased"] and not lowered.written  # type: ignore[attr-defined]


def test_new_and_removed_tools(config: Path) -> None:
    build(config)
    text = (config / "tools.yaml").read_text(encoding="utf-8")
    start = text.index("  consultar_pedidos:\n")
    end = text.index("\ntypes:\n")
    (config / "tools.yaml").write_text(text[:start] + text[end + 1 :], encoding="utf-8")
    policies = (config / "tool_policies.yaml").read_text().split("  consultar_pedidos:")[0]
    (config / "tool_policies.yaml").write_text(policies)
    refused = build(config)  # removing a tool is a deliberate, recorded act (issue 5)
    assert codes(refused) == ["tool-removed"] and not refused.written  # type: ignore[attr-defined]
    version = json.loads((config / "mcp-tools.json").read_text())["consultar_pedidos"]["version"]
    accepted = (
        "accepted_breaks:\n  - {tool: consultar_pedidos, from: " + version
        + ", to: removed, rule: tool-removed, reason: merged into cancelar_pedidos}\n"
    )  # fmt: skip
    (config / "tools.yaml").write_text(text[:start] + text[end + 1 :] + accepted)
    removed = build(config)
    assert codes(removed) == [] and removed.written  # type: ignore[attr-defined]
    assert "consultar_pedidos" not in json.loads((config / "mcp-tools.json").read_text())
    assert not (
        config / "generated" / "mcp_tools" / "contracts" / "consultar_pedidos.json"
    ).exists()


@pytest.mark.parametrize(
    "text", ["{not json", '{"t": ' + "[" * 1500 + "]" * 1500 + "}"], ids=["not-json", "deep"]
)
def test_invalid_snapshot_is_reported_and_nothing_written(config: Path, text: str) -> None:
    # Nested 1,500 deep, it was an internal error (RecursionError).
    (config / "mcp-tools.json").write_text(text)
    result = build(config)
    assert codes(result) == ["snapshot-invalid"] and not result.written  # type: ignore[attr-defined]
    assert not (config / "generated").exists()
    (found,) = result.diagnostics  # type: ignore[attr-defined]
    assert found.hint and "restore it from version control" in found.hint
    if text.startswith("{not"):  # where the JSON went wrong, not 1:1 whatever it was
        assert (found.span.line, found.span.column) == (1, 2)


def test_disabled_tools_are_not_served_but_keep_their_contract(config: Path) -> None:
    edit(config, "    tool_type: query\n", "    tool_type: query\n    enabled: false\n")
    build(config)
    out = config / "generated" / "mcp_tools"
    served = [t["name"] for t in json.loads((out / "tools.json").read_text())["tools"]]
    assert served == ["cancelar_pedidos"]
    assert (
        json.loads((out / "contracts" / "consultar_pedidos.json").read_text())["enabled"] is False
    )
    snapshot = json.loads((config / "mcp-tools.json").read_text())
    assert snapshot["consultar_pedidos"]["enabled"] is False


def test_check_reports_missing_changed_orphaned_and_generator_only_drift(config: Path) -> None:
    build(config)
    out = config / "generated" / "mcp_tools"
    (out / "contracts" / "cancelar_pedidos.json").unlink()
    (out / "tools.json").write_text("{}\n")
    manifest = json.loads((out / workspace.MANIFEST).read_text())
    manifest["files"]["old_file.json"] = "0" * 64
    (out / workspace.MANIFEST).write_text(json.dumps(manifest))
    (out / "old_file.json").write_text("{}")
    python_file = next(iter(sorted(out.glob("*.py"))), None)
    if python_file is not None:
        text = python_file.read_text().split("\n", 1)
        python_file.write_text(text[0].replace("toolc ", "toolc 0.0.0-old ", 1) + "\n" + text[1])
    result = run_toolc("check", str(config), "--format", "json")
    found = {json.loads(line)["code"] for line in result.stdout.splitlines()}
    assert result.returncode == 1
    assert {"output-missing", "output-changed", "output-orphaned"} <= found
    if python_file is not None:
        assert "output-generator-version" in found
    diff = run_toolc("check", str(config), "--diff")
    assert "--- a/tools.json" in diff.stdout and "+++ b/tools.json" in diff.stdout


def test_check_writes_nothing(config: Path) -> None:
    build(config)
    edit(config, "Cancela um ou mais pedidos.", "Cancela pedidos.")
    edit(config, "version: 2.0.0", "version: 2.0.1")
    before = tree(config)
    result = run_toolc("check", str(config))
    assert result.returncode == 1 and "output-changed" in result.stderr
    assert tree(config) == before


def test_files_toolc_did_not_write_are_kept_and_never_overwritten(config: Path) -> None:
    build(config)
    out = config / "generated" / "mcp_tools"
    (out / "handlers_impl.py").write_text("# mine\n")
    edit(config, "version: 2.0.0", "version: 2.0.1")
    edit(config, "Cancela um ou mais pedidos.", "Cancela pedidos.")
    assert build(config).written  # type: ignore[attr-defined]
    assert (out / "handlers_impl.py").read_text() == "# mine\n"
    fresh = config / "elsewhere"
    (fresh / "mcp_tools").mkdir(parents=True)
    (fresh / "mcp_tools" / "tools.json").write_text("mine")
    clash = verbs.build(
        config, fresh / "mcp_tools", config / "other-snapshot.json", write=True, cwd=config
    )
    assert codes(clash) == ["output-not-owned"] and not clash.written
    assert (fresh / "mcp_tools" / "tools.json").read_text() == "mine"
    assert not (config / "other-snapshot.json").exists()


@pytest.mark.parametrize("fail_at", ["write", "snapshot-replace", "interrupt"])
def test_a_failed_build_leaves_the_previous_output_intact(
    config: Path, monkeypatch: pytest.MonkeyPatch, fail_at: str
) -> None:
    from toolc.workspace import staging as committing  # where the staged files are written

    build(config)
    edit(config, "version: 2.0.0", "version: 2.0.1")
    edit(config, "Cancela um ou mais pedidos.", "Cancela pedidos.")
    before = tree(config)
    calls = {"n": 0}
    real_write, real_replace = committing.write_new, os.replace

    def failing_write(path: Path, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            if fail_at == "interrupt":
                raise KeyboardInterrupt
            raise OSError(28, "No space left on device", str(path))
        real_write(path, data)

    def failing_replace(src: object, dst: object) -> None:
        if str(dst).endswith("mcp-tools.json"):
            raise OSError(28, "No space left on device", str(dst))
        real_replace(src, dst)  # type: ignore[arg-type]

    if fail_at == "snapshot-replace":
        monkeypatch.setattr(committing.os, "replace", failing_replace)
    else:
        monkeypatch.setattr(committing, "write_new", failing_write)
    if fail_at == "interrupt":
        with pytest.raises(KeyboardInterrupt):
            build(config)
    else:  # reported as what it is, never as a bug of toolc
        failed = build(config)
        assert codes(failed) == ["io-error"] and not failed.written  # type: ignore[attr-defined]
        assert "No space left on device" in failed.diagnostics[0].message  # type: ignore[attr-defined]
    assert tree(config) == before
    assert not [p for p in config.parent.iterdir() if "toolc-" in p.name]
    assert not [p for p in (config / "generated").iterdir() if "toolc-" in p.name]


def test_rebuild_restores_a_hand_edited_file_of_the_same_size(config: Path, tmp_path: Path) -> None:
    build(config)
    out = config / "generated" / "mcp_tools"
    target = out / "contracts" / "consultar_pedidos.json"
    original = target.read_bytes()
    target.write_bytes(original.replace(b'"enabled": true', b'"enabled": tru3'))
    edit(config, "version: 2.0.0", "version: 2.0.1")  # an unrelated tool changes: a real rebuild
    edit(config, "Cancela um ou mais pedidos.", "Cancela pedidos.")
    assert build(config).written  # type: ignore[attr-defined]
    assert target.read_bytes() == original


@pytest.mark.parametrize("cache", [True, False])
@pytest.mark.parametrize(
    "rel", ["tools/consultar_pedidos.py", "contracts/consultar_pedidos.json", "tools.json"]
)
def test_a_build_undoes_a_hand_edit(config: Path, rel: str, cache: bool) -> None:
    """Nothing changed in the config: `check` names the edited file, `build` (with or
    without the cache) restores it rather than calling the output up to date."""
    assert run_toolc("build", str(config)).returncode == 0
    target = config / "generated" / "mcp_tools" / rel
    original = target.read_bytes()
    target.write_bytes(original.replace(b"consultar", b"consultor", 1))
    checked = run_toolc("check", str(config))
    assert checked.returncode == 1 and f"{rel} differs from what toolc generates" in checked.stderr
    again = run_toolc("build", str(config), *([] if cache else ["--no-cache"]))
    assert again.returncode == 0 and "wrote" in again.stderr, again.stderr
    assert target.read_bytes() == original
    assert "up to date" in run_toolc("build", str(config)).stderr


def test_a_hand_edit_is_found_after_the_signatures_were_lost(config: Path) -> None:
    """A new machine (or a cleared cache) has no recorded signatures: every file is hashed."""
    assert run_toolc("build", str(config)).returncode == 0
    for stats in Path(os.environ["TOOLC_CACHE_DIR"]).glob("*.stats"):
        stats.unlink()
    assert "up to date" in run_toolc("build", str(config)).stderr  # same bytes: a no-op
    target = config / "generated" / "mcp_tools" / "server.py"
    target.write_text(target.read_text() + "# mine\n")
    assert "wrote" in run_toolc("build", str(config)).stderr
    assert not target.read_text().endswith("# mine\n")


def test_a_touched_file_is_hashed_once_then_trusted_under_its_new_signature(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same bytes, new mtime: the no-op hashes the file, finds it intact and records its new
    signature, so the next no-op compares every signature in one step and reads nothing."""
    from toolc.cache import filestats

    monkeypatch.setenv("TOOLC_CACHE_DIR", str(tmp_path / "cache"))
    assert run_toolc("build", str(config)).returncode == 0
    out = config / "generated" / "mcp_tools"
    (stats,) = (tmp_path / "cache").glob("*.stats")
    manifest = json.loads((config / "generated" / "mcp_tools" / workspace.MANIFEST).read_bytes())
    inputs = manifest["inputs"]
    before = filestats.load(str(stats), inputs)
    assert before is not None and before.names and "server.py" in before.names
    assert filestats.current(f"{out}{os.sep}", before.names) == before.flat
    target = out / "server.py"
    os.utime(target, ns=(1, 1_000_000_000))
    assert "up to date" in run_toolc("build", str(config)).stderr
    after = filestats.load(str(stats), inputs)
    assert after is not None and after.names == before.names and after.flat != before.flat
    assert (
        dict(zip(after.names, filestats.triples(after.flat), strict=True))["server.py"][1] == 10**9
    )
    assert filestats.current(f"{out}{os.sep}", after.names) == after.flat


def test_signatures_in_an_older_layout_are_not_used(tmp_path: Path) -> None:
    """A record in the JSON layout before marshal's, even with a valid MAC, is ignored: the
    no-op then hashes every file, as without a record. So is another build's record, and an
    authentic record whose signatures are not three integers a name."""
    from toolc.cache import filestats
    from toolc.cache.key import record_mac

    files = json.dumps({"names": ["a"], "flat": [1, 2, 3]}).encode()
    head = json.dumps({"inputs": "x", "mac": record_mac("x", files)}).encode()
    (old := tmp_path / "old.stats").write_bytes(head + b"\n" + files)
    assert filestats.load(str(old), "x") is None
    (new := tmp_path / "new.stats").write_bytes(filestats.encode("x", {"a": (1, 2, 3)}))
    loaded = filestats.load(str(new), "x")
    assert loaded is not None and loaded.names == ["a"] and loaded.flat == [1, 2, 3]
    assert loaded.packed == filestats.pack([1, 2, 3])
    assert filestats.load(str(new), "y") is None  # another build's record
    for body in (b"a\0\0" + filestats.pack([1, 2]), b"a\0\0" + marshal.dumps("abc")):
        (odd := tmp_path / "odd.stats").write_bytes(record_mac("x", body).encode() + b"\n" + body)
        odd_record = filestats.load(str(odd), "x")
        assert odd_record is not None  # authentic: read, but its signatures are refused
        with pytest.raises(ValueError):
            odd_record.flat  # noqa: B018


def test_equal_signatures_pack_to_equal_bytes() -> None:
    """The no-op compares packed bytes: equal lists must give equal bytes whichever integer
    objects they hold (marshal's later versions write back-references by identity)."""
    from toolc.cache import filestats

    big = 10**18 + 7
    shared = [big, big, 5]
    apart = [10**18 + int("7"), 10**18 + int("7"), int("5")]
    assert shared == apart and shared[0] is shared[1] and apart[0] is not apart[1]
    assert filestats.pack(shared) == filestats.pack(apart)
    assert marshal.dumps(shared) != marshal.dumps(apart)  # what version 2 avoids


def test_a_deleted_manifest_does_not_strand_a_hand_edit(config: Path) -> None:
    """Generated Python files say so in their first line: without the manifest, toolc still
    knows them as its own and restores them; a foreign file of the same name stays refused."""
    assert run_toolc("build", str(config)).returncode == 0
    out = config / "generated" / "mcp_tools"
    target = out / "tools" / "consultar_pedidos.py"
    original = target.read_bytes()
    target.write_bytes(original + b"# edited\n")
    (out / workspace.MANIFEST).unlink()
    done = run_toolc("build", str(config))
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == original
    (out / workspace.MANIFEST).unlink()
    (out / "client.py").write_text("# my own client\n")
    refused = run_toolc("build", str(config))
    assert refused.returncode == 1 and "output-not-owned" in refused.stderr
    assert (out / "client.py").read_text() == "# my own client\n"


def test_user_folders_and_permissions_survive_a_rebuild(config: Path) -> None:
    build(config)
    out = config / "generated" / "mcp_tools"
    (out / "mine" / "empty").mkdir(parents=True)
    (out / "private").mkdir()
    (out / "private" / "notes.txt").write_text("x")
    os.chmod(out / "private", 0o700)
    edit(config, "version: 2.0.0", "version: 2.0.1")
    edit(config, "Cancela um ou mais pedidos.", "Cancela pedidos.")
    assert build(config).written  # type: ignore[attr-defined]
    assert (out / "mine" / "empty").is_dir()
    assert (out / "private" / "notes.txt").read_text() == "x"
    assert (out / "private").stat().st_mode & 0o777 == 0o700


def test_each_tools_digests_are_the_manifests(config: Path) -> None:
    """The digests a tool's output carries (made as it is emitted, reused by rebuilds that
    keep the tool) are the manifest's digests of those files."""
    from toolc.emit.python import module_file
    from toolc.pipeline import compile
    from toolc.source.inputs import read_inputs

    compiled = compile(read_inputs(config, config))
    assert compiled.units is not None and compiled.package is not None
    for name, output in compiled.units.outputs.items():
        files = {**output.files, module_file(name): compiled.package.files[module_file(name)]}
        assert output.digests == {rel: workspace.digest(data) for rel, data in files.items()}


def test_a_missing_output_directory_is_one_finding(tmp_path: Path) -> None:
    """A deleted output gave one `output-missing` per file it would hold (58 for retail)."""
    config = tmp_path / "retail"
    shutil.copytree(ROOT / "examples" / "retail", config)
    shutil.rmtree(config / "generated")
    done = run_toolc("check", str(config))
    assert done.returncode == 1
    assert done.stderr.count("error[output-missing]") == 1, done.stderr
    assert "the output directory is missing (" in done.stderr
    (config / "generated" / "mcp_tools").mkdir(parents=True)  # there, but empty: each file
    assert run_toolc("check", str(config)).stderr.count("error[output-missing]") > 10


def test_a_write_that_fails_says_what_is_wrong_and_where(tmp_path: Path) -> None:
    """io-error named a temporary file (`.snap.json.toolc-new-x1y2`) and said only "File
    exists" for an output under a file."""
    config = tmp_path / "retail"
    shutil.copytree(ROOT / "examples" / "retail", config)
    (tmp_path / "afile").write_text("mine\n")
    under_a_file = run_toolc("build", str(config), "--out", str(tmp_path / "afile" / "mcp_tools"))
    assert under_a_file.returncode == 1
    assert f"{tmp_path / 'afile'} is a file, not a directory" in under_a_file.stderr
    assert "move the file away" in under_a_file.stderr
    # The path asked for is named, not the file on its way (it named `afile` twice).
    for option, asked in [
        ("--out", tmp_path / "afile" / "mcp_tools"),
        ("--docs-out", tmp_path / "afile" / "docs"),
        ("--snapshot", tmp_path / "afile" / "deeper" / "snap.json"),
    ]:
        failed = run_toolc("build", str(config), option, str(asked))
        assert failed.returncode == 1
        assert f"cannot write {asked}: {tmp_path / 'afile'} is a file" in failed.stderr
    nowhere = tmp_path / "nowhere" / "snap.json"
    no_folder = run_toolc("build", str(config), "--snapshot", str(nowhere))
    assert no_folder.returncode == 1
    assert f"cannot write {nowhere}: the folder {nowhere.parent} does not exist" in no_folder.stderr
    assert "toolc-new" not in no_folder.stderr


def test_an_io_error_names_the_path_asked_for_not_a_scratch_one() -> None:
    from toolc.workspace.recovery import stands_for

    assert stands_for(Path("d/.snap.json.toolc-new-x1y2")) == Path("d/snap.json")
    assert stands_for(Path("g/.mcp_tools.toolc-new-ab12/tools/x.py")) == Path(
        "g/mcp_tools/tools/x.py"
    )
    assert stands_for(Path("/r/.mcp_tools.toolc-lock")) == Path("/r/mcp_tools")
    assert stands_for(Path("plain/.hidden/x")) == Path("plain/.hidden/x")
