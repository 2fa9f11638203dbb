"""`toolc import` on hand-made listings: the annotations' policy, `$defs` lifted into types under
collision-free names, draft-07 translated, placeholders, tools skipped rather than loosened,
an existing config refused, bad sources refused without a traceback, and every import code
(`import-...`) produced where its rule says. `toolc init --from` runs the same import."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml
from conftest import run_toolc
from jsonschema import Draft7Validator
from reference import EcmaValidator
from toolc import verbs

OBJ = {"type": "object"}


def _tool(name: str, schema: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    return {"name": name, "description": f"Does {name}.", "inputSchema": schema or OBJ, **more}


def _import(tmp: Path, listing: Any, *extra: str) -> tuple[Any, Path]:
    source = tmp / "listing.json"
    source.write_text(json.dumps(listing, indent=2))
    out = tmp / "out"
    return run_toolc("import", str(source), "--out", str(out), *extra), out


def _config(out: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    tools = yaml.safe_load((out / "tools.yaml").read_text())
    policies = out / "tool_policies.yaml"
    return tools, yaml.safe_load(policies.read_text()) if policies.exists() else {}


def _published(out: Path, tmp: Path) -> dict[str, Any]:
    built = verbs.build(out, tmp / "pkg", tmp / "snap.json", write=True, cwd=out)
    assert built.written and not [d for d in built.diagnostics if d.is_error], built.diagnostics
    tools = json.loads((tmp / "pkg" / "tools.json").read_text())["tools"]
    return {t["name"]: t for t in tools}


def test_annotations_set_the_tool_type_and_the_confirmation(tmp_path: Path) -> None:
    listing = {"tools": [
        _tool("look", annotations={"readOnlyHint": True}),
        _tool("erase", annotations={"destructiveHint": True}),
        _tool("poke"),  # no hints: MCP's defaults, a destructive write
        _tool("add", annotations={"readOnlyHint": False, "destructiveHint": False}),
    ]}  # fmt: skip
    done, out = _import(tmp_path, listing, "--server", "s")
    assert done.returncode == 0, done.stderr
    tools, policies = _config(out)
    kinds = {n: (t["tool_type"], t.get("confirmation_required")) for n, t in tools["tools"].items()}
    assert kinds == {"look": ("query", None), "erase": ("action", None),
                     "poke": ("action", None), "add": ("action", False)}  # fmt: skip
    confirmed = {"operation_type": "transactional", "require_confirmation": True}
    assert policies["tool_policies"] == {"erase": confirmed, "poke": confirmed}
    built = run_toolc("check", str(out), "--strict")
    assert built.returncode == 0, built.stderr  # no transactional-without-confirmation
    published = _published(out, tmp_path)
    assert published["erase"]["annotations"]["destructiveHint"] is True
    assert published["look"]["annotations"]["readOnlyHint"] is True


def test_defs_become_types_with_names_that_collide_with_nothing(tmp_path: Path) -> None:
    def schema(item: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "$defs": {"Item": item, "Ok": {"type": "integer"}},
                "properties": {"a": {"$ref": "#/$defs/Item"}, "b": {"$ref": "#/$defs/Ok"}}}  # fmt: skip

    listing = [
        _tool("one", schema({"type": "string", "maxLength": 3})),
        _tool("two", schema({"type": "array", "items": {"$ref": "#/$defs/Item/$defs/Leaf"},
                             "$defs": {"Leaf": {"type": "boolean"}}})),
    ]  # fmt: skip
    done, out = _import(tmp_path, listing, "--server", "s")
    assert done.returncode == 0, done.stderr
    tools, _ = _config(out)
    assert set(tools["types"]) == {"Item", "Item2", "Ok2"}  # `Ok` is the package's; one shared
    assert tools["tools"]["one"]["args_schema"]["a"] == {"$ref": "#/types/Item"}
    assert tools["tools"]["two"]["args_schema"]["a"] == {"$ref": "#/types/Item2"}
    assert tools["types"]["Item2"]["items"] == {"$ref": "#/$defs/Leaf"}  # rebased on the type
    published = _published(out, tmp_path)
    for tool in listing:
        theirs, ours = EcmaValidator(tool["inputSchema"]), EcmaValidator(published[tool["name"]]["inputSchema"])  # fmt: skip
        for instance in ({"a": "abc", "b": 1}, {"a": "abcd"}, {"a": [True]}, {"a": [1]}, {"b": "x"}):  # fmt: skip
            assert theirs.is_valid(instance) == ours.is_valid(instance), (tool["name"], instance)


def test_defs_equal_only_as_python_values_stay_two_types(tmp_path: Path) -> None:
    """`True == 1` and `False == 0` in Python: `enum: [false, true]` shared with `enum: [0,
    1]` would make one tool refuse what it accepted. Equal JSON is shared, and only that."""

    def schema(flag: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "$defs": {"Flag": flag},
                "properties": {"flag": {"$ref": "#/$defs/Flag"}}, "required": ["flag"]}  # fmt: skip

    listing = [
        _tool("level", schema({"enum": [0, 1]})),
        _tool("switch", schema({"enum": [False, True]})),
        _tool("one", schema({"const": 1})),
        _tool("yes", schema({"const": True})),
        _tool("again", schema({"enum": [0, 1]})),
    ]
    done, out = _import(tmp_path, listing, "--server", "s")
    assert done.returncode == 0, done.stderr
    tools, _ = _config(out)
    refs = {n: t["args_schema"]["flag"]["$ref"] for n, t in tools["tools"].items()}
    assert refs["again"] == refs["level"] and len(set(refs.values())) == 4, refs
    published = _published(out, tmp_path)
    for tool in listing:
        theirs = EcmaValidator(tool["inputSchema"])
        ours = EcmaValidator(published[tool["name"]]["inputSchema"])
        for flag in (0, 1, True, False, 1.0):
            instance = {"flag": flag}
            assert theirs.is_valid(instance) == ours.is_valid(instance), (tool["name"], flag)


def test_a_required_name_is_declared_only_where_that_changes_nothing(tmp_path: Path) -> None:
    """A required, undeclared argument is declared `{}` (any value), unless something judges
    the undeclared properties: a root `unevaluatedProperties` would count it as evaluated.
    `additionalProperties: {}` (zod's looseObject) accepts what `true` does."""
    strict = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["z"],
              "unevaluatedProperties": False}  # fmt: skip
    loose = {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}],
             "additionalProperties": {}}  # fmt: skip
    done, out = _import(tmp_path, [_tool("strict", strict), _tool("loose", loose)], "--server", "s")
    assert done.returncode == 0, done.stderr
    assert "tool 'strict' not imported: /inputSchema/required: 'z'" in done.stderr
    published = _published(out, tmp_path)
    assert set(published) == {"loose"}
    theirs, ours = EcmaValidator(loose), EcmaValidator(published["loose"]["inputSchema"])
    for instance in ({"a": "x", "b": 1}, {"a": 1}, {}, {"b": None}):
        assert theirs.is_valid(instance) == ours.is_valid(instance), instance


