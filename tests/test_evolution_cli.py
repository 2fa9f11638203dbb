"""Contract evolution as a user meets it: `toolc diff`, `toolc bump [--write]`, the semver
guard of `toolc build`, accepted breaks, `--against` a git revision, and every output format
(GitHub annotations and JUnit checked against their documented syntax)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import run_toolc

TOOLS = """\
# The orders service.
tools:
  get_order:
    version: "1.4.0"   # quoted on purpose: bump keeps it so
    description: Looks up one order.
    mcp_server: shop
    tool_type: query
    requires: [order_id]
    args_schema:
      order_id: {type: string, pattern: "^P-[0-9]+$"}
      verbose: {type: boolean, description: More detail.}
  list_orders:
    version: 0.3.0
    description: Lists orders.
    mcp_server: shop
    tool_type: query
"""


def _config(folder: Path, text: str = TOOLS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tools.yaml").write_text(text, encoding="utf-8")
    return folder


def _built(tmp_path: Path) -> Path:
    config = _config(tmp_path / "cfg")
    done = run_toolc("build", str(config))
    assert done.returncode == 0, done.stderr
    return config


def _drop_verbose(text: str) -> str:
    return text.replace("      verbose: {type: boolean, description: More detail.}\n", "")


def test_a_breaking_change_needs_a_major_bump(tmp_path: Path) -> None:
    config = _built(tmp_path)
    (config / "tools.yaml").write_text(_drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"'))
    built = run_toolc("build", str(config))
    assert built.returncode == 1
    assert "version-bump-too-small" in built.stderr and "arg-removed" in built.stderr
    assert "at least 2.0.0" in built.stderr
    diff = run_toolc("diff", str(config))
    assert diff.returncode == 1
    assert "arg-removed" in diff.stdout and "needs major" in diff.stdout


def test_bump_and_build_name_the_same_rules_for_one_change(tmp_path: Path) -> None:
    """A break, a compatible addition and a reworded description: the major bump is forced by
    the break alone, and both commands name that rule and only that one."""
    config = _built(tmp_path)
    text = _drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"')
    text = text.replace("Looks up one order.", "Finds one order.").replace(
        "      order_id:", "      extra: {type: integer}\n      order_id:"
    )
    (config / "tools.yaml").write_text(text)
    diff = run_toolc("diff", str(config)).stdout
    assert all(r in diff for r in ("arg-removed", "arg-added-optional", "description-changed"))
    built = run_toolc("build", str(config))
    named = re.search(r"changed its contract \(([^)]*)\) and went from", built.stderr)
    assert named is not None and named[1] == "arg-removed", built.stderr
    bumped = run_toolc("bump", str(config))
    assert "get_order: 1.5.0 → 2.0.0 (major: arg-removed)\n" in bumped.stdout, bumped.stdout
    # Left unchanged, the version gets the same rules from build (version-not-bumped).
    (config / "tools.yaml").write_text(text.replace('"1.5.0"', '"1.4.0"'))
    kept = run_toolc("build", str(config))
    assert "changed its contract (arg-removed) (" in kept.stderr, kept.stderr
    assert (
        "get_order: 1.4.0 → 2.0.0 (major: arg-removed)\n" in run_toolc("bump", str(config)).stdout
    )


def test_a_version_left_unchanged_is_told_the_bump_it_needs(tmp_path: Path) -> None:
    config = _built(tmp_path)
    (config / "tools.yaml").write_text(_drop_verbose(TOOLS))
    built = run_toolc("build", str(config))
    assert built.returncode == 1 and "version-not-bumped" in built.stderr
    assert "(arg-removed)" in built.stderr and "at least 2.0.0" in built.stderr


def test_bump_write_edits_only_the_versions(tmp_path: Path) -> None:
    config = _built(tmp_path)
    edited = _drop_verbose(TOOLS)
    (config / "tools.yaml").write_text(edited)
    printed = run_toolc("bump", str(config))
    assert printed.returncode == 1 and "get_order: 1.4.0 → 2.0.0" in printed.stdout
    assert (config / "tools.yaml").read_text() == edited  # without --write nothing changes
    wrote = run_toolc("bump", str(config), "--write")
    assert wrote.returncode == 0, wrote.stderr
    after = (config / "tools.yaml").read_text()
    assert after == edited.replace('"1.4.0"', '"2.0.0"')  # quoting and comment kept
    assert run_toolc("build", str(config)).returncode == 0


@pytest.mark.parametrize("lost", ["its line", "the whole snapshot"])
def test_a_snapshot_line_lost_does_not_let_a_break_through(tmp_path: Path, lost: str) -> None:
    """A line lost resolving a merge conflict (or the file deleted): the guard took the tool
    for a new one and passed the break unbumped, while `diff` read the last output's contract
    and failed it. Both read that document now."""
    config = _built(tmp_path)
    (config / "tools.yaml").write_text(_drop_verbose(TOOLS))
    snap = config / "mcp-tools.json"
    if lost == "its line":
        entries = json.loads(snap.read_text())
        del entries["get_order"]
        snap.write_text(json.dumps(entries, indent=2) + "\n")
    else:
        snap.unlink()
    diffed = run_toolc("diff", str(config))
    built = run_toolc("build", str(config))
    assert diffed.returncode == built.returncode == 1, built.stderr
    assert "version-not-bumped" in built.stderr and "arg-removed" in built.stderr
    assert "at least 2.0.0" in built.stderr


def _moved(text: str = TOOLS) -> str:
    """`get_order` served by `store` instead of `shop`."""
    head, tail = text.split("  list_orders:")
    return head.replace("mcp_server: shop", "mcp_server: store") + "  list_orders:" + tail


def test_a_tool_moved_to_another_server_needs_a_major_bump(tmp_path: Path) -> None:
    """Moving a tool to another `mcp_server` takes it from its old server's callers and its
    method from that server's client class; no fingerprint moved, so build, diff and bump
    saw nothing (decision 0144)."""
    config = _built(tmp_path)
    snap = config / "mcp-tools.json"
    assert json.loads(snap.read_text())["get_order"]["server"] == "shop"
    (config / "tools.yaml").write_text(_moved())
    built = run_toolc("build", str(config))
    assert built.returncode == 1, built.stderr
    assert "moved from mcp_server 'shop' to 'store' (tool-moved)" in built.stderr
    assert "at least 2.0.0" in built.stderr
    diffed = run_toolc("diff", str(config), "--format", "json")
    rows = [json.loads(line) for line in diffed.stdout.splitlines() if line.strip()]
    assert diffed.returncode == 1
    assert [(r["rule"], r["tool"], r["path"]) for r in rows if "rule" in r] == [
        ("tool-moved", "get_order", "/mcp_server")
    ]
    (config / "tools.yaml").write_text(_moved().replace('"1.4.0"', '"1.5.0"'))
    small = run_toolc("build", str(config))
    assert small.returncode == 1 and "version-bump-too-small" in small.stderr
    assert (
        "moved from mcp_server 'shop' to 'store' (tool-moved) and went from 1.4.0" in small.stderr
    )
    assert run_toolc("bump", str(config), "--write").returncode == 0
    assert 'version: "2.0.0"' in (config / "tools.yaml").read_text()
    assert run_toolc("build", str(config)).returncode == 0
    assert json.loads(snap.read_text())["get_order"]["server"] == "store"
    assert run_toolc("diff", str(config)).returncode == 0


def test_a_move_is_seen_without_the_last_output(tmp_path: Path) -> None:
    """With only the snapshot (a fresh clone), its `server` is the record of where the tool
    was: the contract fingerprint, the same, must not pass the move as unchanged."""
    config = _built(tmp_path)
    shutil.rmtree(config / "generated")
    (config / "tools.yaml").write_text(_moved())
    diffed = run_toolc("diff", str(config))
    assert diffed.returncode == 1 and "tool-moved" in diffed.stdout, diffed.stdout
    built = run_toolc("build", str(config))
    assert built.returncode == 1 and "tool-moved" in built.stderr, built.stderr


def test_diff_and_bump_read_the_snapshots_server_as_the_guard_does(tmp_path: Path) -> None:
    """The last output's document written by an older toolc holds no server: diff and bump
    took it as it stood and saw no move, while the build refused it."""
    config = _built(tmp_path)
    doc = config / "generated" / "mcp_tools" / "contracts" / "get_order.json"
    older = {k: v for k, v in json.loads(doc.read_text()).items() if k != "mcp_server"}
    doc.write_text(json.dumps(older, indent=2) + "\n")
    (config / "tools.yaml").write_text(_moved())
    diffed = run_toolc("diff", str(config))
    assert diffed.returncode == 1 and "tool-moved" in diffed.stdout, diffed.stdout
    assert run_toolc("bump", str(config), "--write").returncode == 0
    assert 'version: "2.0.0"' in (config / "tools.yaml").read_text()


def test_a_snapshot_without_servers_builds_and_gains_them(tmp_path: Path) -> None:
    """A snapshot written before toolc recorded servers: nothing to compare, no finding;
    the next build adds each line's server and keeps its fingerprints."""
    config = _built(tmp_path)
    snap = config / "mcp-tools.json"
    recorded = json.loads(snap.read_text())
    older = {
        name: {k: v for k, v in line.items() if k != "server"} for name, line in recorded.items()
    }
    snap.write_text(json.dumps(older) + "\n")
    assert run_toolc("diff", str(config)).returncode == 0
    built = run_toolc("build", str(config))
    assert built.returncode == 0, built.stderr
    assert json.loads(snap.read_text()) == recorded


