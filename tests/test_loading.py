"""The YAML loader: YAML 1.2 typing, spans, limits, and no traceback whatever the input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLES, run_toolc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolc import verbs
from toolc.diagnostics import CODES
from toolc.source import load_file
from toolc.source.reader import MAX_FILE_BYTES
from toolc.source.scalars import resolve_plain
from toolc.source.yaml_loader import load_yaml


def load(text: str) -> object:
    value, _, problems = load_yaml(text, "t.yaml")
    assert not problems, problems
    return value


def test_plain_scalars_are_typed_as_yaml_1_2_reads_them() -> None:
    # PyYAML's YAML 1.1 rules would give [False, True, 10, 90, False, True].
    assert load("enum: [NO, on, 012, 1:30, n, Yes]\n") == {
        "enum": ["NO", "on", 12, "1:30", "n", "Yes"]
    }


def test_core_schema_values() -> None:
    text = "[null, ~, '', true, False, 0o17, 0x1F, -5, +5, 1.5, 1e3, '12', \"true\", x]\n"
    assert load(text) == [
        None,
        None,
        "",
        True,
        False,
        15,
        31,
        -5,
        5,
        1.5,
        1000.0,
        "12",
        "true",
        "x",
    ]


def test_non_finite_numbers_are_yaml_floats_but_not_json() -> None:
    assert resolve_plain(".inf") == float("inf") and resolve_plain("-.Inf") == float("-inf")
    _, _, problems = load_yaml("a: [.inf, .NaN, 1e999]\n", "t.yaml")
    assert [p.code for p in problems] == ["non-json-value"] * 3


def test_empty_value_is_null_and_keys_stay_text() -> None:
    assert load("a:\n1: x\nnull: y\ntrue: z\n") == {"a": None, "1": "x", "null": "y", "true": "z"}


def test_explicit_core_tags() -> None:
    assert load("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!bool true\n") == {
        "a": "12",
        "b": 7,
        "c": 1.0,
        "d": True,
    }


def test_aliases_share_the_anchored_value() -> None:
    value = load("a: &x {k: [1, 2]}\nb: *x\n")
    assert value == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}}


def test_spans_point_at_keys_and_values() -> None:
    _, spans, _ = load_yaml('tools:\n  cancelar:\n    version: "1.0"\n', "t.yaml")
    key = spans.key_span(("tools", "cancelar"))
    assert (key.line, key.column, key.end_line, key.end_column) == (2, 3, 2, 11)
    value = spans.value_span(("tools", "cancelar", "version"))
    assert (value.line, value.column, value.end_column) == (3, 14, 19)
    # A path below a leaf falls back to the nearest node that has a span.
    assert spans.value_span(("tools", "cancelar", "version", 3)) == value


def test_duplicate_key_points_at_the_second_and_notes_the_first() -> None:
    _, _, problems = load_yaml("a: 1\nb: 2\na: 3\n", "t.yaml")
    [problem] = problems
    assert (problem.code, problem.span.line) == ("yaml-duplicate-key", 3)
    assert problem.notes[0].span.line == 1


def test_crlf_and_bom(tmp_path: Path) -> None:
    file = tmp_path / "tools.yaml"
    file.write_bytes(b"\xef\xbb\xbftools:\r\n  a: 1\r\n")
    loaded = load_file(file, "tools.yaml")
    assert loaded.ok and loaded.data == {"tools": {"a": 1}}
    assert loaded.spans.value_span(("tools", "a")).line == 2


def test_alias_bomb_is_refused_without_expanding() -> None:
    levels = ["a: &a [" + ", ".join(["x"] * 10) + "]"]
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        levels.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
    value, _, problems = load_yaml("\n".join(levels) + "\n", "t.yaml")
    assert value is None
    assert [p.code for p in problems] == ["yaml-alias-limit"]


def test_deep_nesting_is_refused_not_overflowed() -> None:
    text = "x: " + "[" * 100_000 + "]" * 100_000 + "\n"
    _, _, problems = load_yaml(text, "t.yaml")
    assert [p.code for p in problems] == ["yaml-depth-limit"]


def test_too_many_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolc.source import yaml_loader

    monkeypatch.setattr(yaml_loader, "MAX_NODES", 1_000)
    _, _, problems = load_yaml("x: [" + ", ".join(["1"] * 2_000) + "]\n", "t.yaml")
    assert [p.code for p in problems] == ["yaml-size-limit"]
    _, _, fine = load_yaml("x: [" + ", ".join(["1"] * 900) + "]\n", "t.yaml")
    assert fine == []


def test_file_too_large(tmp_path: Path) -> None:
    file = tmp_path / "tools.yaml"
    with file.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    loaded = load_file(file, "tools.yaml")
    assert [d.code for d in loaded.diagnostics] == ["file-too-large"]
    assert "split the tools across configs" in (loaded.diagnostics[0].hint or "")


def assert_well_formed(folder: Path) -> None:
    """The property the fuzzers check: check_project returns (never raises), and every
    diagnostic is a known code at a position inside the file it names."""
    result = verbs.check_config(folder, cwd=folder)
    for d in result.diagnostics:
        assert d.code in CODES and d.message
        file = folder / d.span.path
        data = file.read_bytes() if file.exists() else b""
        # YAML breaks lines at \r too (and PyYAML at NEL, LS, PS): count as generously.
        lines = len(data.decode("utf-8", "replace").splitlines()) + 1
        assert 1 <= d.span.line <= lines and d.span.column >= 1, d
    # A model exists unless reading or schema validation failed; then there are errors to say so.
    assert result.project is not None or result.has_errors


YAMLISH = st.text(
    alphabet=st.sampled_from(list("tools:- \n\t[]{}&*!|>'\"#%@`,?~0123456789abcyn.\\")),
    max_size=300,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=YAMLISH)
def test_no_input_text_raises(tmp_path: Path, text: str) -> None:
    (tmp_path / "tools.yaml").write_text(text, encoding="utf-8")
    assert_well_formed(tmp_path)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=300))
def test_no_input_bytes_raise(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "tools.yaml").write_bytes(data)
    (tmp_path / "tool_policies.yaml").write_bytes(data[::-1])
    assert_well_formed(tmp_path)


TOOL = """tools:
  t:
    version: 1.0.0
    description: d
    mcp_server: s
    tool_type: query
    args_schema:
      a: {spec}