def test_a_null_default_its_schema_refuses_is_dropped_and_said(tmp_path: Path) -> None:
    """pydantic writes `{"type": "integer", "default": null}` for `x: int = None` (FastMCP
    servers publish it): the default is an annotation no validator reads, and toolc gives
    the handler None for an argument left out, so the tool is carried without it."""
    plain = {"type": "object", "properties": {"limit": {"type": "integer", "default": None},
             "q": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}}  # fmt: skip
    done, out = _import(tmp_path, [_tool("search", plain)], "--server", "s")
    assert done.returncode == 0 and "not imported" not in done.stderr, done.stderr
    assert "/properties/limit/default: dropped default null" in done.stderr
    tools, _ = _config(out)
    args = tools["tools"]["search"]["args_schema"]
    assert args["limit"] == {"type": "integer"} and args["q"]["default"] is None
    published = _published(out, tmp_path)["search"]["inputSchema"]
    theirs, ours = EcmaValidator(plain), EcmaValidator(published)
    for instance in ({}, {"limit": 1}, {"limit": None}, {"q": None}, {"limit": "1"}):
        assert theirs.is_valid(instance) == ours.is_valid(instance), instance
    sys.path.insert(0, str(tmp_path))
    try:
        model = importlib.import_module("pkg.tools.search").SearchArgs
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
            del sys.modules[name]
    assert model.model_validate({}).limit is None  # what `x: int = None` gave the handler


