"""Issue #9 item 3: every declared default is the model field's default, typed non-optional
unless null is allowed; an omitted argument reaches the handler as the default; no wire form
invents a default that was not given; the typed client keeps such arguments optional and
unsent; mypy --strict (no plugin) accepts every default."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from toolc import verbs

sys.path.insert(0, str(Path(__file__).resolve().parent / "runtime_support"))
from harness import Connection

DEFAULTS: dict[str, Any] = {
    "state": "open",  # enum
    "encoding": "utf-8",  # const
    "order": "desc",  # $ref to an enum alias
    "sort": {"sortBy": "created"},  # $ref to a model, camelCase inside
    "labels": [],  # array, empty
    "tags": ["a"],  # array of enum values
    "page": {"size": 10},  # inline object
    "meta": {"a": 1},  # object of integers (additionalProperties)
    "extra": {},  # object, empty
    "filters": [{"name": "x"}],  # array of objects
    "window": {"days": 7},  # nullable object with a default that is not null
    "milestone": "v1",  # nullable string
    "assignee": None,  # nullable, default null
    "level": 2.5,  # enum of mixed kinds
    "limit": 30,
    "count": 5,  # declared 5.0: JSON Schema's integer
    "draft": False,
    "ratio": 0.5,
    "q": 'is:open "quoted" \\ é',
    "root": {"name": "r"},  # a recursive type, whose own recursive default has no end
}
CONFIG = """\
tools:
  search:
    version: 1.0.0
    description: Searches.
    mcp_server: github
    tool_type: query
    requires: [repo]
    args_schema:
      repo: {type: string}
      state: {enum: [open, closed], default: open, description: Issue state.}
      encoding: {const: utf-8, default: utf-8}
      order: {$ref: '#/types/Order', default: desc}
      sort: {$ref: '#/types/Sort', default: {sortBy: created}}
      labels: {type: array, items: {type: string}, default: []}
      tags: {type: array, items: {enum: [a, b]}, default: [a]}
      page:
        type: object
        properties: {size: {type: integer}, pageToken: {type: string}}
        default: {size: 10}
      meta: {type: object, additionalProperties: {type: integer}, default: {a: 1}}
      extra: {type: object, default: {}}
      filters:
        type: array
        items: {type: object, required: [name], properties: {name: {type: string}}}
        default: [{name: x}]
      window:
        type: [object, "null"]
        properties: {days: {type: integer}}
        default: {days: 7}
      milestone: {type: [string, "null"], default: v1}
      assignee: {type: [string, "null"], default: null}
      level: {enum: [1, 2.5, true, null], default: 2.5}
      limit: {type: integer, default: 30}
      count: {type: integer, default: 5.0}
      draft: {type: boolean, default: false}
      ratio: {type: number, default: 0.5}
      q: {type: string, default: 'is:open "quoted" \\ é'}
      root: {$ref: '#/types/Node', default: {name: r}}
    returns:
      type: object
      required: [seen]
      properties:
        seen: {type: object}
        status: {enum: [fresh, stale], default: fresh}
types:
  Node:
    type: object
    properties:
      name: {type: string}
      child: {$ref: '#/types/Node', default: {}}
      pair: {$ref: '#/types/Pair', default: {}}
  Pair:
    type: object
    properties:
      back: {$ref: '#/types/Node', default: {name: back}}
  Order: {enum: [asc, desc]}
  Sort:
    type: object
    properties:
      sortBy: {type: string}
      direction: {enum: [asc, desc]}
"""
HANDLERS = """\
from typing import Any

from pydantic import BaseModel

from defaults_pkg.tools.search import SearchData


def wire(value: Any) -> Any:
    if isinstance(value, BaseModel):  # nested models: what was given, by wire name
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, list):
        return [wire(v) for v in value]
    if isinstance(value, dict):
        return {k: wire(v) for k, v in value.items()}
    return value