def test_an_older_config_and_snapshot_put_back_build(tmp_path: Path) -> None:
    """A tool the last output holds but neither the snapshot nor the config (both put back
    from before it was added: a branch switched, an experiment dropped) is no removal."""
    config = _built(tmp_path)
    old_tools, old_snap = (config / "tools.yaml").read_text(), (config / "mcp-tools.json")
    kept = old_snap.read_text()
    added = TOOLS + "  new_tool:\n    version: 0.1.0\n    description: New.\n"
    added += "    mcp_server: shop\n    tool_type: query\n"
    (config / "tools.yaml").write_text(added)
    assert run_toolc("build", str(config)).returncode == 0
    (config / "tools.yaml").write_text(old_tools)
    old_snap.write_text(kept)
    built = run_toolc("build", str(config))
    assert built.returncode == 0, built.stderr


def test_a_break_may_go_out_through_pre_releases(tmp_path: Path) -> None:
    """1.4.0 → 2.0.0-rc.1 → 2.0.0-rc.2 → 2.0.0, each with a break: each is a pre-release of
    (or is) the release the break needs. They failed with "needs 3.0.0"; a release below
    the break's release still fails."""
    config = _built(tmp_path)
    for step, version in enumerate(["2.0.0-rc.1", "2.0.0-rc.2", "2.0.0", "2.1.0"]):
        # Each step tightens order_id's bound: a break.
        bound = f'{{type: string, pattern: "^P-[0-9]+$", maxLength: {9 - step}}}'
        body = re.sub(r"order_id: \{[^}]*\}", f"order_id: {bound}", TOOLS)
        body = body.replace('"1.4.0"', f'"{version}"')
        (config / "tools.yaml").write_text(body)
        built = run_toolc("build", str(config))
        if version == "2.1.0":
            assert built.returncode == 1 and "at least 3.0.0" in built.stderr, built.stderr
        else:
            assert built.returncode == 0, (version, built.stderr)