def test_a_draft_07_schema_is_translated_and_said_so(tmp_path: Path) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {"Code": {"type": "string", "minLength": 2}},
        "properties": {
            "code": {"$ref": "#/definitions/Code", "maxLength": 1},  # draft-07: ignored
            "pair": {"type": "array", "items": [{"type": "integer"}], "additionalItems": False},
            "open": {"type": "array", "additionalItems": False},  # ignored without an array
            "later": {"type": "object", "unevaluatedProperties": False},  # draft-07: unknown
        },
        "dependencies": {"code": ["pair"], "pair": {"required": ["open"]}},
        "additionalProperties": False,
    }
    done, out = _import(tmp_path, [_tool("t", schema)], "--server", "s")
    assert done.returncode == 0, done.stderr
    assert "warning[import-dialect-translated]" in done.stderr
    assert "maxLength beside $ref (draft-07 ignores them)" in done.stderr
    published = _published(out, tmp_path)["t"]["inputSchema"]
    theirs, ours = Draft7Validator(schema), EcmaValidator(published)
    for instance in (
        {"code": "abc", "pair": [1]}, {"code": "a", "pair": [1]}, {"code": "abc"},
        {"pair": [1, 2]}, {"pair": [1], "open": [1]}, {"pair": ["x"], "open": []},
        {"open": [1, 2], "later": {"x": 1}}, {"other": 1}, {},
    ):  # fmt: skip
        assert theirs.is_valid(instance) == ours.is_valid(instance), instance


