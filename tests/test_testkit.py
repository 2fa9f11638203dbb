"""`toolc test`, the test kit for a user's handlers, run as a user runs it: in a real process,
against a copy of a built example package, with the example handlers the runtime tests use
(tests/runtime_support). It passes on them, covers the multi-item checklist with the user's
own cases, fails (naming tool and case) on deliberately wrong handlers, and answers every
mistake in what it is pointed at with a message, never a traceback."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_toolc
from toolc.serve.mock_values import is_valid
from toolc.testkit.arguments import items_argument, near_misses, valid_arguments, with_items

SUPPORT = Path(__file__).resolve().parent / "runtime_support"
ROOT = Path(__file__).resolve().parent.parent


def _package(name: str, tmp_path: Path) -> Path:
    """A copy of the example's built package (so nothing is written beside the goldens)."""
    out = tmp_path / name / "mcp_tools"
    shutil.copytree(ROOT / "examples" / name / "generated" / "mcp_tools", out)
    return out


def _kit(name: str, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_toolc("test", str(ROOT / "examples" / name), "--out", str(out), *args, cwd=SUPPORT)


@pytest.mark.parametrize("name", ["retail", "telecom", "vitrine"])
def test_the_kit_passes_on_the_example_handlers(name: str, tmp_path: Path) -> None:
    done = _kit(name, _package(name, tmp_path), "--handlers", f"{name}_handlers:Handlers", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and " 0 failure(s) in " in done.stdout
    if name == "retail":  # a confirmed tool: the decline and accept paths, in both eras
        for era in ("2026-07-28", "2025-11-25"):
            for path in ("declined", "accepted"):
                assert f"pass cancelar_pedidos [confirmation {path} ({era})]" in done.stdout
        assert "pass cancelar_pedidos [several items]" in done.stdout
        assert "pass consultar_pedidos [near miss: `order_ids` an empty list]" in done.stdout
        # an optional argument gets its near misses too (they started from required ones only)
        assert "pass cancelar_pedidos [near miss: `motivo` of the wrong type]" in done.stdout
        assert "pass cancelar_pedidos [near miss: `motivo` beyond its maxLength]" in done.stdout


def test_the_same_seed_makes_the_same_calls(tmp_path: Path) -> None:
    out = _package("retail", tmp_path)
    args = ("--handlers", "retail_handlers:Handlers", "-v", "--seed", "7")
    assert _kit("retail", out, *args).stdout == _kit("retail", out, *args).stdout


def test_the_users_cases_cover_the_guides_checklist(tmp_path: Path) -> None:
    """retail_handlers: P-9xx fails its item, P-905 a later step (a secondary failure)."""
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"cancelar_pedidos": [
        {"order_ids": ["P-100", "P-901"]}, {"order_ids": ["P-901", "P-902"]},
        {"order_ids": ["P-100", "P-905"]}, {"order_ids": ["not-an-order"]},
    ]}))  # fmt: skip
    out = _package("retail", tmp_path)
    done = _kit(
        "retail", out, "--handlers", "retail_handlers:Handlers", "--cases", str(cases), "-v"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    seen = next(line for line in done.stdout.splitlines() if line.startswith("cancelar_pedidos:"))
    for case in ("SUCCESS", "PARTIAL_SUCCESS", "FAILED", "secondary failure"):
        assert f"{case} ×" in seen
    assert "note: cancelar_pedidos" not in done.stdout
    assert "pass cancelar_pedidos [your case #4 (invalid)]" in done.stdout  # refused


WRONG = """
from typing import Any
from retail_handlers import Handlers as Right
from mcp_tools.server_runtime import Items


class Handlers(Right):
    async def cancelar_pedidos(self, args: Any, ctx: Any) -> Any:
        answer = await super().cancelar_pedidos(args, ctx)
        return Items(list(answer.results)[:2], answer.fields)  # drops the third item

    async def consultar_pedidos(self, args: Any, ctx: Any) -> Any:
        answer = await super().consultar_pedidos(args, ctx)
        return Items(list(answer.results)[::-1])  # the items out of order
"""
BROKEN = """
from typing import Any
from mcp_tools.server_runtime import Items


class Handlers:
    async def cancelar_pedidos(self, args: Any, ctx: Any) -> Any:
        raise LookupError("the order service moved")

    async def consultar_pedidos(self, args: Any, ctx: Any) -> Any:  # status outside its enum
        return Items([{"order_id": i, "ok": True, "status": "lost"} for i in args.order_ids])
"""


def test_the_kit_fails_on_wrong_handlers_naming_tool_and_case(tmp_path: Path) -> None:
    out = _package("retail", tmp_path)
    (tmp_path / "wrong.py").write_text(WRONG)
    (tmp_path / "broken.py").write_text(BROKEN)
    wrong = _kit("retail", out, "--handlers", f"{tmp_path / 'wrong.py'}:Handlers")
    assert wrong.returncode == 1 and "Traceback" not in wrong.stderr
    report = wrong.stdout
    assert "FAIL cancelar_pedidos [several items]" in report
    assert "2 result(s) for the 3 item(s) the handler received" in report  # the server says it
    assert "FAIL consultar_pedidos [several items]" in report and "out of order" in report
    assert "one item]" not in report  # one item cannot be dropped into disorder
    broken = _kit("retail", out, "--handlers", f"{tmp_path / 'broken.py'}:Handlers")
    assert broken.returncode == 1
    assert "FAIL cancelar_pedidos [valid arguments #1]" in broken.stdout
    assert "LookupError: the order service moved" in broken.stdout  # from the server's log
    assert "FAIL cancelar_pedidos [confirmation accepted (2025-11-25)]" in broken.stdout
    assert "FAIL consultar_pedidos [one item]" in broken.stdout
    assert "INVALID_RESULT" in broken.stdout and "data.results[0].status" in broken.stdout
    for block in broken.stdout.split("FAIL ")[1:]:  # each says what it sent and expected
        assert "arguments: {" in block and "expected: " in block and "got: " in block


def test_mistakes_are_messages_not_tracebacks(tmp_path: Path) -> None:
    out = _package("retail", tmp_path)
    (tmp_path / "lacking.py").write_text(
        "class Handlers:\n    async def consultar_pedidos(self, args, ctx):\n        return {}\n"
    )
    (tmp_path / "cases.json").write_text('{"nope": [{}]}')
    said = {
        ("--handlers", "no_such_module:Handlers"): "No module named 'no_such_module'",
        ("--handlers", "retail_handlers"): "write MODULE:ATTR",
        ("--handlers", "retail_handlers:Nope"): "has no 'Nope'",
        ("--handlers", f"{tmp_path / 'lacking.py'}:Handlers"): "handlers lack: cancelar_pedidos",
        (): "the file `toolc scaffold` writes",
        ("--handlers", "retail_handlers:Handlers", "--cases", str(tmp_path / "cases.json")): (
            "no served tool named nope"
        ),
        ("--handlers", "retail_handlers:Handlers", "--server", "x"): "no enabled tool runs",
    }
    for args, message in said.items():
        done = _kit("retail", out, *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
    missing = _kit("retail", tmp_path / "none" / "mcp_tools", "--handlers", "x:y")
    assert missing.returncode == 2 and "run `toolc build` first" in missing.stderr


def test_generated_arguments_are_valid_and_near_misses_invalid() -> None:
    for example in EXAMPLES:
        listing = json.loads((example / "generated" / "mcp_tools" / "tools.json").read_text())
        for tool in listing["tools"]:
            schema = tool["inputSchema"]
            valid = valid_arguments(schema, random.Random(0), 4)
            assert all(is_valid(a, schema, schema) for a in valid)
            assert len({json.dumps(a, sort_keys=True) for a in valid}) == len(valid)
            misses = near_misses(schema, valid[0])
            assert misses and not any(is_valid(a, schema, schema) for _, a in misses)
            name = items_argument(schema)
            several = name and with_items(schema, valid[0], name, 3, 1)
            if several:
                assert len({json.dumps(i) for i in several[name]}) == 3


def test_by_default_it_tests_the_scaffolded_handlers(tmp_path: Path) -> None:
    """`toolc scaffold` then `toolc test`, no flags: the starter's unimplemented methods fail."""
    config = tmp_path / "retail"
    shutil.copytree(ROOT / "examples" / "retail", config)
    assert run_toolc("scaffold", str(config)).returncode == 0
    done = run_toolc("test", str(config), cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "FAIL consultar_pedidos [valid arguments #1]" in done.stdout
    assert "NotImplementedError: consultar_pedidos: not implemented yet" in done.stdout


def test_a_handler_that_never_answers_fails_its_case(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import anyio\nfrom retail_handlers import Handlers as Right\n\n\n"
        "class Handlers(Right):\n    async def consultar_pedidos(self, args, ctx):\n"
        "        await anyio.sleep(3600)\n"
    )
    out = _package("retail", tmp_path)
    done = _kit(
        "retail", out, "--handlers", f"{slow}:Handlers", "--timeout", "0.3", "--examples", "1"
    )
    assert done.returncode == 1
    assert "FAIL consultar_pedidos [valid arguments #1]" in done.stdout
    assert "none within 0.3 s" in done.stdout
    assert "FAIL cancelar_pedidos" not in done.stdout


def test_results_out_of_order_are_told_for_items_that_python_equates_with_booleans() -> None:
    """Item 1 is no `success: true` and item 0 no `success: false` (in Python both equal)."""
    from toolc.testkit.verdicts import multi_item_problems

    def envelope(results: list[dict[str, object]]) -> dict[str, object]:
        return {"ok": True, "data": {"results": results}}

    swapped = envelope([{"success": False, "n": 1}, {"success": True, "n": 0}])
    assert (
        multi_item_problems("t", [0, 1], swapped)
        == multi_item_problems(
            "t", [5, 6], envelope([{"success": False, "n": 6}, {"success": True, "n": 5}])
        )
        != []
    )


def test_results_are_judged_against_the_items_the_pre_validator_resolved(tmp_path: Path) -> None:
    """The guide's §1-3 example: names a user said, resolved by the pre-validator into the
    canonical items the results then name. Judged against what was sent, the repository's
    own handlers failed ("no result names 'TIM Fashion'")."""
    cases = tmp_path / "cases.json"
    items = ["TIM Fashion", "Aya Audiobooks", "Neymar Jr"]
    cases.write_text(json.dumps({"cancelar_produtos": [{"customer_id": "123", "items": items}]}))
    out = _package("telecom", tmp_path)
    done = _kit(
        "telecom", out, "--handlers", "telecom_handlers:Handlers", "--cases", str(cases), "-v"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pass cancelar_produtos [your case #1]" in done.stdout


BROKEN_VALIDATOR = """
from typing import Any
from telecom_handlers import Handlers as Right


class Handlers(Right):
    async def validar_produtos_cancelamento(self, args: Any, ctx: Any) -> Any:
        answer = await super().validar_produtos_cancelamento(args, ctx)
        decision = dict(answer.get("transaction_decision") or {})
        decision["resolved_arguments"] = {"items": ["x"]}  # not what the tool takes
        return {**answer, "transaction_decision": decision}
"""


def test_a_pre_validator_that_resolves_what_the_tool_refuses_fails(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BROKEN_VALIDATOR)
    out = _package("telecom", tmp_path)
    done = _kit("telecom", out, "--handlers", f"{tmp_path / 'bad.py'}:Handlers")
    assert done.returncode == 1, done.stdout
    assert "FAIL cancelar_produtos" in done.stdout and "PRE_VALIDATION_FAILED" in done.stdout
    assert "cancelar_produtos: its handler never ran" in done.stdout


def test_a_tool_no_case_reaches_is_no_pass_and_your_cases_still_run(tmp_path: Path) -> None:
    """A pattern the generator cannot expand (a named group): the tool was a silent pass,
    and `--cases` for it were ignored."""
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "tools.yaml").write_text(
        "tools:\n  dial:\n    version: 1.0.0\n    description: Dials.\n    mcp_server: s\n"
        "    tool_type: query\n    requires: [code]\n    args_schema:\n"
        "      code: {type: string, pattern: '^(?<area>[0-9]{2})-[0-9]{4}$'}\n"
        "    returns: {type: object, properties: {ok: {type: boolean}}}\n"
    )
    assert run_toolc("build", str(config)).returncode == 0
    (tmp_path / "h.py").write_text(
        "class Handlers:\n    async def dial(self, args, ctx):\n        raise RuntimeError('down')\n"
    )
    plain = run_toolc("test", str(config), "--handlers", f"{tmp_path / 'h.py'}:Handlers")
    if "not tested" not in plain.stdout:
        pytest.skip("the generator expands this pattern now: another construct is needed")
    assert plain.returncode == 1 and "1 tool(s) untested: dial" in plain.stdout, plain.stdout
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"dial": [{"code": "11-2345"}]}))
    mine = run_toolc(
        "test", str(config), "--handlers", f"{tmp_path / 'h.py'}:Handlers", "--cases", str(cases)
    )
    assert mine.returncode == 1 and "FAIL dial [your case #1]" in mine.stdout, mine.stdout
    assert "untested" not in mine.stdout


def test_proxied_tools_are_the_origin_s_not_the_handlers(tmp_path: Path) -> None:
    out = _package("gateway", tmp_path)
    done = _kit("gateway", out, "--handlers", "gateway_handlers:Handlers", "-v")
    assert "Unknown tool" not in done.stdout and "proxied to its origin; not tested" in done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


def test_near_misses_step_just_past_each_bound() -> None:
    """Bounds get near misses of their own: a value one past each, the rest kept (a model
    that dropped `maxLength` or `exclusiveMinimum` passed every case before)."""
    props = {
        "code": {"type": "string", "minLength": 3, "maxLength": 5},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 3},
        "n": {"type": "integer", "minimum": 1, "maximum": 9, "multipleOf": 1},
        "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
    }
    schema = {"type": "object", "properties": props}
    base = {"code": "ab12", "tags": ["a", "b"], "n": 4, "x": 0.5}
    misses = dict(near_misses(schema, base))
    expected = {
        "`code` beyond its maxLength": "ab1222", "`code` beyond its minLength": "ab",
        "`tags` beyond its maxItems": ["a", "b", "a", "b"], "`tags` beyond its minItems": ["a"],
        "`n` beyond its minimum": 0, "`n` beyond its maximum": 10,
        "`n` beyond its multipleOf": 4.5, "`x` beyond its exclusiveMinimum": 0,
        "`x` beyond its exclusiveMaximum": 1.5,
    }  # fmt: skip
    for what, value in expected.items():
        name = what.split("`")[1]
        assert misses[what] == dict(base, **{name: value}), what


