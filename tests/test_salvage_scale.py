"""The salvage of a config with schema errors (toolc.model.salvage) is linear in the errors: it
used to scan every broken path once per tool, so 4,000 tools with one error each took 3.4 s and
60,000 did not finish in minutes. Indexing the paths must not change a single diagnostic."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from conftest import run_toolc
from toolc.model.salvage import salvage
from toolc.pipeline import TOOL_FIELDS
from toolc.source import JsonPath

# Several broken tools, arguments, returns, items, types, accepted breaks and policies, and tool
# and type names that are no names: each way the salvage keeps or drops a part.
TOOLS = """\
tools:
  missing:
    version: 1.0.0
    description: Missing its server and its type.
    confirmation_required: true
    requires: [order_id, nope]
    args_schema:
      order_id: {$ref: '#/types/Missing'}
      note: {type: strng}
      shared: {$ref: '#/types/Half'}
  args:
    version: 1.0.0
    description: Broken arguments.
    mcp_server: s
    tool_type: query
    args_schema:
      good: {type: string}
      bad: {type: string, minLength: -1}
      deep:
        type: object
        properties:
          a: {type: integer, maximum: nope}
          b: {type: array, items: {type: string, pattern: 5}}
          c: {$ref: '#/types/Lost'}
  ret:
    version: 2
    description: Broken returns and items.
    mcp_server: s
    tool_type: action
    returns:
      type: object
      properties:
        ok: {type: boolean, enum: 3}
        ref: {$ref: '#/types/Kept'}
    multi_item:
      item:
        type: object
        properties:
          success: {type: boolean}
          x: {type: string, minLength: -2}
  typo:
    version: 1.0.0
    descripton: A misspelt key.
    description: Typo.
    mcp_server: s
    tool_type: query
  listed:
    - not a mapping
  "bad name":
    version: 1.0.0
    description: An invalid name.
    mcp_server: s
    tool_type: query
    args_schema:
      r: {$ref: '#/types/Half'}
  fine:
    version: 1.0.0
    description: A valid tool.
    mcp_server: s
    tool_type: query
types:
  Kept: {type: string}
  Half:
    type: object
    properties:
      a: {type: nope}
      b: {$ref: '#/types/Unused2'}
  "bad type": {type: string}
  Broken: {type: string, maxLength: x}
accepted_breaks:
  - {tool: fine, change: x}
  - 5
"""

POLICIES = """\
tool_policies:
  missing:
    operation_type: transactional
    require_confirmation: true
  args:
    operation_type: transacional
    require_confirmation: sim
  ret:
    requires: produto
    operation_typo: read_only
  ghost:
    require_confirmation: [true]
  fine: 5
"""

# `toolc check` on it before the paths were indexed, byte for byte.
EXPECTED = """\
tool_policies.yaml:6:21: error[invalid-value]: 'transacional' is not one of 'transactional', 'read_only'; did you mean 'transactional'?
    6 |     operation_type: transacional
      |                     ^~~~~~~~~~~~
tool_policies.yaml:7:27: error[schema-type]: expected a boolean, found a string 'sim' (in `require_confirmation` of policy 'args')
    7 |     require_confirmation: sim
      |                           ^~~
tool_policies.yaml:9:15: error[schema-type]: expected a list, found a string 'produto' (in `requires` of policy 'ret')
    9 |     requires: produto
      |               ^~~~~~~
tool_policies.yaml:10:5: error[unknown-key]: unknown key 'operation_typo' in policy 'ret'; did you mean 'operation_type'?
   10 |     operation_typo: read_only
      |     ^~~~~~~~~~~~~~
tool_policies.yaml:11:3: error[policy-unknown-tool]: policy for undeclared tool 'ghost'
   11 |   ghost:
      |   ^~~~~
  = hint: declare the tool in tools.yaml or remove the policy
tool_policies.yaml:12:27: error[schema-type]: expected a boolean, found a list (in `require_confirmation` of policy 'ghost')
   12 |     require_confirmation: [true]
      |                           ^~~~~~
tool_policies.yaml:13:9: error[schema-type]: expected a mapping, found an integer 5 (in policy 'fine')
   13 |   fine: 5
      |         ^
tools.yaml:2:3: error[missing-key]: tool 'missing' is missing required key 'mcp_server'
    2 |   missing:
      |   ^~~~~~~
tools.yaml:2:3: error[missing-key]: tool 'missing' is missing required key 'tool_type'
    2 |   missing:
      |   ^~~~~~~
tools.yaml:6:26: error[requires-unknown-arg]: 'missing' requires 'nope', which is not in its args_schema; did you mean 'note'?
    6 |     requires: [order_id, nope]
      |                          ^~~~
tools.yaml:8:24: error[unknown-ref]: `$ref` to undeclared type 'Missing'
    8 |       order_id: {$ref: '#/types/Missing'}
      |                        ^~~~~~~~~~~~~~~~~
  = hint: declare 'Missing' under the top-level `types:` mapping
tools.yaml:9:20: error[unknown-type]: unknown type 'strng'; did you mean 'string'?
    9 |       note: {type: strng}
      |                    ^~~~~
tools.yaml:18:38: error[invalid-value]: -1 is less than the minimum of 0 (in argument 'bad' of tool 'args')
   18 |       bad: {type: string, minLength: -1}
      |                                      ^~
tools.yaml:22:39: error[schema-type]: expected an integer or a number, found a string 'nope' (in argument 'deep' of tool 'args')
   22 |           a: {type: integer, maximum: nope}
      |                                       ^~~~
tools.yaml:23:59: error[schema-type]: expected a string, found an integer 5 (in argument 'deep' of tool 'args')
   23 |           b: {type: array, items: {type: string, pattern: 5}}
      |                                                           ^