def test_a_draft_07_schema_may_keep_its_subschemas_under_defs(tmp_path: Path) -> None:
    """`$defs` is no draft-07 keyword, but a pointer reaches into any object: the schema
    means what draft-07 validators make of it, not a refusal."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "$defs": {"P": {"type": "integer", "exclusiveMinimum": 0}},
              "properties": {"p": {"$ref": "#/$defs/P"}}}  # fmt: skip
    done, out = _import(tmp_path, [_tool("d7", schema)], "--server", "s")
    assert done.returncode == 0 and "not imported" not in done.stderr, done.stderr
    published = _published(out, tmp_path)
    theirs, ours = Draft7Validator(schema), EcmaValidator(published["d7"]["inputSchema"])
    for instance in ({"p": 1}, {"p": 0}, {"p": "1"}, {}, {"p": 1.5}):
        assert theirs.is_valid(instance) == ours.is_valid(instance), instance


def test_a_key_without_a_source_gets_a_marked_placeholder(tmp_path: Path) -> None:
    listing = [{"name": "mute", "inputSchema": OBJ, "_meta": {"version": "v2"}}]
    done, out = _import(tmp_path, listing)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("warning[import-placeholder]") == 3  # server, description, version
    text = (out / "tools.yaml").read_text()
    assert "# TODO(toolc import): the tool has no description" in text
    tool = _config(out)[0]["tools"]["mute"]
    assert tool["description"].startswith("TODO(toolc import)")
    assert (tool["mcp_server"], tool["version"]) == ("imported", "1.0.0")
    assert run_toolc("build", str(out)).returncode == 0


def test_the_version_comes_from_meta_and_the_server_from_server_info(tmp_path: Path) -> None:
    listing = {"serverInfo": {"name": "my/server"}, "tools": [_tool("t", _meta={"version": "2.1.0"})]}  # fmt: skip
    done, out = _import(tmp_path, listing)
    assert done.returncode == 0, done.stderr
    tool = _config(out)[0]["tools"]["t"]
    assert (tool["version"], tool["mcp_server"]) == ("2.1.0", "my_server")
    assert "'my/server' is no mcp_server name" in done.stderr


def test_a_tool_that_cannot_be_carried_is_skipped_where_it_is_written(tmp_path: Path) -> None:
    listing = [
        _tool("fine"),
        _tool("remote", {"type": "object", "properties": {"a": {"$ref": "https://x.org/a.json"}}}),
        _tool("lookahead", {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(?!x)"}}}),
        _tool("scalar", {"type": "string"}),
        _tool("cross", {"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}}),
    ]  # fmt: skip
    done, out = _import(tmp_path, listing, "--server", "s")
    assert done.returncode == 0, done.stderr
    assert list(_config(out)[0]["tools"]) == ["fine"]
    lines = [ln for ln in done.stderr.splitlines() if "warning[import-tool-skipped]" in ln]
    located = {ln.split(": warning")[0].rsplit(":", 2)[-2] for ln in lines}
    assert len(lines) == 4 and len(located) == 4  # each at its own tool's line
    assert "toolc refuses it" in done.stderr and "[unsupported-pattern]" in done.stderr
    assert "/properties/b/$ref" in done.stderr and "/type: the arguments" in done.stderr


def test_what_decides_nothing_is_dropped_and_named(tmp_path: Path) -> None:
    schema = {"type": "object", "title": "Args", "x-ui": {"w": 1},
              "properties": {"a": {"type": "string", "x-order": 1}}}  # fmt: skip
    done, out = _import(tmp_path, [_tool("t", schema, execution={"taskSupport": "forbidden"})], "--server", "s")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("warning[import-not-carried]") == 4
    assert _config(out)[0]["tools"]["t"]["args_schema"] == {"a": {"type": "string"}}


def test_strings_are_written_as_yaml_1_2_reads_them(tmp_path: Path) -> None:
    values = ["1e3", "0o14", "yes", "null", "", "a: b", "#x", "line\nnext", "1.0", " pad ", "~"]
    schema = {"type": "object", "properties": {"a": {"enum": values}}}
    done, out = _import(tmp_path, [_tool("t", schema)], "--server", "s")
    assert done.returncode == 0, done.stderr
    assert _published(out, tmp_path)["t"]["inputSchema"]["properties"]["a"]["enum"] == values


def test_an_existing_config_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "tools.yaml").write_text("mine\n")
    done, _ = _import(tmp_path, [_tool("t")])
    assert done.returncode == 1 and "error[import-config-exists]" in done.stderr
    assert (out / "tools.yaml").read_text() == "mine\n" and sorted(out.iterdir()) == [out / "tools.yaml"]  # fmt: skip


def test_bad_sources_are_diagnostics_not_tracebacks(tmp_path: Path) -> None:
    for text, where in (('{\n  "tools": [1,', "2:"), ('{"x": 1}', "1:1"), ('[{"nam": 1}]', "1:2")):
        (tmp_path / "bad.json").write_text(text)
        done = run_toolc("import", str(tmp_path / "bad.json"), "--out", str(tmp_path / "o"))
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "error[import-source-invalid]" in done.stderr and f"bad.json:{where}" in done.stderr
    done = run_toolc("import", str(tmp_path / "none.json"), "--out", str(tmp_path / "o"))
    assert done.returncode == 1 and "error[import-source-invalid]" in done.stderr
    done = run_toolc(
        "import", "--out", str(tmp_path / "o"), "--stdio", "--", str(tmp_path / "nothing")
    )
    assert done.returncode == 1 and "error[import-source-invalid]" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "o").exists()


def test_numbers_no_schema_can_hold_are_named_where_they_are(tmp_path: Path) -> None:
    """1e400 (valid JSON, beyond a double) and NaN (not JSON) skipped the tool saying
    "'.inf' is not a finite number": YAML's spelling, which the user never wrote."""
    head = '{"tools": [{"name": "a", "inputSchema": {"type": "object", "maximum": '
    for number, said in (("1e400", "holds 1e400, a number beyond"), ("NaN", "NaN is no JSON")):
        (tmp_path / "n.json").write_text(head + number + "}}]}")
        done = run_toolc("import", str(tmp_path / "n.json"), "--out", str(tmp_path / "o"))
        assert done.returncode == 1 and not (tmp_path / "o").exists()
        assert f"n.json:1:{len(head) + 1}: error[import-source-invalid]" in done.stderr
        assert said in done.stderr and ".inf" not in done.stderr, done.stderr


