"""The description lint's recognizer (decision 0066): what counts as naming a field or an
argument, near misses included, and that plain words never do; and the lint on whole configs
(the examples stay clean, the metadata lint is off unless asked)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES
from toolc import verbs
from toolc.checks.mentions import argument_mentions, field_mentions


def fields(text: str) -> list[tuple[str, str]]:
    return [(m.form, ".".join(m.path)) for m in field_mentions(text)]


def args(text: str) -> list[tuple[str, str]]:
    return [(m.form, ".".join(m.path)) for m in argument_mentions(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Returns the total number of items and the current page.",
        "Lists the data of one customer.",  # "data" alone, and "data." ending a sentence
        "Stores data. Then it returns quickly.",
        "Reads metadata.total and mydata.items.",  # a `data.` path needs a word boundary
        'Returns {x: 1} or {"items": []}.',  # not a brace list of bare names
        "Returns page and total.",  # no backticks after the verb
        "Returns a `page`-sized chunk",  # the backticks are not right after the verb
    ],
)
def test_plain_words_name_no_field(text: str) -> None:
    assert fields(text) == []


def test_the_forms_that_name_a_field() -> None:
    assert fields("Returns { items, total, page, pageSize, pages }.") == [
        ("shape", n) for n in ("items", "total", "page", "pageSize", "pages")
    ]
    assert fields("Returns {items, total, ...}") == [("shape", "items"), ("shape", "total")]
    assert fields("Read data.total, then `data.items[].id`.") == [
        ("data", "total"),
        ("data", "items.id"),
    ]
    assert fields("It returns `page`, `total` and `pages`.") == [
        ("returns", "page"),
        ("returns", "total"),
        ("returns", "pages"),
    ]
    assert fields("Retorna `protocolo` e `status`.") == [
        ("returns", "protocolo"),
        ("returns", "status"),
    ]


def test_a_mention_points_at_the_name() -> None:
    text = "Returns { items } and data.total."
    spans = [(m.start, m.end) for m in field_mentions(text)]
    assert [text[a:b] for a, b in spans] == ["items", "data.total"]


def test_the_forms_that_name_an_argument() -> None:
    assert args("Pass argument `mode` or `order_id`.") == [
        ("argument", "mode"),
        ("argument", "order_id"),
    ]
    assert args("O parâmetro `motivo` é opcional.") == [("argument", "motivo")]
    # any other backticked identifier is only a candidate for the near-miss rule
    assert args("Use `fast` or `P-100` or `a b`.") == [("backticked", "fast")]
    assert args("No names here, only words like argument and parameter.") == []


def _codes(config: Path) -> list[tuple[int, str]]:
    return [(d.span.line, d.code) for d in verbs.check_config(config, cwd=config).diagnostics]


def _config(tmp_path: Path, tool: str) -> Path:
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    mcp_server: s\n    tool_type: query\n" + tool
    )
    return tmp_path


def test_near_misses_of_an_argument_and_known_names(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Looks up one order by `order_idd`; see `status` and `shipped`.\n"
        "    args_schema:\n      order_id: {type: string}\n"
        "    returns:\n      type: object\n      properties:\n"
        "        status: {type: string, enum: [shipped, lost]}\n",
    )
    # `order_idd` is close to `order_id` and known nowhere; `status` is a field, `shipped` a value
    assert _codes(config) == [(6, "description-unknown-arg")]


def test_a_stated_const_is_a_known_name_and_an_absent_one_is_not(tmp_path: Path) -> None:
    """A backticked word that only looks like the models' marker for an absent `const`
    (`UNSET`, decision 0121) is still a near miss; a stated `const` is a known value."""
    config = _config(
        tmp_path,
        "    description: Finds an item; pass `UNSET` to look everywhere, or `LOCAL`.\n"
        "    args_schema:\n      UNSETS: {type: string}\n      LOCALS: {type: string}\n"
        "    returns:\n      type: object\n      properties:\n"
        "        scope: {const: LOCAL}\n        other: {const: null}\n",
    )
    assert _codes(config) == [(6, "description-unknown-arg")]


def test_a_field_in_an_array_of_a_shared_type_is_found(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Lists orders as data.orders[].id and `data.count`.\n"
        "    returns:\n      type: object\n      properties:\n"
        "        orders: {type: array, items: {$ref: '#/types/Order'}}\n"
        "        count: {type: integer}\n"
        "types:\n  Order:\n    type: object\n    properties:\n      id: {type: string}\n",
    )
    assert _codes(config) == []


def test_fields_of_union_branches_are_declared(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Reads data.next_cursor, data.page.size, `data.total` and data.page.sizes.\n"
        "    returns:\n      type: object\n      properties:\n"
        "        next_cursor: {anyOf: [{type: string}, {type: 'null'}]}\n"
        "        page:\n          oneOf:\n"
        "            - {type: object, properties: {size: {type: integer}}}\n"
        "            - {type: object, properties: {offset: {type: integer}}}\n"
        "      allOf: [{$ref: '#/types/Counted'}, false]\n"
        "types:\n  Counted:\n    type: object\n    properties:\n      total: {type: integer}\n",
    )
    # `size` and `total` live in branches; `sizes` is in no branch of `page`
    assert _codes(config) == [(6, "description-unknown-field")]


def test_a_branch_whose_names_are_data_says_nothing(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Reads data.anything.\n"
        "    returns:\n      type: object\n      properties:\n        x: {type: integer}\n"
        "      anyOf:\n        - {type: object, additionalProperties: {type: string}}\n",
    )
    assert _codes(config) == []


def test_a_multi_item_tool_reads_its_normalized_fields(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Checks orders; data.results[].order_id, data.multi_item_status and "
        "data.results[].missing.\n"
        "    args_schema:\n      order_ids: {type: array, items: {type: string}}\n"
        "    multi_item:\n      item:\n        type: object\n"
        "        required: [order_id, ok]\n        properties:\n"
        "          order_id: {type: string}\n          ok: {type: boolean}\n",
    )
    assert _codes(config) == [(6, "description-unknown-field")]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_examples_pass_the_description_lint(example: Path) -> None:
    found = verbs.check_config(example, cwd=example).diagnostics
    assert [d.code for d in found] == []


def test_the_metadata_lint_is_off_unless_asked() -> None:
    case = FIXTURES / "diagnostics" / "metadata-lint"
    assert verbs.check_config(case, cwd=case).diagnostics == []
    on = verbs.check_config(case, cwd=case, metadata_lint=True).diagnostics
    assert {d.code for d in on} == {
        "tool-without-title",
        "arg-without-description",
        "enum-without-description",
        "description-too-short",
    }


def test_a_boolean_enum_value_is_known_as_json_writes_it(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        "    description: Set `fals` to `true` or `false`.\n"
        "    args_schema:\n      fals: {enum: [true, false]}\n      truex: {type: string}\n",
    )
    assert _codes(config) == []  # `true` is a value of `fals`, not a near miss of `truex`
