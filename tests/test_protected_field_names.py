"""Arguments named like pydantic's protected namespaces (`model_dump...`,
`model_validate...`): their field was `model_dump_`, which pydantic
still warns of when the generated package is imported; such a field is now `field_<name>`,
still read and written by its wire name."""

from __future__ import annotations

import warnings
from pathlib import Path

from built_package import built_tools

CONFIG = """\
tools:
  t:
    version: 1.0.0
    description: a tool
    mcp_server: s
    tool_type: query
    args_schema:
      model_dump: {type: string}
      modelValidateJson: {type: integer}
      model_name: {type: string}
    returns:
      type: object
      properties:
        model_dump_json: {type: boolean}
  model_dump_report:
    version: 1.0.0
    description: a tool named like them, whose module and classes keep their names
    mcp_server: s
    tool_type: query
"""


def test_no_field_is_named_in_pydantics_protected_namespaces(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pydantic's UserWarning fails the import
        tools = built_tools(tmp_path, CONFIG, "protected_names_pkg")
        model = tools["t"].args_model
        fields = set(model.model_fields)
        assert fields == {"field_model_dump", "field_model_validate_json", "model_name_"}
        sent = {"model_dump": "a", "modelValidateJson": 1, "model_name": "b"}
        args = model.model_validate(sent)
        assert args.field_model_dump == "a" and args.field_model_validate_json == 1
        assert args.model_dump(by_alias=True, exclude_none=True) == sent
        data = tools["t"].data_model
        assert "field_model_dump_json" in data.model_fields
        named = tools["model_dump_report"]
        assert named.module == ".tools.model_dump_report_"  # as before 0143
        assert named.args_model.__name__ == "ModelDumpReportArgs"