def test_a_page_of_a_longer_listing_is_imported_and_said_so(tmp_path: Path) -> None:
    listing = {"tools": [_tool("a")], "nextCursor": "page-2"}
    done, out = _import(tmp_path, listing)
    assert done.returncode == 0 and (out / "tools.yaml").is_file()
    assert "warning[import-listing-partial]" in done.stderr
    assert "one page of a longer tools/list (nextCursor 'page-2')" in done.stderr


def test_the_targets_the_config_is_built_with_judge_the_import(tmp_path: Path) -> None:
    """The [tool.toolc] targets of the folder imported into made the build of the imported
    config fail (`mcp-nullable-type-list`): a tool they refuse is skipped like any other."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.toolc]\ntargets = ["mcp"]\n')
    nullable = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}
    (tmp_path / "l.json").write_text(json.dumps({"tools": [_tool("a", nullable), _tool("b")]}))
    out = project / "cfg"
    done = run_toolc("import", str(tmp_path / "l.json"), "--out", str(out), "--server", "s")
    assert done.returncode == 0, done.stderr
    assert "tool 'a' not imported" in done.stderr and "[mcp-nullable-type-list]" in done.stderr
    built = run_toolc("build", str(out))
    assert built.returncode == 0, built.stderr


def test_nothing_is_written_when_no_tool_can_be_carried(tmp_path: Path) -> None:
    done, out = _import(tmp_path, [_tool("scalar", {"type": "string"}), {"name": "x", "inputSchema": 5}])  # fmt: skip
    assert done.returncode == 1 and "error[import-no-tools]" in done.stderr
    assert not out.exists()


def test_init_from_a_listing_applies_the_targets_its_builds_will(tmp_path: Path) -> None:
    """DIR's own pyproject.toml, which init keeps, sets `targets`: a tool they refuse is
    skipped, as import skips it (init imported it, and the first build failed). An enclosing
    folder's targets do not apply: the pyproject.toml init writes in DIR is the nearest."""
    nullable = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}
    (tmp_path / "l.json").write_text(json.dumps({"tools": [_tool("a", nullable), _tool("b")]}))
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\ntargets = ["mcp"]\n')
    own, enclosed = tmp_path / "own", tmp_path / "enclosed"
    own.mkdir()
    (own / "pyproject.toml").write_text('[tool.toolc]\ntargets = ["mcp"]\n')
    for cfg, skipped in ((own, True), (enclosed, False)):
        done = run_toolc("init", str(cfg), "--from", str(tmp_path / "l.json"), "--server", "s")
        assert done.returncode == 0, done.stderr
        assert ("tool 'a' not imported" in done.stderr) is skipped, done.stderr
        assert ("[mcp-nullable-type-list]" in done.stderr) is skipped
        assert run_toolc("build", str(cfg)).returncode == 0