def test_a_zero_major_version_breaks_with_a_minor_bump(tmp_path: Path) -> None:
    config = _built(tmp_path)
    text = TOOLS.replace(
        "    description: Lists orders.\n",
        "    description: Lists orders.\n    unknown_args: forbid\n",
    )
    (config / "tools.yaml").write_text(text)
    bumped = run_toolc("bump", str(config))
    assert "list_orders: 0.3.0 → 0.4.0" in bumped.stdout, bumped.stdout


def test_an_accepted_break_matches_once_then_goes_stale(tmp_path: Path) -> None:
    config = _built(tmp_path)
    accepted = (
        "accepted_breaks:\n"
        "  - {tool: get_order, from: 1.4.0, to: 1.5.0, rule: arg-removed, reason: never read}\n"
    )
    text = _drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"') + accepted
    (config / "tools.yaml").write_text(text)
    first = run_toolc("build", str(config))
    assert first.returncode == 0, first.stderr
    assert "accepted-break-stale" not in first.stderr
    # The PR that ships it, built and committed, still passes the strictest check.
    shipped = run_toolc("check", str(config), "--strict")
    assert shipped.returncode == 0, shipped.stderr
    # Later PRs that leave the tool at 1.5.0 stay quiet too (toolc cannot tell them apart).
    assert "accepted-break-stale" not in run_toolc("check", str(config), "--strict").stderr
    # The tool's next release: `check`, before any build, already says the entry is spent.
    text = text.replace("Looks up one order.", "Looks up an order.").replace('"1.5.0"', '"1.5.1"')
    (config / "tools.yaml").write_text(text)
    checked = run_toolc("check", str(config))
    assert "warning[accepted-break-stale]" in checked.stderr, checked.stderr
    assert "the tool goes from 1.5.0 to 1.5.1" in checked.stderr
    second = run_toolc("build", str(config))
    assert second.returncode == 0, second.stderr
    assert "accepted-break-stale" in second.stderr
    after = run_toolc("check", str(config), "--strict")
    assert after.returncode == 1 and "the tool stays at 1.5.1" in after.stderr, after.stderr


