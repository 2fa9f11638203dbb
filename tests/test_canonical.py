"""RFC 8785 canonical JSON and the fingerprints built on it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolc.contract.canonical import canonical_bytes, canonical_json, json_key, sha16
from toolc.contract.snapshot import contract_fingerprint, schema_fingerprint, strip_prose

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON)
def test_fast_path_writes_what_the_general_path_writes(value: Any) -> None:
    assert canonical_bytes(value) == canonical_json(value).encode("utf-8")


@settings(max_examples=500, deadline=None)
@given(value=st.lists(st.floats(allow_nan=False, allow_infinity=False) | JSON, max_size=6))
def test_fast_path_with_floats_writes_what_the_general_path_writes(value: Any) -> None:
    assert canonical_bytes(value) == canonical_json(value).encode("utf-8")


# Text that looks like the numbers the fast path checks, or would end a string early.
_TRICKY = st.sampled_from(
    ["1.0", "100.0", "1e16", "-0.0", "9007199254740993", '"', "\\", '\\"1.5', '":1.0,"', "\U0001f600",
     "\u00e9", "\n2.5"]
)  # fmt: skip
_TRICKY_JSON = st.recursive(
    st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**63), 2**64 - 1)
    | _TRICKY | JSON,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(_TRICKY | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(value=_TRICKY_JSON)
def test_fast_path_is_not_fooled_by_numbers_in_strings_or_astral_keys(value: Any) -> None:
    """A number written inside a string, a quote or an escape, a key outside the BMP, an
    integer beyond 2**53 or 64 bits: the fast path gives JCS for each, or leaves it alone."""
    assert canonical_bytes(value) == canonical_json(value).encode("utf-8")


def test_numbers_jcs_writes_otherwise_take_the_general_path() -> None:
    assert canonical_bytes({"a": [100.0, 1e16, -0.0]}) == b'{"a":[100,10000000000000000,0]}'
    assert canonical_bytes({"\U0001f600": 1, "\uffff": 2}) == canonical_json(
        {"\U0001f600": 1, "\uffff": 2}
    ).encode("utf-8")
    assert (
        canonical_bytes({"s": "100.0", "n": 2**64 + 1}) == b'{"n":18446744073709552000,"s":"100.0"}'
    )


@pytest.mark.parametrize(
    ("number", "text"),
    [(1.0, "1"), (0.1, "0.1"), (1e21, "1e+21"), (1e-7, "1e-7"), (123456789012345680000.0, "123456789012345680000"),
     (5e-324, "5e-324"), (-0.0, "0"), (1.5e300, "1.5e+300"), (0.000001, "0.000001"), (-1.25e-10, "-1.25e-10"),
     (9007199254740993, "9007199254740992"), (100.0, "100"), (4.5, "4.5")],
)  # fmt: skip
def test_numbers_are_written_as_ecmascript_writes_them(number: float, text: str) -> None:
    assert canonical_json(number) == text
    assert canonical_bytes([number]) == f"[{text}]".encode()


def test_keys_sort_by_utf16_code_units_and_strings_escape_minimally() -> None:
    # U+1F600 is a surrogate pair (D83D ...) in UTF-16, so it sorts before U+FB01 there,
    # although its code point is larger.
    value = {"\ufb01": 1, "\U0001f600": 2, "a": "é\n\x01\u2028/"}
    assert canonical_json(value) == '{"a":"é\\n\\u0001\u2028/","\U0001f600":2,"\ufb01":1}'
    assert canonical_bytes(value) == canonical_json(value).encode()


def test_rfc8785_sample() -> None:
    # The example of RFC 8785, section 3.2.2 (its numbers and string escapes).
    value = {"numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
             "string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/", "literals": [None, True, False]}  # fmt: skip
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_json(value) == expected


def test_prose_is_removed_in_schema_positions_only() -> None:
    schema = {
        "type": "object",
        "description": "d",
        "properties": {"title": {"type": "string", "title": "T", "x-toolc-label": "l"}},
        "$defs": {"X": {"type": "integer", "examples": [1], "description": "x"}},
        "default": {"description": "data, not prose"},
    }
    assert strip_prose(schema) == {
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "$defs": {"X": {"type": "integer"}},
        "default": {"description": "data, not prose"},
    }
    renamed = json.loads(json.dumps(schema).replace('"title": {', '"name": {'))
    assert schema_fingerprint(schema) != schema_fingerprint(renamed)  # a property name is shape


def test_contract_fingerprint_ignores_the_version_label_only() -> None:
    def contract(version: str, description: str) -> dict[str, Any]:
        meta = {"properties": {"tool": {"const": "t"}, "version": {"const": version}}}
        output = {"$defs": {"envelope.Meta": meta}}
        return {"tool": {"description": description, "inputSchema": {}, "outputSchema": output}}

    assert contract_fingerprint(contract("1.0.0", "a")) == contract_fingerprint(
        contract("2.0.0", "a")
    )
    assert contract_fingerprint(contract("1.0.0", "a")) != contract_fingerprint(
        contract("1.0.0", "b")
    )
    original = contract("1.0.0", "a")
    contract_fingerprint(original)
    assert original == contract("1.0.0", "a")  # not mutated
    assert len(sha16(original)) == 16


def test_order_of_required_and_enum_is_not_a_contract_change() -> None:
    def schema(required: list[str], enum: list[object]) -> dict[str, object]:
        return {"type": "object", "required": required, "properties": {"a": {"enum": enum}}}

    assert schema_fingerprint(schema(["a", "b"], [1, "x"])) == schema_fingerprint(
        schema(["b", "a"], ["x", 1])
    )
    assert schema_fingerprint(schema(["a"], [1])) != schema_fingerprint(schema(["a"], [2]))


def test_json_key_compares_values_as_json_and_none_for_no_json() -> None:
    assert json_key(True) != json_key(1) and json_key([0, 1]) != json_key([False, True])
    assert json_key(2) == json_key(2.0) and json_key({"b": 1, "a": 2}) == json_key({"a": 2, "b": 1})
    assert json_key(float("nan")) is None and json_key({1, 2}) is None
