"""The versioned snapshot (`mcp-tools.json`): one line per tool with its version, its
`mcp_server` and two fingerprints, and the guard that refuses a changed contract without a
version bump.

- `schema`: sha16 of the published inputSchema with every prose annotation removed (the shape
  of the input; rewording a description does not change it);
- `contract`: sha16 of the tool's contract document with the outputSchema's `meta.version` const
  replaced by "*" (a version labels a contract and is not part of it).
docs/snapshot.md specifies both precisely.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from toolc.contract.canonical import canonical_bytes, sha16

PROSE_KEYWORDS = ("description", "title", "examples", "x-toolc-label", "x-toolc-user-prompt")
_SCHEMA_MAPS = ("properties", "$defs")
_SCHEMA_VALUES = ("items", "additionalProperties")
_SCHEMA_LISTS = ("oneOf", "anyOf", "allOf")


def normalize(schema: Any, prose: bool = True) -> Any:
    """The schema as fingerprints see it, walking schema positions only (a property named
    `title` is data): `required` and `enum` sorted, since their order means nothing to a
    validator, and, unless `prose`, without prose annotations."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in PROSE_KEYWORDS and not prose:
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: normalize(sub, prose) for name, sub in value.items()}
        elif key in _SCHEMA_VALUES:
            out[key] = normalize(value, prose)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [normalize(sub, prose) for sub in value]
        elif key == "required" and isinstance(value, list):
            out[key] = sorted(value)
        elif key == "enum" and isinstance(value, list):
            out[key] = sorted(value, key=canonical_bytes)
        else:
            out[key] = value
    return out


def strip_prose(schema: Any) -> Any:
    return normalize(schema, prose=False)


def schema_fingerprint(input_schema: dict[str, Any]) -> str:
    return sha16(strip_prose(input_schema))


def contract_fingerprint(contract: dict[str, Any]) -> str:
    # The server is the snapshot line's `server`, not part of this fingerprint: fingerprints
    # made before the document held it stay valid (decision 0144).
    if "mcp_server" in contract:
        contract = {k: v for k, v in contract.items() if k != "mcp_server"}
    # Copies only the path down to the const (the rest is shared, not mutated).
    tool = contract["tool"]
    output = tool.get("outputSchema", {})  # none: a proxied tool whose origin declares none
    meta = output.get("$defs", {}).get("envelope.Meta")
    if meta is not None:  # a proxied tool has no envelope, so no version in its schema
        output = {**output, "$defs": {**output["$defs"], "envelope.Meta": _any_version(meta)}}
    elif "proxied" not in contract and isinstance(output.get("oneOf"), list):
        output = {**output, "oneOf": [_inlined_meta(b) for b in output["oneOf"]]}
    tool = {
        **tool,
        "inputSchema": normalize(tool["inputSchema"]),
        **({"outputSchema": normalize(output)} if "outputSchema" in tool else {}),
    }
    if "proxied" in contract:  # where a proxied tool's contract records its version
        return sha16({**contract, "tool": tool, "proxied": {**contract["proxied"], "version": "*"}})
    return sha16({**contract, "tool": tool})


def _any_version(meta: dict[str, Any]) -> dict[str, Any]:
    version = {**meta["properties"]["version"], "const": "*"}
    return {**meta, "properties": {**meta["properties"], "version": version}}


def _inlined_meta(branch: Any) -> Any:
    """An envelope branch of a portable outputSchema (decision 0106), its inlined Meta's
    version const starred as the standard form's is."""
    fields = branch.get("properties") if isinstance(branch, dict) else None
    if not isinstance(fields, dict):
        return branch
    meta = fields.get("meta")
    if not (isinstance(meta, dict) and "version" in meta.get("properties", {})):
        return branch
    return {**branch, "properties": {**fields, "meta": _any_version(meta)}}


class Entry(msgspec.Struct, frozen=True):
    version: str
    schema: str
    contract: str
    enabled: bool = True
    # The tool's `mcp_server` (None: a line written before toolc recorded it, decision 0144).
    server: str | None = None

    def as_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"version": self.version}
        if self.server is not None:
            line["server"] = self.server
        line["schema"] = self.schema
        line["contract"] = self.contract
        if not self.enabled:
            line["enabled"] = False
        return line


def render(entries: dict[str, Entry]) -> str:
    """One line per tool, sorted by name, so a PR diff shows exactly which tool changed."""
    if not entries:
        return "{}\n"
    lines = [
        f"  {json.dumps(name, ensure_ascii=False)}: "
        f"{json.dumps(entries[name].as_json(), ensure_ascii=False)}"
        for name in sorted(entries)
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


class SnapshotError(ValueError):
    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line, self.column = line, column  # where it went wrong, when known


def parse(text: str) -> dict[str, Entry]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"not JSON: {exc.msg}", exc.lineno, exc.colno) from exc
    except RecursionError as exc:  # nested deeper than the reader goes: no snapshot
        raise SnapshotError("nested too deeply to be a snapshot") from exc
    if not isinstance(data, dict):
        raise SnapshotError("the snapshot must be a JSON object of tools")
    entries: dict[str, Entry] = {}
    for name, line in data.items():
        if not isinstance(line, dict) or not all(
            isinstance(line.get(k), str) for k in ("version", "schema", "contract")
        ):
            raise SnapshotError(f"entry '{name}' needs string version, schema and contract")
        server = line.get("server")
        if server is not None and not isinstance(server, str):
            raise SnapshotError(f"entry '{name}' has a server that is not a string")
        entries[name] = Entry(
            line["version"],
            line["schema"],
            line["contract"],
            line.get("enabled", True) is not False,
            server,
        )
    return entries