def test_an_accepted_break_from_a_version_the_snapshot_never_held_is_stale(
    tmp_path: Path,
) -> None:
    config = _built(tmp_path)
    accepted = (
        "accepted_breaks:\n"
        "  - {tool: get_order, from: 1.3.0, to: 1.5.0, rule: arg-removed, reason: never read}\n"
    )
    text = _drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"') + accepted
    (config / "tools.yaml").write_text(text)
    checked = run_toolc("check", str(config))
    assert checked.returncode == 1 and "version-bump-too-small" in checked.stderr  # not excused
    assert "accepted-break-stale" in checked.stderr and "goes from 1.4.0 to 1.5.0" in checked.stderr


def test_removing_a_tool_is_a_recorded_act(tmp_path: Path) -> None:
    config = _built(tmp_path)
    without = TOOLS.split("  list_orders:")[0]
    (config / "tools.yaml").write_text(without)
    refused = run_toolc("build", str(config))
    assert refused.returncode == 1 and "tool-removed" in refused.stderr
    accepted = "accepted_breaks:\n  - {tool: list_orders, from: 0.3.0, to: removed, rule: tool-removed, reason: merged}\n"
    (config / "tools.yaml").write_text(without + accepted)
    assert run_toolc("build", str(config)).returncode == 0
    # Later releases: the removal is shipped. toolc cannot tell the PR that shipped it from a
    # later one, so a removal's entry is never reported stale (decision 0021)...
    later = (without + accepted).replace("Looks up one order.", "Finds one order.")
    (config / "tools.yaml").write_text(later.replace('"1.4.0"', '"1.4.1"'))
    quiet = run_toolc("build", str(config))
    assert quiet.returncode == 0 and "accepted-break-stale" not in quiet.stderr, quiet.stderr

    # ... until the name comes back. The entry is the name's only record of its last
    # version (the snapshot dropped its line): the tool must come back above it, as a
    # breaking change under semver (0.3.0 -> 0.4.0), since its old contract is gone.
    def back(version: str) -> str:
        return later.replace('"1.4.0"', '"1.4.1"').replace(
            "accepted_breaks:",
            f"  list_orders:\n    version: {version}\n    description: Back.\n"
            "    mcp_server: shop\n    tool_type: query\naccepted_breaks:",
        )

    for low in ("0.1.0", "0.3.0", "0.3.1"):
        (config / "tools.yaml").write_text(back(low))
        lower = run_toolc("build", str(config))
        assert lower.returncode == 1, lower.stderr
        assert f"removed at version 0.3.0 and is declared again at {low}" in lower.stderr
        assert "needs at least 0.4.0" in lower.stderr and "the removal is recorded here" in (
            lower.stderr
        )
        assert "accepted-break-stale" not in lower.stderr, lower.stderr
    (config / "tools.yaml").write_text(back("0.4.0"))
    returned = run_toolc("build", str(config))
    assert returned.returncode == 0, returned.stderr
    assert "accepted-break-stale" not in returned.stderr, returned.stderr
    # Built, the snapshot records it again: the entry has served, and says so.
    stale = run_toolc("check", str(config), "--strict")
    assert stale.returncode == 1 and "accepted-break-stale" in stale.stderr, stale.stderr
    assert "the tool stays at 0.4.0" in stale.stderr