tools.yaml:24:21: error[unknown-ref]: `$ref` to undeclared type 'Lost'
   24 |           c: {$ref: '#/types/Lost'}
      |                     ^~~~~~~~~~~~~~
  = hint: declare 'Lost' under the top-level `types:` mapping
tools.yaml:26:14: error[schema-type]: expected a string, found an integer 2 (in `version` of tool 'ret')
   26 |     version: 2
      |              ^
  = hint: YAML reads `2` as a number, and a version has three parts: write `version: 2.0.0`
tools.yaml:33:35: error[schema-type]: expected a list, found an integer 3 (in `enum` of tool 'ret')
   33 |         ok: {type: boolean, enum: 3}
      |                                   ^
tools.yaml:40:40: error[invalid-value]: -2 is less than the minimum of 0 (in `minLength` of tool 'ret')
   40 |           x: {type: string, minLength: -2}
      |                                        ^~
tools.yaml:43:5: error[unknown-key]: unknown key 'descripton' in tool 'typo'; did you mean 'description'?
   43 |     descripton: A misspelt key.
      |     ^~~~~~~~~~
tools.yaml:48:5: error[schema-type]: expected a mapping, found a list (in tool 'listed')
   48 |     - not a mapping
      |     ^~~~~~~~~~~~~~~
tools.yaml:49:3: error[invalid-tool-name]: 'bad name' is not a valid MCP tool name
   49 |   "bad name":
      |   ^~~~~~~~~~
  = hint: use 1-128 characters of A-Z a-z 0-9 _ . -
tools.yaml:66:17: error[unknown-type]: unknown type 'nope'
   66 |       a: {type: nope}
      |                 ^~~~
  = hint: types are: string, integer, number, boolean, object, array, list, null
tools.yaml:67:17: error[unknown-ref]: `$ref` to undeclared type 'Unused2'
   67 |       b: {$ref: '#/types/Unused2'}
      |                 ^~~~~~~~~~~~~~~~~
  = hint: declare 'Unused2' under the top-level `types:` mapping
tools.yaml:68:3: error[invalid-value]: 'bad type' is not a valid name in `types`: it must match '^[A-Za-z_][A-Za-z0-9_]*$'
   68 |   "bad type": {type: string}
      |   ^~~~~~~~~~
  = hint: start with a letter or _, then letters, digits or _, e.g. OrderId
tools.yaml:69:3: warning[unused-type]: type 'Broken' is not reachable from any tool
   69 |   Broken: {type: string, maxLength: x}
      |   ^~~~~~
  = hint: remove it or reference it with `$ref: '#/types/Broken'`
tools.yaml:69:37: error[schema-type]: expected an integer, found a string 'x' (in `maxLength` of type 'Broken')
   69 |   Broken: {type: string, maxLength: x}
      |                                     ^
tools.yaml:71:5: error[missing-key]: `accepted_breaks` is missing required key 'from'
   71 |   - {tool: fine, change: x}
      |     ^~~~~~~~~~~~~~~~~~~~~~~
tools.yaml:71:5: error[missing-key]: `accepted_breaks` is missing required key 'reason'
   71 |   - {tool: fine, change: x}
      |     ^~~~~~~~~~~~~~~~~~~~~~~
tools.yaml:71:5: error[missing-key]: `accepted_breaks` is missing required key 'rule'
   71 |   - {tool: fine, change: x}
      |     ^~~~~~~~~~~~~~~~~~~~~~~
tools.yaml:71:5: error[missing-key]: `accepted_breaks` is missing required key 'to'
   71 |   - {tool: fine, change: x}
      |     ^~~~~~~~~~~~~~~~~~~~~~~
tools.yaml:71:18: error[unknown-key]: unknown key 'change' in `accepted_breaks`
   71 |   - {tool: fine, change: x}
      |                  ^~~~~~
tools.yaml:72:5: error[schema-type]: expected a mapping, found an integer 5 (in `accepted_breaks`)
   72 |   - 5
      |     ^
toolc check .: 32 error(s), 1 warning(s)
"""


def test_the_diagnostics_are_those_of_the_scan(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "tool_policies.yaml").write_text(POLICIES, encoding="utf-8")
    done = run_toolc("check", ".", "--no-cache", cwd=tmp_path)  # under a random hash seed
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == EXPECTED


class _Counted(frozenset[JsonPath]):
    """Broken paths that count how many times any of them is read."""

    reads = 0

    def __iter__(self) -> Iterator[JsonPath]:
        for path in super().__iter__():
            self.reads += 1
            yield path


def test_each_broken_path_is_read_a_bounded_number_of_times() -> None:
    n = 300
    tools = {
        "tools": {
            f"t{i}": {"version": "1.0.0", "description": "D.", "tool_type": "query"}
            for i in range(n)
        }
    }
    broken = _Counted(("tools", f"t{i}", "mcp_server") for i in range(n))
    p_broken = _Counted({("tool_policies", f"t{i}", "requires") for i in range(n)})
    policies = {"tool_policies": {f"t{i}": {"requires": "x"} for i in range(n)}}
    saved = salvage(tools, (broken, frozenset()), policies, (p_broken, frozenset()), TOOL_FIELDS)
    assert saved is not None
    kept, kept_policies, damage = saved
    assert kept["tools"]["t7"]["mcp_server"] == "-"  # the placeholder of the missing key
    assert kept_policies == {"tool_policies": {f"t{i}": {} for i in range(n)}}
    assert damage.unknown["t7"] == {"mcp_server", "policy.requires"}
    # Scanning them once per tool read n * n paths (90,000 here); once in all is n.
    assert broken.reads <= 2 * n
    assert p_broken.reads <= 2 * n
