"""Class names of the generated models (decision 0032): one word per step of the path below
the nearest named class, properties by their own names whatever they are called, keywords by
words no property of the same schema has; never a hash where names do not collide."""

from __future__ import annotations

import re

from toolc import verbs

HEAD = """\
tools:
  search_issues:
    version: 1.0.0
    description: Searches issues.
    mcp_server: github
    tool_type: query
    args_schema:
      q: {type: string}
      sort: {$ref: '#/types/Sort'}
    returns:
      type: object
      required: [total_count, items]
      properties:
        total_count: {type: integer}
        items:
          type: array
          items:
            type: object
            required: [number]
            properties:
              number: {type: integer}
              labels:
                type: array
                items: {type: object, properties: {name: {type: string}}}
              user: {type: object, properties: {login: {type: string}}}
              state: {enum: [open, closed]}
              tags: {type: [array, "null"], items: {type: string}}
        keywords:
          type: object
          properties:
            items: {type: object, properties: {a: {type: string}}}
            properties: {type: object, properties: {a: {type: string}}}
            additionalProperties: {type: object, properties: {a: {type: string}}}
            value: {type: object, properties: {a: {type: string}}}
            item: {type: object, properties: {a: {type: string}}}
          additionalProperties: {type: object, properties: {b: {type: string}}}
"""
TYPES = """\
types:
  Sort:
    type: object
    properties:
      field: {type: string}
"""
ANOTHER = """\
  search_issues_data:
    version: 1.0.0
    description: A tool whose classes start like the first one's.
    mcp_server: github
    tool_type: query
    args_schema:
      items: {type: array, items: {type: object, properties: {x: {type: string}}}}
    returns:
      type: object
      properties:
        items: {type: array, items: {type: object, properties: {y: {type: string}}}}
"""


def _defined(source: bytes) -> list[str]:
    text = source.decode()
    return re.findall(r"^(?:class (\w+)\(|(\w+): TypeAlias =)", text, re.M)


def _names(files: dict[str, bytes], tool: str) -> set[str]:
    return {a or b for a, b in _defined(files[f"tools/{tool}.py"])}


def test_every_property_is_a_word_of_the_name_and_keywords_read_as_their_own_words() -> None:
    files = verbs.compile_baseline(HEAD + TYPES, None, "mem:")
    assert _names(files, "search_issues") == {
        "SearchIssuesArgs",
        "SearchIssuesData",
        "SearchIssuesDataItemsItem",  # the property `items`, then its array's element
        "SearchIssuesDataItemsItemLabelsItem",
        "SearchIssuesDataItemsItemUser",
        "SearchIssuesDataKeywords",
        "SearchIssuesDataKeywordsItems",  # properties named like keywords keep their names
        "SearchIssuesDataKeywordsProperties",
        "SearchIssuesDataKeywordsAdditionalProperties",
        "SearchIssuesDataKeywordsValue",  # the property `value` ...
        "SearchIssuesDataKeywordsItem",
        "SearchIssuesDataKeywordsEntry",  # ... so additionalProperties reads `Entry` here
        # aliases that keep lines short: the non-null part of an optional or nullable type
        "SearchIssuesDataItemsItemLabelsType",
        "SearchIssuesDataItemsItemStateType",
        "SearchIssuesDataItemsItemTagsType",
    }


def test_the_element_of_a_multi_item_result_names_what_is_inside_it() -> None:
    text = """\
tools:
  cancel_orders:
    version: 1.0.0
    description: Cancels orders.
    mcp_server: shop
    tool_type: query
    multi_item:
      item:
        type: object
        required: [ok]
        properties:
          ok: {type: boolean}
          reason: {enum: [shipped, missing]}
          refund: {type: object, properties: {amount: {type: number}}}
"""
    names = _names(verbs.compile_baseline(text, None, "mem:"), "cancel_orders")
    assert {"CancelOrdersItem", "CancelOrdersItemReasonType", "CancelOrdersItemRefund"} <= names


def test_adding_a_tool_never_renames_another_tools_classes() -> None:
    alone = verbs.compile_baseline(HEAD + TYPES, None, "mem:")
    both = verbs.compile_baseline(HEAD + ANOTHER + TYPES, None, "mem:")
    assert both["tools/search_issues.py"] == alone["tools/search_issues.py"]
    assert {"SearchIssuesDataArgsItemsItem", "SearchIssuesDataDataItemsItem"} <= _names(
        both, "search_issues_data"
    )


def test_names_that_read_alike_stay_distinct_and_depend_on_their_path_alone() -> None:
    def tool(order: list[str]) -> str:
        props = {
            "a_b": "a_b: {type: object, properties: {x: {type: string}}}",
            "a": "a: {type: object, properties: {b: {type: object, properties: {y: {type: string}}}}}",
        }
        lines = "".join(f"      {props[k]}\n" for k in order)
        return (
            "tools:\n  t:\n    version: 1.0.0\n    description: T.\n    mcp_server: s\n"
            f"    tool_type: query\n    args_schema:\n{lines}"
        )

    first = _names(verbs.compile_baseline(tool(["a_b", "a"]), None, "mem:"), "t")
    hashed = sorted(n for n in first if re.search(r"_[0-9a-f]{6}$", n))
    assert "TArgsAB" in first and len(hashed) == 1 and hashed[0].startswith("TArgsAB_")
    again = _names(verbs.compile_baseline(tool(["a_b", "a"]), None, "mem:"), "t")
    assert again == first