def test_init_from_a_listing_writes_the_import_and_what_init_adds(tmp_path: Path) -> None:
    (tmp_path / "listing.json").write_text(json.dumps([_tool("t", annotations={"readOnlyHint": True})]))  # fmt: skip
    done = run_toolc("init", str(tmp_path / "cfg"), "--from", str(tmp_path / "listing.json"), "--server", "s")  # fmt: skip
    assert done.returncode == 0, done.stderr
    cfg = tmp_path / "cfg"
    assert list(_config(cfg)[0]["tools"]) == ["t"] and not (cfg / "tool_policies.yaml").exists()
    assert (cfg / "pyproject.toml").exists() and (cfg / ".toolc" / "tools.schema.json").exists()
    assert run_toolc("build", str(cfg), "--strict").returncode == 0
    again = run_toolc("init", str(cfg), "--from", str(tmp_path / "listing.json"))
    assert again.returncode == 1


def test_a_json_rpc_response_and_boolean_argument_schemas_are_read(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"any": True, "never": False}, "required": ["any"]}
    response = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [_tool("t", schema)]}}
    done, out = _import(tmp_path, response, "--server", "s")
    assert done.returncode == 0, done.stderr
    published = EcmaValidator(_published(out, tmp_path)["t"]["inputSchema"])
    for instance in ({"any": 1}, {}, {"any": None, "never": 1}, {"any": [], "x": 2}):
        assert published.is_valid(instance) == EcmaValidator(schema).is_valid(instance), instance


def test_a_repeated_member_is_read_as_json_reads_it(tmp_path: Path) -> None:
    source = tmp_path / "twice.json"
    source.write_text('{"tools": [{"name": "old"}],\n "tools": [' + json.dumps(_tool("new")) + "]}")
    done = run_toolc("import", str(source), "--out", str(tmp_path / "o"), "--server", "s")
    assert done.returncode == 0, done.stderr
    assert list(_config(tmp_path / "o")[0]["tools"]) == ["new"]


def test_a_link_loop_on_the_output_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "l.json").write_text(json.dumps({"tools": [_tool("a")]}))
    done = run_toolc("import", str(tmp_path / "l.json"), "--out", str(tmp_path / "loop" / "sub"))
    assert done.returncode == 2 and "internal error" not in done.stderr, done.stderr
    assert "leads in a loop" in done.stderr


def test_a_tool_the_compiler_refuses_is_skipped_with_where_to_read_why(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": "x"}}}
    done, _ = _import(tmp_path, [_tool("bad", schema), _tool("good")], "--server", "s")
    assert done.returncode == 0, done.stderr
    assert "tool 'bad' not imported: toolc refuses it: " in done.stderr
    assert "[invalid-default]" in done.stderr
    assert "hint: `toolc explain invalid-default` says what toolc takes" in done.stderr


def test_an_origin_command_naming_a_relative_file_is_warned_of(tmp_path: Path) -> None:
    (tmp_path / "listing.json").write_text(json.dumps([_tool("ping")]))
    (tmp_path / "server.py").write_text("")
    done = run_toolc(
        "import", "listing.json", "--proxied", "--origin-command", "python server.py",
        "--out", "out", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warning[import-origin-relative]: the origin command names 'server.py'" in done.stderr


def test_a_proxied_tool_keeps_its_origin_s_null_default(tmp_path: Path) -> None:
    """Proxied, the published schema must be the origin's: the default is not dropped (nor
    said to reach a handler it has not), and toolc's refusal of it stands."""
    plain = {"type": "object", "properties": {"limit": {"type": "integer", "default": None}}}
    done, _ = _import(
        tmp_path, [_tool("fm", plain), _tool("ok")], "--server", "s", "--proxied",
        "--origin-command", "/usr/bin/true",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "dropped default null" not in done.stderr
    assert "tool 'fm' not imported: toolc refuses it" in done.stderr
