"""Hints that state the fix for YAML surprises (issue 9, item 17): each test pins the whole
rendered diagnostic, as `toolc check` prints it."""

from __future__ import annotations

from pathlib import Path

from toolc import verbs
from toolc.diagnostics.render import render_text

HEAD = "tools:\n  t:\n    description: d\n    mcp_server: s\n    tool_type: query\n"


def _rendered(tmp_path: Path, tools: str) -> str:
    (tmp_path / "tools.yaml").write_text(tools, encoding="utf-8")
    result = verbs.check_config(tmp_path, cwd=tmp_path)
    return render_text(result.diagnostics, result.sources)


def test_a_comma_in_a_flow_value_says_to_quote_the_value(tmp_path: Path) -> None:
    text = (
        HEAD + "    version: 1.0.0\n    args_schema:\n      a: {type: string, description: a, b}\n"
    )
    assert _rendered(tmp_path, text) == (
        "tools.yaml:8:41: error[unknown-key]: unknown key 'b' in argument 'a' of tool 't'\n"
        "    8 |       a: {type: string, description: a, b}\n"
        "      |                                         ^\n"
        "  = hint: a comma ends a value inside `{...}`, so 'b' was read as a key of its own; "
        'quote the value: `description: "a, b"`\n'
    )


def test_every_word_split_off_gets_the_whole_value_back(tmp_path: Path) -> None:
    text = (
        HEAD + "    version: 1.0.0\n    args_schema:\n"
        "      a: {type: string,\n          description: one, two, three}\n"
    )
    hint = (
        "  = hint: a comma ends a value inside `{...}`, so 'WORD' was read as a key of its own; "
        'quote the value: `description: "one, two, three"`\n'
    )
    assert _rendered(tmp_path, text) == (
        "tools.yaml:9:29: error[unknown-key]: unknown key 'two' in argument 'a' of tool 't'\n"
        "    9 |           description: one, two, three}\n"
        "      |                             ^~~\n"
        + hint.replace("WORD", "two")
        + "tools.yaml:9:34: "
        "error[unknown-key]: unknown key 'three' in argument 'a' of tool 't'\n"
        "    9 |           description: one, two, three}\n"
        "      |                                  ^~~~~\n" + hint.replace("WORD", "three")
    )


def test_a_split_off_word_that_is_a_key_gets_the_hint_too(tmp_path: Path) -> None:
    text = HEAD + "    version: 1.0.0\n    args_schema:\n      a: {description: x, title}\n"
    assert _rendered(tmp_path, text) == (
        "tools.yaml:8:32: error[schema-type]: expected a string, found null "
        "(in argument 'a' of tool 't')\n"
        "    8 |       a: {description: x, title}\n"
        "      |                                ^\n"
        "  = hint: a comma ends a value inside `{...}`, so 'title' was read as a key of its own; "
        'quote the value: `description: "x, title"`\n'
    )


def test_a_quoted_value_before_the_comma_gets_the_general_hint(tmp_path: Path) -> None:
    text = HEAD + "    version: 1.0.0\n    args_schema:\n      a: {description: 'x', b}\n"
    assert _rendered(tmp_path, text).splitlines()[-1] == (
        "  = hint: a comma ends a value inside `{...}`, so 'b' was read as a key of its own: "
        "quote the value that holds the comma"
    )


def test_an_unknown_key_in_block_style_gets_no_comma_hint(tmp_path: Path) -> None:
    text = HEAD + "    version: 1.0.0\n    args_schema:\n      a:\n        b:\n"
    assert "comma" not in _rendered(tmp_path, text)


def test_version_written_as_a_number_suggests_three_parts(tmp_path: Path) -> None:
    text = HEAD + "    version: 1.10\n"
    assert _rendered(tmp_path, text) == (
        "tools.yaml:6:14: error[schema-type]: expected a string, found a number 1.1 "
        "(in `version` of tool 't')\n"
        "    6 |     version: 1.10\n"
        "      |              ^~~~\n"
        "  = hint: YAML reads `1.10` as a number, and a version has three parts: "
        "write `version: 1.10.0`\n"
    )


def test_a_quoted_two_part_version_suggests_three_parts(tmp_path: Path) -> None:
    text = HEAD + '    version: "2.1"\n'
    assert _rendered(tmp_path, text) == (
        "tools.yaml:6:14: error[invalid-version]: version '2.1' of `version` of tool 't' is "
        "not a semantic version\n"
        '    6 |     version: "2.1"\n'
        "      |              ^~~~~\n"
        "  = hint: a version has three parts (MAJOR.MINOR.PATCH): write `version: 2.1.0`\n"
    )


def test_an_accepted_break_version_as_a_number_suggests_three_parts(tmp_path: Path) -> None:
    text = (
        HEAD + "    version: 2.0.0\naccepted_breaks:\n"
        "  - {tool: t, from: 1, to: 2.0.0, rule: arg-removed, reason: r}\n"
    )
    assert _rendered(tmp_path, text).splitlines()[-1] == (
        "  = hint: YAML reads `1` as a number, and a version has three parts: write `from: 1.0.0`"
    )


def test_bounds_that_leave_nothing_say_to_loosen_them(tmp_path: Path) -> None:
    text = (
        HEAD
        + "    version: 1.0.0\n    args_schema:\n      a: {type: number, minimum: 5, maximum: 1}\n"
    )
    assert _rendered(tmp_path, text) == (
        "tools.yaml:8:34: error[invalid-arg-schema]: the bounds leave no valid number "
        "(from 5 to 1): nothing is valid\n"
        "    8 |       a: {type: number, minimum: 5, maximum: 1}\n"
        "      |                                  ^\n"
        "  = hint: loosen one of these bounds so that some value is allowed\n"
    )


def test_an_empty_top_level_key_says_to_write_an_empty_mapping(tmp_path: Path) -> None:
    (tmp_path / "tool_policies.yaml").write_text("tool_policies:\n", encoding="utf-8")
    text = HEAD + "    version: 1.0.0\n"
    assert _rendered(tmp_path, text) == (
        "tool_policies.yaml:1:15: error[schema-type]: expected a mapping, found null "
        "(in `tool_policies`)\n"
        "    1 | tool_policies:\n"
        "      |               ^\n"
        "  = hint: an empty `tool_policies:` is null in YAML; write `tool_policies: {}` for none\n"
    )