"""
TYPES = "types:\n  T: {type: string, pattern: '^[a-z]+$'}\n"
SPEC_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from(["string", "list", "x", "^a$", "(?=a)", "#/types/T"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "items",
                    "properties",
                    "required",
                    "enum",
                    "minimum",
                    "maximum",
                    "pattern",
                    "$ref",
                    "additionalProperties",
                    "default",
                    "oneOf",
                    "label",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=SPEC_VALUES)
def test_no_argument_spec_raises(tmp_path: Path, spec: object) -> None:
    import json

    (tmp_path / "tools.yaml").write_text(
        TOOL.format(spec=json.dumps(spec)) + TYPES, encoding="utf-8"
    )
    assert_well_formed(tmp_path)


def test_pure_python_parser_reads_the_same_values_and_spans(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without libyaml, PyYAML's own parser is used; it must not change a single span."""
    from toolc.source import yaml_loader

    for example in EXAMPLES:
        text = (example / "tools.yaml").read_text(encoding="utf-8")
        fast = yaml_loader.load_yaml(text, "t.yaml")
        with monkeypatch.context() as patch:
            patch.setattr(yaml_loader, "_Parser", yaml.SafeLoader)
            slow = yaml_loader.load_yaml(text, "t.yaml")
        assert slow[0] == fast[0] and slow[0] is not None
        assert slow[1].root == fast[1].root and slow[1].root is not None
        assert slow[2] == fast[2] == []


