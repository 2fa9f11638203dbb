"""A contract document split in two: what the tool's author declared (the tool view) and what
toolc wraps around every tool (the envelope view).

The envelope sits in every tool's outputSchema: the `oneOf` on `ok`, `envelope.ErrorInfo` with
the framework's error codes, `envelope.Meta`, and for a multi-item tool the normalization fields
of `data`. A toolc release that changes it must be reported once, not once per tool, so the
per-tool comparison only ever sees the tool view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.contract.framework import MULTI_ITEM_FIELDS, success_data
from toolc.contract.snapshot import normalize

DATA = "envelope.Data"
ERROR_INFO = "envelope.ErrorInfo"
META = "envelope.Meta"
DATA_PTR = "/tool/outputSchema/$defs/envelope.Data"
# `results` holds the tool's own per-item results; the other fields are toolc's normalization.
NORMALIZATION_FIELDS = frozenset(MULTI_ITEM_FIELDS) - {"results"}


def obj(value: Any) -> Mapping[str, Any]:
    """`value` if it is a JSON object, else an empty one: a baseline read from git may be old or
    damaged, and a comparison must not crash on it."""
    return value if isinstance(value, Mapping) else {}


def escape(name: str) -> str:
    """One JSON pointer segment (RFC 6901)."""
    return name.replace("~", "~0").replace("/", "~1")


def is_multi_item(contract: Mapping[str, Any]) -> bool:
    return contract.get("multi_item") is not None


def is_proxied(contract: Mapping[str, Any]) -> bool:
    """A proxied tool (decision 0084): its outputSchema is the origin's data, unwrapped."""
    return contract.get("proxied") is not None


def data_pointer(contract: Mapping[str, Any]) -> str:
    """Where the tool's own `data` schema sits in its contract document."""
    return "/tool/outputSchema" if is_proxied(contract) else DATA_PTR


def input_schema(contract: Mapping[str, Any]) -> Mapping[str, Any]:
    return obj(obj(contract.get("tool")).get("inputSchema"))


def output_schema(contract: Mapping[str, Any]) -> Mapping[str, Any]:
    """The outputSchema in the standard layout: a portable one (decision 0106) has the
    envelope's parts inlined, and they are put back under `$defs` so every comparison reads
    one layout (the tool's own types stay inlined: they are its data)."""
    output = obj(obj(contract.get("tool")).get("outputSchema"))
    if is_proxied(contract) or "$defs" in output or success_data(output) is None:
        return output
    return standard_layout(output)


def standard_layout(output: Mapping[str, Any]) -> dict[str, Any]:
    """A portable envelope outputSchema with Data, ErrorInfo and Meta back under `$defs`."""
    branches = [dict(obj(b)) for b in output.get("oneOf", [])]
    parts = {"data": DATA, "error": ERROR_INFO, "meta": META}
    defs: dict[str, Any] = {}
    for branch in branches:
        fields = dict(obj(branch.get("properties")))
        for field, name in parts.items():
            if field in fields:
                defs.setdefault(name, fields[field])
                fields[field] = {"$ref": f"#/$defs/{name}"}
        branch["properties"] = fields
    return {**output, "oneOf": branches, "$defs": dict(sorted(defs.items()))}


def _defs(contract: Mapping[str, Any]) -> Mapping[str, Any]:
    return obj(output_schema(contract).get("$defs"))


def data_schema(contract: Mapping[str, Any]) -> dict[str, Any]:
    """The tool's own `data`: for a multi-item tool, without toolc's normalization fields;
    for a proxied one, its whole outputSchema (the types beside it are in `_defs`)."""
    if is_proxied(contract):
        return {k: v for k, v in output_schema(contract).items() if k != "$defs"}
    data = dict(obj(_defs(contract).get(DATA)))
    if is_multi_item(contract):
        data["properties"] = {
            k: v for k, v in obj(data.get("properties")).items() if k not in NORMALIZATION_FIELDS
        }
        required = data.get("required")
        if isinstance(required, list):
            data["required"] = [r for r in required if r not in NORMALIZATION_FIELDS]
    return data


