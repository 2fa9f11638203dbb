"""The Python files of the generated package: models per tool, shared types, the envelope, the
registry, the package's `__init__`, and the JSON Schema helpers copied verbatim from toolc."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Any

import jsonschema_rs
import msgspec

from toolc.contract.framework import ENVELOPE_VERSION, FRAMEWORK_ERROR_CODES, success_data
from toolc.emit.client import ClientPiece, client_module, client_piece, with_imports
from toolc.emit.pychecks import patterns
from toolc.emit.pyexpr import render, sub
from toolc.emit.pyfile import HEADER, AliasDef, ClassDef, fragment, models_module, write
from toolc.emit.pyimports import (
    IMPORTABLE,
    import_line,
    imports,
    in_all_order,
    in_isort_order,
    natural_key,
)
from toolc.emit.pyjson import pretty_json
from toolc.emit.pyliterals import py_str
from toolc.emit.pymodel import PyAlias, PyModel, TypeExpr
from toolc.emit.pymodules import alias_def, class_def, literal_alias, used_by
from toolc.emit.pynames import ITEMS, Naming, Path
from toolc.emit.pyregistry import tool_entry
from toolc.emit.pytypes import Lowering
from toolc.emit.schemas import error_codes
from toolc.emit.serving import (
    Serving,
    handlers_module,
    runtime_files,
    server_values,
    serving_of,
)
from toolc.model import ToolDecl
from toolc.model.naming import pascal, snake
from toolc.model.schemas import NAMED, VALUES

RUNTIME = FilePath(__file__).resolve().parent.parent / "runtime" / "jsonschema_types.py"
EVALUATOR = RUNTIME.parent / "_jsonschema_eval.py"
COMPILED = RUNTIME.parent / "_jsonschema_compiled.py"  # the evaluator's closures
EXPLAINER = RUNTIME.parent / "_jsonschema_why.py"  # where a value fails, for the errors
CHECKER = RUNTIME.parent / "_jsonschema_checks.py"  # the checks against published schemas


def _lowered(
    lowering: Lowering, expr: TypeExpr, cls: str, doc: str | None
) -> list[ClassDef | AliasDef]:
    """The definitions a lowering produced, ending with `cls` itself (a model, or an alias
    when the schema is not an object)."""
    defined = {d.name for d in lowering.definitions}
    if cls not in defined:
        inline = expr.inline()
        if inline.head == "None" and inline.args is None and not inline.call:
            # A type that is null alone. A bare `None` alias would make `Name | None`, and
            # a union of two such names, `None | None`: a TypeError at import (make fuzz,
            # session 25). Annotated with a plain string (which pydantic ignores), it joins.
            inline = sub("Annotated", inline, py_str("null"))
            lowering.used.add("Annotated")
        lowering.definitions.append(PyAlias(cls, doc, inline))
    made = [class_def(d) if isinstance(d, PyModel) else alias_def(d) for d in lowering.definitions]
    lowering.definitions.clear()
    return made


def accepting_null(types: dict[str, Any]) -> frozenset[str]:
    """Shared types whose schema accepts null: an optional property of such a type may be
    null, so its field must not refuse it."""
    found = set()
    plain = _without_patterns(types)
    for name, schema in plain.items():
        if isinstance(schema, bool):  # `true` accepts null, `false` nothing
            accepts = schema
        else:
            accepts = jsonschema_rs.validator_for({**schema, "$defs": plain}).is_valid(None)
        if accepts:
            found.add(name)
    return frozenset(found)


def _without_patterns(node: Any) -> Any:
    """A schema without its patterns, which never decide about null (they apply to strings
    and to property names): jsonschema-rs would read them with its own regex dialect, which
    refuses some ECMA-262 patterns (`[^\\0]`)."""
    if isinstance(node, list):
        return [_without_patterns(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("pattern", "patternProperties"):
            continue
        if key in NAMED and isinstance(value, dict):  # names, not keywords
            out[key] = {name: _without_patterns(sub) for name, sub in value.items()}
        else:
            out[key] = value if key in VALUES else _without_patterns(value)
    return out


def tool_module(
    tool: ToolDecl,
    published: dict[str, Any],
    type_names: dict[str, str],
    nullable: frozenset[str] = frozenset(),
    handler: dict[str, Any] | None = None,
) -> tuple[bytes, list[str], ClientPiece, frozenset[str], bool]:
    """A tool's module, the public names it defines, its client method, every name it
    defines, and whether it checks values against its published schemas. `handler`: the
    arguments as the handler receives them, when callers send another form (`accepts`):
    typed by `<Tool>Resolved`, while `<Tool>Args` types the published inputSchema."""
    p = pascal(tool.name)
    args, data, item, resolved = f"{p}Args", f"{p}Data", f"{p}Item", f"{p}Resolved"
    multi = tool.decl.multi_item is not None
    defs = {
        **(handler or {}).get("$defs", {}),
        **published["inputSchema"].get("$defs", {}),
        **published["outputSchema"].get("$defs", {}),
    }
    lowering = Lowering(
        type_names,
        taken={*type_names.values(), *IMPORTABLE},
        nullable_types=nullable,
        type_schemas=defs,
    )
    blocks: list[ClassDef | AliasDef] = [literal_alias(f"{p}ErrorCode", error_codes(tool))]
    forbid = tool.decl.unknown_args == "forbid"
    lowering.read(published["inputSchema"], f"schemas/{tool.name}.input.json")
    expr = lowering.lower(
        published["inputSchema"], args, (), special=lambda path: args if path == () else None,
        doc=tool.decl.description, extra_default="forbid" if forbid else "ignore",
    )  # fmt: skip
    # Read before `_lowered` lays out and clears the definitions: the client's method is
    # typed by the same fields.
    args_model = next(d for d in lowering.definitions if isinstance(d, PyModel) and d.name == args)
    client = client_piece(tool.name, args_model, tool.decl.description)
    blocks += _lowered(lowering, expr, args, tool.decl.description)
    if handler is not None:
        doc = f"The arguments of `{tool.name}` as its pre-validator resolves them."
        lowering.read(handler, f"schemas/{tool.name}.handler.json")
        expr = lowering.lower(
            handler, resolved, (), special=root_named(resolved), doc=doc,
            extra_default="forbid" if forbid else "ignore",
        )  # fmt: skip
        blocks += _lowered(lowering, expr, resolved, doc)

    def data_names(path: Path) -> str | None:
        if path == ():
            return data
        return item if multi and path == ("results", ITEMS) else None

    lowering.read(published["outputSchema"], f"schemas/{tool.name}.output.json")
    schema = published["outputSchema"]
    if tool.decl.proxy is None:  # a proxied tool's outputSchema is its data (decision 0084)
        schema = success_data(schema)  # in either published form (decision 0106)
    else:
        schema = {k: v for k, v in schema.items() if k != "$defs"}
        lowering.pointer_of[id(schema)] = ""  # the root: a check of its own reads it there
    expr = lowering.lower(schema, data, (), special=data_names, doc=f"What `{tool.name}` returns.")
    blocks += _lowered(lowering, expr, data, f"What `{tool.name}` returns.")
    if multi and not any(b.name == item for b in blocks):
        # The item is a shared type (a `$ref`): the tool's name for it is an alias.
        item_schema = schema["properties"]["results"]["items"]
        item_expr = lowering.lower(item_schema, item, (), special=root_named(item))
        blocks += _lowered(lowering, item_expr, item, f"One entry of `{tool.name}`'s results.")
    names = [f"{p}ErrorCode", args, data] + ([item] if multi else [])
    names += [resolved] if handler is not None else []
    local = {*names, *(b.name for b in blocks)}
    groups = imports(lowering.used | used_by(blocks), local, set(type_names.values()), "..")
    source = write(
        "tool_module.py.j2",
        tool=tool.name,
        version=tool.decl.version,
        module=models_module(groups, blocks),
    )
    checked = bool((lowering.used | used_by(blocks)) & CHECKS)
    return source, names, client, frozenset(local), checked


# What makes a module check values against the package's published schemas.
CHECKS = frozenset(
    {"CheckedExtrasModel", "CheckedModel", "conforms", "conforms_number", "conforms_sent"}
)


def root_named(cls: str) -> Naming:
    """Naming for a lowering whose root object is the class `cls`."""
    return lambda path: cls if path == () else None


def shared_module(
    type_names: dict[str, str], types: dict[str, Any], nullable: frozenset[str]
) -> tuple[bytes, bool]:
    """shared.py, and whether it checks values against the types' published schemas (then in
    `shared.json`)."""
    lowering = Lowering(type_names, taken=IMPORTABLE, nullable_types=nullable, type_schemas=types)
    lowering.read({"$defs": types}, "shared.json")
    blocks: list[ClassDef | AliasDef] = []
    for type_name in sorted(types):
        cls = type_names[type_name]
        schema = types[type_name]
        doc = schema.get("description") if isinstance(schema, dict) else None
        lowering.current_type = type_name
        expr = lowering.lower(schema, cls, (), special=root_named(cls), doc=doc)
        blocks += _lowered(lowering, expr, cls, doc)
    local = {b.name for b in blocks} | set(type_names.values())
    used = lowering.used | used_by(blocks)
    groups = imports(used, local, set(), ".")
    return write("shared.py.j2", module=models_module(groups, blocks)), bool(used & CHECKS)


class ToolPython(msgspec.Struct, frozen=True):
    """What the package's Python needs from one tool, kept once its descriptor is dropped."""

    module: bytes
    names: list[str]
    # Its key in registry.py (a Python string literal), and its whole `ToolSpec(...)` entry
    # there, made with the tool: a rebuild that keeps it joins the text as it is.
    registry_key: str
    registry_entry: str
    serving: Serving  # what handlers.py and server.py say about it
    client: ClientPiece  # its method and import line in client.py
    # Its lines in registry.py and __init__.py, made once with the tool (a rebuild of 1,000
    # tools otherwise re-sorts every tool's names).
    registry_import: str = ""
    init_import: str = ""
    checked: bool = False  # its models check values against its published schemas