def test_a_tool_back_under_bump_policy_any_needs_only_a_higher_version(tmp_path: Path) -> None:
    config = _built(tmp_path)
    without = "bump_policy: any\n" + TOOLS.split("  list_orders:")[0]
    accepted = "accepted_breaks:\n  - {tool: list_orders, from: 0.3.0, to: removed, rule: tool-removed, reason: merged}\n"
    (config / "tools.yaml").write_text(without + accepted)
    assert run_toolc("build", str(config)).returncode == 0
    tool = "  list_orders:\n    version: {}\n    description: Back.\n    mcp_server: shop\n    tool_type: query\n"
    (config / "tools.yaml").write_text(without + tool.format("0.3.0") + accepted)
    same = run_toolc("build", str(config))
    assert same.returncode == 1 and "needs at least 0.3.1" in same.stderr, same.stderr
    (config / "tools.yaml").write_text(without + tool.format("0.3.1") + accepted)
    assert run_toolc("build", str(config)).returncode == 0


def test_bump_policy_any_takes_any_higher_version(tmp_path: Path) -> None:
    config = _built(tmp_path)
    text = "bump_policy: any\n" + _drop_verbose(TOOLS).replace('"1.4.0"', '"1.4.1"')
    (config / "tools.yaml").write_text(text)
    assert "get_order: 1.4.1 ok (bump_policy: any)\n" in run_toolc("bump", str(config)).stdout
    assert run_toolc("build", str(config)).returncode == 0