def tool_codes(contract: Mapping[str, Any]) -> set[str]:
    return set(obj(contract.get("errors")))


def framework_codes(contract: Mapping[str, Any]) -> list[str]:
    """The error codes of ErrorInfo that the tool did not declare: the framework's."""
    code = obj(obj(obj(_defs(contract).get(ERROR_INFO)).get("properties")).get("code"))
    enum = code.get("enum")
    values = enum if isinstance(enum, list) else []
    return sorted(str(c) for c in values if c not in tool_codes(contract))


def contract_version(contract: Mapping[str, Any]) -> str | None:
    """The tool's version, as recorded in the envelope's Meta const (a proxied tool, with
    no envelope, records it beside its origin tool)."""
    if is_proxied(contract):
        stated = obj(contract.get("proxied")).get("version")
        return stated if isinstance(stated, str) else None
    meta = obj(obj(obj(_defs(contract).get(META)).get("properties")).get("version"))
    version = meta.get("const")
    return version if isinstance(version, str) else None


def tool_view(contract: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the tool's author controls, normalized as the snapshot's fingerprint is
    (required/enum sorted): two views are equal exactly when no finding is due."""
    tool = dict(obj(contract.get("tool")))
    defs = {k: v for k, v in _defs(contract).items() if not k.startswith("envelope.")}
    defs[DATA] = data_schema(contract)
    tool["inputSchema"] = normalize(input_schema(contract))
    tool["outputSchema"] = normalize({"$defs": defs})
    # The server is compared on its own (`compare._moved`): a document older than decision
    # 0144 has none, which is no change.
    view = {k: v for k, v in contract.items() if k not in ("envelope_version", "mcp_server")}
    view["tool"] = tool
    return view


def envelope_view(contract: Mapping[str, Any]) -> dict[str, Any]:
    """What toolc wraps around the tool, with the tool's name, version and codes taken out
    (nothing for a proxied tool: the origin's answer is not wrapped)."""
    if is_proxied(contract):
        return {"proxied": True}
    output = output_schema(contract)
    defs = _defs(contract)
    error_info = dict(obj(defs.get(ERROR_INFO)))
    error_info["properties"] = {
        **obj(error_info.get("properties")),
        "code": {"enum": framework_codes(contract)},
    }
    meta = dict(obj(defs.get(META)))
    meta["properties"] = {
        k: ({**obj(v), "const": "*"} if k in ("tool", "version") else v)
        for k, v in obj(meta.get("properties")).items()
    }
    view: dict[str, Any] = {
        "root": {k: v for k, v in output.items() if k != "$defs"},
        ERROR_INFO: error_info,
        META: meta,
        "version": contract.get("envelope_version"),
    }
    if is_multi_item(contract):
        data = obj(defs.get(DATA))
        properties = obj(data.get("properties"))
        required = data.get("required")
        view[DATA] = {
            "type": data.get("type"),
            "properties": {k: v for k, v in properties.items() if k in NORMALIZATION_FIELDS},
            "required": [r for r in required if r in NORMALIZATION_FIELDS]
            if isinstance(required, list)
            else None,
            # the array around the tool's own items is toolc's too
            "results": {k: v for k, v in obj(properties.get("results")).items() if k != "items"},
        }
    return {k: normalize(v) for k, v in view.items()}


def first_difference(old: Any, new: Any, pointer: str = "") -> str | None:
    """The JSON pointer of the first place (in key order) where two JSON values differ."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in sorted(set(old) | set(new)):
            if key not in old or key not in new:
                return f"{pointer}/{escape(key)}"
            found = first_difference(old[key], new[key], f"{pointer}/{escape(key)}")
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = first_difference(a, b, f"{pointer}/{i}")
            if found is not None:
                return found
        return None
    return None if old == new and type(old) is type(new) else pointer