def tool_python(
    tool: ToolDecl,
    published: dict[str, Any],
    type_names: dict[str, str],
    nullable: frozenset[str],
    handler: dict[str, Any] | None = None,
) -> ToolPython:
    source, names, client, defines, checked = tool_module(
        tool, published, type_names, nullable, handler
    )
    client = with_imports(tool.name, client, defines)
    module_name = f".tools.{snake(tool.name)}"
    entry = tool_entry(tool, published)
    return ToolPython(
        source,
        names,
        entry["name"],
        fragment("registry_entry.py.j2", e=entry).removesuffix("\n"),
        serving_of(tool),
        client,
        registry_import=import_line(module_name, names[1:3], "    "),
        init_import=import_line(module_name, names, "    "),
        checked=checked,
    )


def module_file(tool: str) -> str:
    """Where a tool's own module goes in the package."""
    return f"tools/{snake(tool)}.py"


def python_files(
    per_tool: dict[str, ToolPython],
    types: dict[str, Any],
    type_names: dict[str, str],
    nullable: frozenset[str],
) -> dict[str, bytes]:
    """The package-wide modules, from what each tool contributed (`tool_python`); the type
    names and the types that accept null are the ones the tool modules were made with."""
    shared, checked = shared_module(type_names, types, nullable)
    files: dict[str, bytes] = {
        "py.typed": b"",
        "_jsonschema.py": (HEADER + "\n" + RUNTIME.read_text(encoding="utf-8")).encode(),
        "_jsonschema_eval.py": (HEADER + "\n" + EVALUATOR.read_text(encoding="utf-8")).encode(),
        "_jsonschema_compiled.py": (HEADER + "\n" + COMPILED.read_text(encoding="utf-8")).encode(),
        "_jsonschema_why.py": (HEADER + "\n" + EXPLAINER.read_text(encoding="utf-8")).encode(),
        "_jsonschema_checks.py": (HEADER + "\n" + CHECKER.read_text(encoding="utf-8")).encode(),
        "shared.py": shared,
        "tools/__init__.py": write("tools_init.py.j2"),
    }
    if checked:  # what shared.py's checks read
        files["shared.json"] = pretty_json({"$defs": types})
        found = patterns(types, {})
        if found:
            files["shared.patterns.json"] = pretty_json(found)
    tool_imports: list[str] = []
    tool_names: dict[str, list[str]] = {}
    typed_entries: list[tuple[str, str, str]] = []  # name, args and data classes
    exports: list[str] = []
    for name in sorted(per_tool, key=lambda n: natural_key(snake(n))):
        generated = per_tool[name]
        names = generated.names
        tool_names[name] = names
        files[module_file(name)] = generated.module
        tool_imports.append(generated.registry_import)
        exports += names
        typed_entries.append((generated.registry_key, names[1], names[2]))
    exports += list(type_names.values())
    model_imports = []
    lazy: list[tuple[str, str]] = []
    if type_names:
        model_imports.append(import_line(".shared", type_names.values(), "    "))
        lazy += [(cls, ".shared") for cls in type_names.values()]
    for n, names in sorted(tool_names.items(), key=lambda kv: natural_key(snake(kv[0]))):
        model_imports.append(per_tool[n].init_import)
        lazy += [(cls, f".tools.{snake(n)}") for cls in names]
    files["envelope.py"] = write(
        "envelope.py.j2",
        envelope_version=ENVELOPE_VERSION,
        framework_codes=render(
            sub("Literal", *(py_str(c) for c in FRAMEWORK_ERROR_CODES)),
            0,
            lead=len("FrameworkErrorCode = "),
        ),
        framework_tuple=[py_str(c) for c in FRAMEWORK_ERROR_CODES],
    )
    serving = {name: generated.serving for name, generated in per_tool.items()}
    if any(s.enabled for s in serving.values()):
        files["handlers.py"] = handlers_module(serving)
        files["server.py"] = write("server.py.j2", **server_values(serving))
        files.update(runtime_files())
        files["client.py"] = client_module(
            serving,
            {name: generated.client for name, generated in per_tool.items()},
            frozenset(type_names.values()),
        )
    files["registry.py"] = write(
        "registry.py.j2",
        tool_imports=tool_imports,
        typed_entries=typed_entries,
        tool_entries=[per_tool[n].registry_entry for n in sorted(per_tool)],
    )
    public = in_all_order(frozenset({
        "ALL_TOOLS", "ENVELOPE_VERSION", "Envelope", "Err", "ErrorInfo", "ErrorSpec",
        "FRAMEWORK_ERROR_CODES", "FrameworkErrorCode", "Meta", "Ok", "PreValidation", "TOOLS",
        "ToolSpec", *exports,
    }))  # fmt: skip
    files["__init__.py"] = write(
        "package_init.py.j2",
        model_imports=model_imports,
        exports=public,
        lazy=in_isort_order(tuple(lazy)),
    )
    return files