def test_a_nullable_items_argument_gets_the_multi_item_checks() -> None:
    schema = {
        "type": "object",
        "required": ["itens"],
        "properties": {"itens": {"type": ["array", "null"], "items": {"type": "string"}}},
    }
    assert items_argument(schema) == "itens"
    misses = [what for what, _ in near_misses(schema, {"itens": ["a"]})]
    assert "`itens` of the wrong type" in misses and "an item of `itens` invalid" in misses


def test_the_seal_judges_a_regex_format_as_ecma_and_names_the_field() -> None:
    """A `format: regex` value is judged as JSON clients judge it (ECMA-262: `\\p{L}` is
    one), and a wrong field is named, not the envelope's root `oneOf`."""
    from mcp import types as mcp_types
    from toolc.testkit.verdicts import seal_problems

    data = {"type": "object", "properties": {"j": {"type": "string", "format": "regex"},
                                              "n": {"type": "integer"}}}  # fmt: skip
    ok = {"type": "object", "required": ["ok", "data", "meta"],
          "properties": {"ok": {"const": True}, "data": data, "meta": {}}}  # fmt: skip
    failed = {"type": "object", "required": ["ok"], "properties": {"ok": {"const": False}}}
    descriptor = {"name": "t", "_meta": {"version": "1.0.0"},
                  "outputSchema": {"oneOf": [ok, failed]}}  # fmt: skip

    def result(values: dict[str, object]) -> mcp_types.CallToolResult:
        envelope = {"ok": True, "data": values, "meta": {"tool": "t", "version": "1.0.0"}}
        text = mcp_types.TextContent(type="text", text=json.dumps(envelope))
        return mcp_types.CallToolResult(content=[text], structured_content=envelope)

    assert seal_problems(descriptor, result({"j": "^\\p{L}+$", "n": 1})) == []
    [problem] = seal_problems(descriptor, result({"j": "^[a-", "n": 1}))
    assert problem.startswith("outputSchema: at /data/j:"), problem
    [problem] = seal_problems(descriptor, result({"j": "a", "n": "1"}))
    assert problem.startswith("outputSchema: at /data/n:"), problem