# Hostile inputs: each a located diagnostic, never a hang, a blow-up or exit 70 (issue 10)

HOSTILE_TOOL = """\
tools:
  t:
    version: 1.0.0
    description: {description}
    mcp_server: s
    tool_type: {kind}
"""


def _config(tmp_path: Path, description: str = "Reads.", kind: str = "query") -> Path:
    (tmp_path / "tools.yaml").write_text(HOSTILE_TOOL.format(description=description, kind=kind))
    return tmp_path


def test_an_integer_of_thousands_of_digits_is_a_located_error(tmp_path: Path) -> None:
    config = _config(tmp_path)
    with (config / "tools.yaml").open("a") as stream:
        stream.write("    args_schema:\n      n: {type: integer, maximum: " + "9" * 5000 + "}\n")
    result = run_toolc("check", str(config))
    assert result.returncode == 1 and "internal error" not in result.stderr
    assert "tools.yaml:8:35: error[non-json-value]: an integer of 5,000 characters" in result.stderr


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    config = _config(tmp_path)
    with (config / "tools.yaml").open("r+b") as stream:
        stream.truncate(1 << 30)  # 1 GiB, sparse: reading it would take seconds and gigabytes
    for command in ("check", "build"):
        result = run_toolc(command, str(config))
        assert result.returncode == 1 and "error[file-too-large]" in result.stderr


@pytest.mark.parametrize("name", ["tools.yaml", "tool_policies.yaml"])
@pytest.mark.parametrize("kind", ["fifo", "directory", "dangling-link"])
def test_a_config_path_that_is_no_file_is_refused(tmp_path: Path, name: str, kind: str) -> None:
    config = _config(tmp_path, kind="action")
    assert run_toolc("build", str(config)).returncode == 0  # warm the cache and the output
    target = config / name
    target.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "directory":
        target.mkdir()
    else:
        target.symlink_to(config / "nowhere.yaml")
    for command in ("check", "build"):
        result = run_toolc(command, str(config))  # a FIFO must not hang it (run_toolc: 120 s)
        assert result.returncode == 1, (command, result.stderr)
        assert f"{name}:1:1: error[not-a-file]" in result.stderr


def test_only_yaml_1_2_line_breaks_end_a_line(tmp_path: Path) -> None:
    """U+2028, U+2029 and NEL are ordinary characters in YAML 1.2: inside a value they are kept,
    and they shift no line number."""
    text = HOSTILE_TOOL.format(description="a\u2028b\x85c\u2029d", kind="query") + "    nope: 1\n"
    (tmp_path / "tools.yaml").write_text(text, encoding="utf-8")
    result = run_toolc("check", str(tmp_path))
    assert result.returncode == 1
    assert "tools.yaml:7:5: error[unknown-key]: unknown key 'nope'" in result.stderr
    value, spans, problems = load_yaml(text.replace("    nope: 1\n", ""), "tools.yaml")
    assert not problems and value["tools"]["t"]["description"] == "a\u2028b\x85c\u2029d"
    assert spans.value_span(("tools", "t", "mcp_server")).line == 5


def test_an_alias_inside_its_own_anchor_says_so() -> None:
    """`ping: &p {args_schema: {a: *p}}` was reported as an alias to "no anchor defined
    before it", while the anchor is right there, around it."""
    _, _, problems = load_yaml("ping: &p\n  args: {a: *p}\n", "t.yaml")
    [problem] = problems
    assert (problem.code, problem.span.line, problem.span.column) == ("yaml-syntax", 2, 13)
    assert problem.message == "alias '*p' is inside the node its anchor names"
    _, _, problems = load_yaml("a: *q\nb: &q 1\n", "t.yaml")
    assert [p.message for p in problems] == ["alias '*q' refers to no anchor defined before it"]
