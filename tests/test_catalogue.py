"""One catalogue of IDs (decision 0045): every ID toolc's code or messages name is a diagnostic
code or an evolution rule that `toolc explain` explains, and an ID of both kinds is one entry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT, run_toolc
from toolc.diagnostics import CODES
from toolc.diagnostics.catalogue import aspects, catalogue, explain
from toolc.evolution.rules import RULES, SECTIONS

TOOLC = ROOT / "compiler" / "toolc"
KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")


def _strings(path: Path) -> list[str]:
    """Every string constant of a module, f-strings' constant parts included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _sources() -> list[Path]:
    """toolc's own modules; the shipped runtime names no toolc ID."""
    return [p for p in sorted(TOOLC.rglob("*.py")) if "runtime" not in p.parts]


def test_the_catalogue_holds_every_code_and_every_rule_once() -> None:
    assert set(catalogue()) == set(CODES) | set(RULES)
    assert len(aspects()) == len(CODES) + len(RULES)
    both = {i for i, entry in catalogue().items() if len(entry) == 2}
    assert both == set(CODES) & set(RULES) == {"tool-removed"}
    assert [a.kind for a in catalogue()["tool-removed"]] == ["diagnostic", "evolution"]
    assert [r.id for _, rules in SECTIONS for r in rules.values()] == list(RULES)


def test_every_rule_id_in_the_evolution_code_is_in_the_catalogue() -> None:
    """A kebab-case string in the code that makes findings names a rule (JSON Schema's
    `x-toolc-*` keywords aside), and the catalogue explains it as one."""
    # The guard, baselines, verdict, bump and rendering read findings; they make none.
    readers = {"baseline.py", "bump.py", "changes.py", "guard.py", "previous.py", "render.py"}
    finders = [
        p
        for p in sorted((TOOLC / "evolution").glob("*.py"))
        if p.name not in {"rules.py", "verdict.py", *readers}
    ]
    used = {s for p in finders for s in _strings(p) if KEBAB.match(s) and not s.startswith("x-")}
    assert len(used) > 50
    for rule in used:
        assert "evolution" in [a.kind for a in catalogue().get(rule, ())], rule


def test_every_code_a_diagnostic_is_made_with_is_in_the_catalogue() -> None:
    made = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = isinstance(node, ast.Call) and getattr(node.func, "id", None) == "diag"
            if called and node.args and isinstance(node.args[0], ast.Constant):
                made.add(node.args[0].value)
    assert len(made) > 40
    for code in made:
        assert "diagnostic" in [a.kind for a in catalogue().get(code, ())], code


NAMED = re.compile(r"(?:toolc explain |rule: |rule ID `?)([a-z][a-z0-9]*(?:-[a-z0-9]+)+)")


def test_every_id_the_messages_name_can_be_explained() -> None:
    """IDs written into messages, hints and explanations ("see `toolc explain X`", "rule: X")."""
    texts = [s for p in _sources() for s in _strings(p)]
    texts += [a.explanation for a in aspects()]
    named = {m for text in texts for m in NAMED.findall(text)}
    assert {"unsupported-keyword", "tool-removed"} <= named
    for entry_id in named:
        assert explain(entry_id).startswith(f"{entry_id} ("), entry_id


TOOLS = """\
tools:
  get_order:
    version: "1.4.0"
    description: Looks up one order.
    mcp_server: shop
    tool_type: query
    args_schema:
      order_id: {type: string}
      verbose: {type: boolean}
"""


def test_the_rules_a_version_message_names_can_be_explained(tmp_path: Path) -> None:
    """The guard's messages name the rules that force a bump, `(arg-removed)`: each one is
    what `toolc explain` explains."""
    (tmp_path / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    assert run_toolc("build", str(tmp_path)).returncode == 0
    changed = TOOLS.replace("      verbose: {type: boolean}\n", "").replace(
        "      order_id:", "      extra: {type: integer}\n      order_id:"
    )
    (tmp_path / "tools.yaml").write_text(changed, encoding="utf-8")
    built = run_toolc("build", str(tmp_path))
    assert built.returncode == 1 and "version-not-bumped" in built.stderr
    named = {
        entry_id
        for group in re.findall(r"\(([a-z0-9, -]+)\)", built.stderr)
        for entry_id in group.split(", ")
        if KEBAB.match(entry_id)
    }
    named |= set(re.findall(r"\b(?:error|warning)\[([a-z0-9-]+)\]", built.stderr))
    assert {"arg-removed", "version-not-bumped"} <= named
    for entry_id in named:
        done = run_toolc("explain", entry_id)
        assert done.returncode == 0 and done.stdout.startswith(f"{entry_id} ("), entry_id