class Handlers:
    async def search(self, args: Any, ctx: Any) -> SearchData:
        seen = {
            (f.alias or name): wire(getattr(args, name))
            for name, f in type(args).model_fields.items()
        }
        return SearchData.model_validate({"seen": seen})  # `status` left out
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("defaults")
    config = where / "config"
    config.mkdir()
    (config / "tools.yaml").write_text(CONFIG)
    result = verbs.build(
        config, where / "defaults_pkg", where / "snap.json", write=True, cwd=config
    )
    assert result.written, result.diagnostics
    (where / "defaults_handlers.py").write_text(HANDLERS)
    return where


@pytest.fixture(scope="module")
def pkg(root: Path) -> Any:
    sys.path.insert(0, str(root))
    try:
        import defaults_pkg

        return defaults_pkg
    finally:
        sys.path.remove(str(root))


def _wire(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, list):
        return [_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items()}
    return value


def test_each_declared_default_is_the_field_default(pkg: Any) -> None:
    fields = pkg.TOOLS["search"].args_model.model_fields
    by_wire = {f.alias or name: f for name, f in fields.items()}
    for wire, declared in DEFAULTS.items():
        got = by_wire[wire].get_default(call_default_factory=True, validated_data={})
        assert json.dumps(_wire(got)) == json.dumps(declared), wire


def test_a_default_with_no_end_is_not_built(pkg: Any) -> None:
    """`Node.child` defaults to `{}`, a Node whose child defaults to `{}`...: building it never
    ends, so it keeps None for "not given"; so do `Node.pair` and `Pair.back`, which lead back
    to themselves. A default that reaches them is built without them."""
    node = pkg.Node.model_fields
    assert node["child"].default is None and node["pair"].default is None
    assert pkg.Pair.model_fields["back"].default is None
    built = pkg.TOOLS["search"].args_model.model_validate({"repo": "r"}).root
    assert built.name == "r" and built.child is None and built.pair is None


def test_defaults_are_fresh_for_each_model(pkg: Any) -> None:
    model = pkg.TOOLS["search"].args_model
    first = model.model_validate({"repo": "r"})
    first.labels.append("mutated")
    first.meta["b"] = 2
    first.sort.sort_by = "changed"
    second = model.model_validate({"repo": "r"})
    assert second.labels == [] and second.meta == {"a": 1} and second.sort.sort_by == "created"


def test_a_field_with_a_default_refuses_null_unless_null_is_allowed(pkg: Any) -> None:
    model = pkg.TOOLS["search"].args_model
    for wire in ("state", "sort", "labels", "page", "limit"):
        with pytest.raises(pydantic.ValidationError):
            model.model_validate({"repo": "r", wire: None})
    for wire in ("window", "milestone", "assignee", "level"):
        assert getattr(model.model_validate({"repo": "r", wire: None}), wire) is None


def test_the_wire_form_of_a_model_built_without_it_does_not_invent_it(pkg: Any) -> None:
    model = pkg.TOOLS["search"].args_model
    assert model.model_validate({"repo": "r"}).model_dump(
        mode="json", by_alias=True, exclude_unset=True
    ) == {"repo": "r"}
    assert model(repo="r").model_dump(by_alias=True, exclude_unset=True) == {"repo": "r"}


def test_an_omitted_argument_reaches_the_handler_as_its_default(root: Path) -> None:
    connection = Connection(root / "defaults_pkg", "defaults_handlers")
    try:
        envelope = connection.call("search", {"repo": "r"})
    finally:
        connection.close()
    assert envelope["ok"] is True, envelope
    assert envelope["data"]["seen"] == {"repo": "r", **DEFAULTS}
    assert "status" not in envelope["data"]  # the result's own default is not invented


def test_the_client_keeps_defaulted_arguments_optional_and_unsent(root: Path) -> None:
    client = (root / "defaults_pkg" / "client.py").read_text()
    assert 'state: Literal["open", "closed"] | Unset = UNSET' in client
    assert "limit: JsonInt | Unset = UNSET" in client
    assert 'state: Issue state. (default: "open")' in client  # the docstring's Args


def test_mypy_strict_accepts_every_default(root: Path) -> None:
    from mypy import api

    (root / "mypy.ini").write_text("[mypy]\n")
    out, err, status = api.run(
        [
            "--strict",
            "--no-incremental",
            "--config-file",
            str(root / "mypy.ini"),
            str(root / "defaults_pkg"),
        ]
    )
    assert status == 0, out + err
