"""The whole generated package, in memory: `{relative path: bytes}` plus the snapshot entries."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from msgspec import field
from msgspec.structs import replace

from toolc.contract.snapshot import Entry, contract_fingerprint, schema_fingerprint
from toolc.emit.descriptors import contract, descriptor
from toolc.emit.pychecks import patterns
from toolc.emit.pyjson import pretty_json
from toolc.emit.python import (
    ToolPython,
    accepting_null,
    module_file,
    python_files,
    tool_python,
)
from toolc.emit.schemas import (
    ANY_RESULT,
    handler_input_schema,
    published_types,
    validator_targets,
)
from toolc.memory import release_free_memory
from toolc.model import Project, ToolDecl
from toolc.model.naming import pascal


class PackageOutput(msgspec.Struct, frozen=True):
    files: dict[str, bytes]
    snapshot: dict[str, Entry]
    # Each served tool's descriptor inside tools.json (offset, length): the build cache keeps
    # tools.json once rather than every item beside it.
    item_spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    # The digests of the tools' own files, made as they were emitted (the manifest hashes
    # only the others).
    digests: dict[str, str] = field(default_factory=dict)


def _tools_json_item(published: dict[str, Any]) -> bytes:
    """One descriptor as it stands inside `{"tools": [...]}`: pretty-printed, indented twice."""
    return b"\n".join(b"    " + line for line in pretty_json(published).rstrip(b"\n").split(b"\n"))


_HEAD, _SEP, _TAIL = b'{\n  "tools": [\n', b",\n", b"\n  ]\n}\n"


def _tools_json(items: list[tuple[str, bytes]]) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """`{"tools": [...]}` from descriptors printed one by one (the same bytes as printing the
    whole list at once), and where each tool's item lies in it."""
    if not items:
        return pretty_json({"tools": []}), {}
    spans: dict[str, tuple[int, int]] = {}
    at = len(_HEAD)
    parts = [_HEAD]
    for i, (name, item) in enumerate(items):
        if i:
            parts.append(_SEP)
            at += len(_SEP)
        parts.append(item)
        spans[name] = (at, len(item))
        at += len(item)
    parts.append(_TAIL)
    # One join, no concatenation after it: at 5,000 tools the file is 37 MB.
    return b"".join(parts), spans


class ToolOutput(msgspec.Struct, frozen=True):
    """Everything one tool contributes to the package: what the incremental build keeps."""

    files: dict[str, bytes]  # its schema and contract files
    item: bytes | None  # its entry in tools.json, when it is served
    entry: Entry  # its snapshot line
    python: ToolPython
    # The manifest's digest of each of its files and of its module, made with them: a
    # rebuild that keeps the tool does not hash its files again (decision 0123).
    digests: dict[str, str] = field(default_factory=dict)


class SharedInputs(msgspec.Struct, frozen=True):
    """What every tool's output is made with, computed once from the shared types."""

    types: dict[str, Any]  # each published type: a schema object, or `true`/`false`
    targets: dict[str, list[str]]
    nullable: frozenset[str]
    type_names: dict[str, str]
    portable: bool = False  # `publish: portable`: inputSchemas inlined (decision 0075)


def shared_inputs(project: Project) -> SharedInputs:
    types = published_types(project)
    type_names = {t: pascal(t) for t in project.types}
    return SharedInputs(
        types, validator_targets(project), accepting_null(types), type_names,
        project.publish == "portable",
    )  # fmt: skip


def emit_tool(tool: ToolDecl, shared: SharedInputs) -> ToolOutput:
    # Everything a tool contributes is made here, so its descriptor can be dropped at once
    # (measured: holding 5,000 descriptors to the end was a third of the build's memory).
    name = tool.name
    # A proxied tool publishes the origin's schemas as declared, whatever the form (0075).
    portable = shared.portable and tool.decl.proxy is None
    published = descriptor(tool, shared.types, shared.targets.get(name, []), portable)
    if "outputSchema" not in published:  # a proxied tool whose origin declares none
        published = {**published, "outputSchema": ANY_RESULT}
    handler = handler_input_schema(tool, shared.types)
    document = contract(tool, published, handler)
    if published["outputSchema"] is ANY_RESULT:
        del document["tool"]["outputSchema"]
    files = {
        f"schemas/{name}.input.json": pretty_json(published["inputSchema"]),
        f"schemas/{name}.output.json": pretty_json(published["outputSchema"]),
        f"contracts/{name}.json": pretty_json(document),
    }
    entry = Entry(
        tool.decl.version,
        schema_fingerprint(published["inputSchema"]),
        contract_fingerprint(document),
        tool.enabled,
        tool.decl.mcp_server,
    )
    listed = {k: v for k, v in published.items() if v is not ANY_RESULT}
    item = _tools_json_item(listed) if tool.enabled else None
    python = tool_python(tool, published, shared.type_names, shared.nullable, handler)
    documents = [published["inputSchema"], published["outputSchema"]]
    if handler is not None:
        # The handler's form (`accepts`): `<Tool>Resolved` checks values against it here.
        files[f"schemas/{name}.handler.json"] = pretty_json(handler)
        documents.append(handler)
    # What the checks read beside the tool's schemas: only a tool whose models check values
    # needs its patterns' translations (walking every document for them was ~5% of emitting).
    if python.checked and (found := patterns(documents, {})):
        files[f"patterns/{name}.json"] = pretty_json(found)
    # The manifest's digest (workspace.manifest.digest; tests/test_build.py holds them equal).
    digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
    digests[module_file(name)] = hashlib.sha256(python.module).hexdigest()
    return ToolOutput(files, item, entry, python, digests)


def assemble(outputs: dict[str, ToolOutput], shared: SharedInputs) -> PackageOutput:
    """The package from each tool's output (fresh or kept from the last build). The items are
    taken out of `outputs` once tools.json holds them (it is the one copy kept: 37 MB at
    5,000 tools, held twice at the build's peak otherwise)."""
    files: dict[str, bytes] = {}
    digests: dict[str, str] = {}
    served: list[tuple[str, bytes]] = []
    for name in sorted(outputs):
        out = outputs[name]
        files.update(out.files)
        digests.update(out.digests)
        if out.item is not None:
            served.append((name, out.item))
    files["tools.json"], item_spans = _tools_json(served)
    del served
    for name in item_spans:
        outputs[name] = replace(outputs[name], item=None)
    release_free_memory()  # the items' pages, before the package modules take new ones
    per_tool = {name: out.python for name, out in outputs.items()}
    files.update(python_files(per_tool, shared.types, shared.type_names, shared.nullable))
    snapshot = {name: outputs[name].entry for name in sorted(outputs)}
    return PackageOutput(dict(sorted(files.items())), snapshot, item_spans, digests)