def test_a_schema_the_python_client_refuses_is_blamed_on_the_schema(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "tools.yaml").write_text(
        "tools:\n  nome:\n    version: 1.0.0\n    description: Names.\n    mcp_server: s\n"
        "    tool_type: query\n"
        "    returns: {type: object, properties: {n: {type: string, pattern: '^\\p{Lu}'}}}\n"
    )
    built = run_toolc("build", str(config))
    assert built.returncode == 0 and "pattern-python-client" in built.stderr
    (tmp_path / "h.py").write_text(
        "class Handlers:\n    async def nome(self, args, ctx):\n        return {'n': 'Ana'}\n"
    )
    done = run_toolc("test", str(config), "--handlers", f"{tmp_path / 'h.py'}:Handlers")
    assert done.returncode == 1
    assert "expected: an outputSchema the Python MCP client accepts" in done.stdout, done.stdout


def test_an_integer_item_echoed_as_a_float_is_named() -> None:
    """2 and 2.0 are one JSON number: a float field echoing an integer item names it."""
    from toolc.testkit.verdicts import multi_item_problems

    def results(*amounts: float) -> dict[str, object]:
        rows = [{"success": True, "amount": a} for a in amounts]
        return {"ok": True, "data": {"results": rows}}

    named = multi_item_problems("t", [1.5, 2], results(1.5, 2.0))
    assert not [p for p in named if "names" in p or "order" in p], named
    swapped = multi_item_problems("t", [2, 1], results(1.0, 2.0))
    assert any("out of order" in p for p in swapped), swapped
