"""The typed model that later phases read: effective policy values, immutability, and the
translation of declared fragments to published JSON Schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES
from toolc import verbs
from toolc.model import Project
from toolc.model.schemas import to_json_schema


def project_of(name: str) -> Project:
    folder = (
        next(e for e in EXAMPLES if e.name == name)
        if name in {e.name for e in EXAMPLES}
        else FIXTURES / "good" / name
    )
    result = verbs.check_config(folder, cwd=folder)
    assert result.project is not None, result.diagnostics
    return result.project


def test_effective_policy_values() -> None:
    telecom = project_of("telecom")
    cancel = telecom.tools["cancelar_produtos"]
    assert cancel.operation_type == "transactional" and cancel.require_confirmation
    assert cancel.requires == ("customer_id", "items")
    assert (
        cancel.pre_validation is not None
        and cancel.pre_validation.tool == "validar_produtos_cancelamento"
    )
    assert cancel.pre_validation.fail_open is False
    validator = telecom.tools["validar_produtos_cancelamento"]
    assert validator.operation_type == "read_only" and not validator.require_confirmation
    assert validator.pre_validation is None


def test_defaults_without_policy_and_switched_off_pre_validation() -> None:
    sink = project_of("kitchen-sink")
    disabled = sink.tools["disabled_tool"]
    assert not disabled.enabled and disabled.operation_type == "read_only"
    main = sink.tools["tool.with-dots_and-dashes"]
    assert main.pre_validation is None  # declared with enabled: false
    assert main.decl.unknown_args == "forbid"
    assert disabled.decl.unknown_args == "ignore"  # the default


def test_model_is_immutable() -> None:
    project = project_of("retail")
    tool = project.tools["cancelar_pedidos"]
    with pytest.raises((AttributeError, TypeError)):
        project.tools["x"] = tool  # type: ignore[index]
    with pytest.raises(AttributeError):  # a frozen msgspec Struct (decision 0121)
        tool.decl.version = "9.9.9"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        tool.name = "other"  # type: ignore[misc]


def test_containers_are_read_only_for_the_type_checker(tmp_path: Path) -> None:
    """The config classes use Mapping and Sequence: a later phase that tries to change the model
    does not type-check (mypy --strict runs on all of toolc)."""
    from mypy import api

    snippet = tmp_path / "mutate.py"
    snippet.write_text(
        "from toolc.model import Project\n"
        "def f(p: Project) -> None:\n"
        "    t = p.tools['x']\n"
        "    assert t.decl.args_schema is not None and t.decl.requires is not None\n"
        "    t.decl.args_schema['evil'] = t.decl.args_schema['a']\n"
        "    t.decl.requires.append('zzz')\n"
        "    p.tools['y'] = t\n"
    )
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--follow-imports=silent", str(snippet)]
    )
    assert status == 1
    assert out.count("error:") == 3, out
    assert "Unsupported target for indexed assignment" in out and '"append"' in out


def test_fragments_translate_to_published_json_schema() -> None:
    sink = project_of("kitchen-sink")
    args = sink.tools["tool.with-dots_and-dashes"].args
    assert to_json_schema(args["tags"]) == {
        "type": "array",
        "items": {"type": "string", "enum": ["a", "b"]},
        "minItems": 0,
        "maxItems": 3,
        "uniqueItems": True,
    }
    assert to_json_schema(args["ref"]) == {"$ref": "#/$defs/Shared"}
    assert to_json_schema(args["from"]) == {
        "type": "string",
        "format": "date",
        "x-toolc-label": "a data",
        "x-toolc-user-prompt": "Desde quando?",
    }
    klass = to_json_schema(args["class"])
    assert klass == {
        "type": ["integer", "null"],
        "minimum": 0,
        "exclusiveMaximum": 10,
        "default": 1,
    }
    assert isinstance(klass["minimum"], int)  # 0 stays 0, not 0.0
    assert to_json_schema(args["mode"])["const"] == "fast"


def test_property_names_are_data_not_keywords(tmp_path: Path) -> None:
    folder = tmp_path
    (folder / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: d\n    mcp_server: s\n    tool_type: query\n"
        "    args_schema:\n      o:\n        type: object\n        properties:\n"
        "          label: {type: list, label: L}\n          user_prompt: {type: string}\n"
    )
    result = verbs.check_config(folder, cwd=folder)
    assert result.project is not None
    published = to_json_schema(result.project.tools["t"].args["o"])
    assert published["properties"] == {
        "label": {"type": "array", "x-toolc-label": "L"},
        "user_prompt": {"type": "string"},
    }