def test_invalid_accepted_breaks_are_diagnosed(tmp_path: Path) -> None:
    bad = TOOLS + (
        "accepted_breaks:\n"
        "  - {tool: get_ordr, from: 1.4.0, to: 1.3.0, rule: arg-remove, reason: x}\n"
    )
    done = run_toolc("check", str(_config(tmp_path / "cfg", bad)))
    assert done.returncode == 1
    assert done.stderr.count("accepted-break-invalid") == 3
    assert "did you mean 'arg-removed'" in done.stderr and "did you mean 'get_order'" in done.stderr


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def test_against_a_git_revision_reads_git_not_the_working_tree(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    config = _config(repo / "svc")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "v1")
    (config / "tools.yaml").write_text(_drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"'))
    status = _git(repo, "status", "--porcelain")
    diff = run_toolc("diff", str(config), "--against", "main")
    assert diff.returncode == 1 and "arg-removed" in diff.stdout and "git main" in diff.stdout
    check = run_toolc("check", str(config), "--against", "main")
    assert check.returncode == 1 and "version-bump-too-small" in check.stderr
    assert _git(repo, "status", "--porcelain") == status  # nothing written, nothing touched
    moved = repo / "elsewhere"
    (repo / "svc").rename(moved)
    empty = run_toolc("check", str(moved), "--against", "main")
    assert "baseline-empty" in empty.stderr, empty.stderr
    (moved).rename(repo / "svc")
    unknown = run_toolc("diff", str(config), "--against", "no-such-branch")
    assert unknown.returncode == 2 and "neither a directory nor a git revision" in unknown.stderr


def test_an_empty_or_self_baseline_is_a_usage_error(tmp_path: Path) -> None:
    """`--against "$BASE"` with BASE unset read the empty REF as `.`, the config itself: a
    breaking change then passed the version check and `build` wrote it unbumped."""
    config = _built(tmp_path)
    (config / "tools.yaml").write_text(_drop_verbose(TOOLS))
    for ref in ("", " ", str(config), "."):
        for verb in ("diff", "check", "build"):
            done = run_toolc(verb, str(config), "--against", ref, cwd=config)
            assert done.returncode == 2, (verb, ref, done.stderr)
            assert "needs a REF" in done.stderr or "the config itself" in done.stderr
    assert run_toolc("diff", str(config)).returncode == 1  # the last build still sees it


def test_diff_and_bump_without_the_output_see_unchanged_tools_as_unchanged(
    tmp_path: Path,
) -> None:
    """With the snapshot kept and the output not (a fresh clone), a tool whose contract is
    the snapshot's is unchanged: diff and bump say so rather than refuse."""
    config = _built(tmp_path)
    shutil.rmtree(config / "generated")
    diff = run_toolc("diff", str(config))
    assert diff.returncode == 0 and "no contract changes" in diff.stdout, diff.stderr
    bump = run_toolc("bump", str(config))
    assert bump.returncode == 0, bump.stderr


@pytest.mark.parametrize("lost", ["deleted", "edited"])
def test_a_change_the_last_output_cannot_classify_needs_a_breaking_bump(
    tmp_path: Path, lost: str
) -> None:
    """With the last build's contract documents gone (or not the snapshot's), a tightened
    bound asked only for a patch, and `diff`/`bump` called every tool new: a break shipped
    as 1.4.1. Unclassifiable is breaking, as undecided is, and diff and bump say why."""
    config = _built(tmp_path)
    contracts = config / "generated" / "mcp_tools" / "contracts"
    if lost == "deleted":
        shutil.rmtree(config / "generated")
    else:
        doc = contracts / "get_order.json"
        doc.write_text(doc.read_text().replace("P-[0-9]+", "Q-[0-9]+"))
    tightened = TOOLS.replace("verbose: {type: boolean,", "verbose: {type: boolean, const: true,")
    (config / "tools.yaml").write_text(tightened)
    kept = run_toolc("build", str(config))
    assert kept.returncode == 1 and "version-not-bumped" in kept.stderr, kept.stderr
    assert "at least 2.0.0" in kept.stderr and "restore the last build's output" in kept.stderr
    (config / "tools.yaml").write_text(tightened.replace('"1.4.0"', '"1.4.1"'))
    patched = run_toolc("build", str(config))
    assert patched.returncode == 1 and "version-bump-too-small" in patched.stderr
    assert "at least 2.0.0" in patched.stderr
    for verb in ("diff", "bump"):
        said = run_toolc(verb, str(config))
        assert said.returncode == 2 and "lacks the contract documents of get_order" in said.stderr
        assert "list_orders" not in said.stderr  # unchanged: its contract is the snapshot's
    (config / "tools.yaml").write_text(tightened.replace('"1.4.0"', '"2.0.0"'))
    assert run_toolc("build", str(config)).returncode == 0


# --- output formats ---------------------------------------------------------------------------

GITHUB = re.compile(
    r"^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+(,endLine=\d+,endColumn=\d+)?"
    r",title=[^,:]+::.+$"
)


@pytest.fixture
def changed(tmp_path: Path) -> Path:
    config = _built(tmp_path)
    text = _drop_verbose(TOOLS).replace('"1.4.0"', '"1.5.0"')
    text = text.replace("Lists orders.", "Lists.").replace("0.3.0", "0.3.1")  # docs: a patch
    (config / "tools.yaml").write_text(text)
    return config


def test_diff_json_names_the_failed_gate(changed: Path) -> None:
    out = run_toolc("diff", str(changed), "--format", "json").stdout
    rows = [json.loads(line) for line in out.splitlines()]
    findings, summary = rows[:-1], rows[-1]["summary"]
    assert {f["rule"] for f in findings} >= {"arg-removed", "description-changed"}
    assert summary["gate"] == "version-guard" and summary["failed_tools"] == ["get_order"]


def test_diff_github_annotations_follow_the_workflow_command_syntax(changed: Path) -> None:
    out = run_toolc("diff", str(changed), "--format", "github").stdout
    lines = out.splitlines()
    assert lines and all(GITHUB.match(line) for line in lines), out
    assert any(line.startswith("::error") and "arg-removed" in line for line in lines)


def test_diff_junit_is_valid_junit(changed: Path) -> None:
    out = run_toolc("diff", str(changed), "--format", "junit").stdout
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["get_order"].find("failure") is not None
    assert cases["list_orders"].find("failure") is None


def test_diff_markdown_puts_breaking_first_and_text_apart(changed: Path) -> None:
    out = run_toolc("diff", str(changed), "--format", "markdown").stdout
    assert out.startswith("## toolc diff against the last build")
    assert out.index("`get_order`") < out.index("`list_orders`")  # breaking before docs-only
    assert "### Text the model reads" in out and "needs major (≥ 2.0.0)" in out


@pytest.mark.parametrize("fmt", ["markdown", "junit"])
def test_check_speaks_the_new_formats(tmp_path: Path, fmt: str) -> None:
    config = _config(tmp_path / "cfg", TOOLS.replace("type: boolean", "type: bool"))
    out = run_toolc("check", str(config), "--format", fmt)
    assert out.returncode == 1
    if fmt == "junit":
        suite = ET.fromstring(out.stdout).find("testsuite")
        assert suite is not None and suite.get("failures") == "1"
    else:
        assert "❌" in out.stdout and "unknown-type" in out.stdout


def test_list_rules_prints_the_table() -> None:
    out = run_toolc("diff", "--list-rules").stdout
    assert re.search(r"^arg-removed\s+breaking\s+", out, re.M)
    assert re.search(r"^description-changed\s+docs\s+", out, re.M)


def test_bump_write_keeps_a_block_scalar_version(tmp_path: Path) -> None:
    text = TOOLS.replace('    version: "1.4.0"   # quoted on purpose: bump keeps it so\n',
                         "    version: >-\n      1.4.0\n")  # fmt: skip
    config = _config(tmp_path / "cfg", text)
    assert run_toolc("build", str(config)).returncode == 0
    (config / "tools.yaml").write_text(_drop_verbose(text))
    wrote = run_toolc("bump", str(config), "--write")
    assert wrote.returncode == 0, wrote.stderr
    assert (config / "tools.yaml").read_text() == _drop_verbose(text).replace("1.4.0", "2.0.0")
    assert run_toolc("build", str(config)).returncode == 0


def test_bump_write_refuses_to_edit_a_shared_anchor(tmp_path: Path) -> None:
    text = TOOLS.replace('version: "1.4.0"', "version: &v 1.4.0").replace(
        "version: 0.3.0", "version: *v"
    )
    config = _config(tmp_path / "cfg", text)
    assert run_toolc("build", str(config)).returncode == 0
    (config / "tools.yaml").write_text(_drop_verbose(text))
    refused = run_toolc("bump", str(config), "--write")
    assert refused.returncode == 1 and "set them by hand" in refused.stderr
    assert (config / "tools.yaml").read_text() == _drop_verbose(text)


def test_an_envelope_upgrade_is_one_finding_and_one_bump_for_every_tool(tmp_path: Path) -> None:
    """toolc's own upgrade: a baseline built by a toolc whose envelope differed (simulated by
    editing the baseline's contracts) gives one envelope-changed finding naming the
    versions, and `bump --write` raises every tool it reaches in one go."""
    config = _built(tmp_path)
    older = tmp_path / "older_build"
    shutil.copytree(config / "generated" / "mcp_tools", older)
    for contract in (older / "contracts").glob("*.json"):
        data = json.loads(contract.read_text())
        data["envelope_version"] = "0.9.0"
        info = data["tool"]["outputSchema"]["$defs"]["envelope.ErrorInfo"]
        info["properties"]["code"]["enum"].remove("PRE_VALIDATION_FAILED")
        contract.write_text(json.dumps(data))
    diff = run_toolc("diff", str(config), "--against", str(older), "--format", "json")
    rows = [json.loads(line) for line in diff.stdout.splitlines()]
    envelope = [r for r in rows[:-1] if r["rule"] == "envelope-changed"]
    assert {r["tool"] for r in envelope} == {"get_order", "list_orders"}, rows
    assert all("0.9.0" in r["message"] for r in envelope)
    wrote = run_toolc("bump", str(config), "--against", str(older), "--write")
    assert wrote.returncode == 0, wrote.stderr
    text = (config / "tools.yaml").read_text()
    assert 'version: "2.0.0"' in text and "version: 0.4.0" in text


def test_diff_and_bump_apply_the_floor_of_a_returning_tool(tmp_path: Path) -> None:
    """The guard's floor for a tool declared again (decision 0148) is diff's gate and what
    bump --write sets: diff said "new, no bump needed" and bump had nothing to do while the
    build refused the version."""
    config = _built(tmp_path)
    without = TOOLS.split("  list_orders:")[0]
    accepted = "accepted_breaks:\n  - {tool: list_orders, from: 0.3.0, to: removed, rule: tool-removed, reason: merged}\n"
    (config / "tools.yaml").write_text(without + accepted)
    assert run_toolc("build", str(config)).returncode == 0
    back = "  list_orders:\n    version: 0.1.0\n    description: Back.\n    mcp_server: shop\n    tool_type: query\n"
    (config / "tools.yaml").write_text(without + back + accepted)
    diffed = run_toolc("diff", str(config))
    assert diffed.returncode == 1 and "needs minor (≥ 0.4.0)" in diffed.stdout, diffed.stdout
    bumped = run_toolc("bump", "--write", str(config))
    assert bumped.returncode == 0 and "list_orders: 0.1.0 → 0.4.0" in bumped.stdout + bumped.stderr
    assert run_toolc("build", str(config)).returncode == 0
