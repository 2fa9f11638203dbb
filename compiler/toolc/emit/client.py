"""The package's typed client, `client.py`: one class per `mcp_server`, one method per tool,
`await tools.cancelar_pedidos(order_ids=[...]) -> Envelope[CancelarPedidosData]`, each
argument a typed keyword (from the tool's `<Tool>Args` model). The mechanics (local
validation, confirmation, tolerant parsing) are `client_runtime.ToolClient`'s.

A tool's method is made with its models (`ClientPiece`, kept in the build cache) and the
module is assembled from the pieces, so an incremental build makes the same file."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace

from toolc.emit.pyexpr import LINE_LENGTH, Expr, call, literal, one_line, render
from toolc.emit.pylines import annotated
from toolc.emit.pyliterals import docblock, docstring, py_str
from toolc.emit.pymodel import NOT_DECLARED, PyField, PyModel
from toolc.emit.pymodules import (
    HELPERS,
    PYDANTIC,
    TYPING,
    import_line,
    isort_key,
    names_in,
    natural_key,
)
from toolc.emit.pywidth import width
from toolc.emit.serving import Serving, def_line, served_tools
from toolc.model.naming import pascal, snake

_DOC = '''"""Typed clients of the package's MCP servers: one method per tool, each argument a typed
keyword, each answer an `Envelope` (`Success` with typed `data`, or `Failure` with the
`error`). Arguments are validated here before anything is sent; the server's confirmation
question goes to the `confirm` callback given to `connect`.
"""'''

_COMMON = '''

class Unset(enum.Enum):
    """The value of an optional argument that was not given (and is not sent)."""

    UNSET = "UNSET"


UNSET = Unset.UNSET


def _given(*pairs: tuple[str, object]) -> dict[str, Any]:
    """The arguments given, by wire name."""
    return {name: value for name, value in pairs if value is not UNSET}
'''


# `ToolClient`'s own attributes (tests/test_client_generated.py keeps this list complete): a
# tool named like one gets its method name with a trailing underscore.
CLIENT_ATTRIBUTES = frozenset(
    {"TOOLS", "bind", "call", "confirm", "connect", "elicitation_callback",
     "missing_arguments", "session", "tools"}
)  # fmt: skip


def method_name(tool: str) -> str:
    method = snake(tool)
    return method + "_" if method in CLIENT_ATTRIBUTES or method.startswith("_") else method


@dataclass(frozen=True, slots=True)
class ClientPiece:
    """One tool's method, and every name its annotations use."""

    method: str
    names: frozenset[str]
    imports: str = ""  # its import line (set once the tool module's own names are known)
    imported: frozenset[str] = frozenset()  # the names that line brings into client.py


def _param(f: PyField) -> tuple[str, str]:
    """The parameter in one line, and laid out as black would on a line of its own."""
    # An optional argument that does not accept null is typed `X | None` in the model (None
    # meaning "not given") with a validator refusing an explicit null; here it is `X`.
    refuses_null = "reject_null" in f.type.validators
    annotation = f.type.base if refuses_null else f.type.annotation()
    if f.required:
        flat = f"{f.name}: {one_line(annotation)}"
        return flat, annotated(8, f.name, annotation, end=",", parameter=True)
    optional: list[Expr | str] = [annotation, "Unset"]
    flat = f"{f.name}: {one_line(annotation)} | Unset = UNSET"
    return flat, annotated(8, f.name, optional, "UNSET", end=",", parameter=True)


def _receiver(fields: list[PyField]) -> str:
    """`self`, unless an argument has that name (it is data, and keeps it)."""
    taken = {f.name for f in fields}
    return next(n for n in ("self", "this", "client", "self_", "this_") if n not in taken)


def _signature(tool: str, me: str, params: list[tuple[str, str]], returns: str) -> str:
    head = f"async def {method_name(tool)}"
    flat = [me, *(["*"] if params else []), *(one for one, _ in params)]
    line = def_line("    ", head, flat, returns)
    if all(width(x) <= LINE_LENGTH for x in line.split("\n")):
        return line
    laid = "".join(f"{full}\n" for _, full in params)
    return f"    {head}(\n        {me},\n        *,\n{laid}    ) -> {returns}:"


def _body(tool: str, me: str, fields: list[PyField]) -> str:
    given = call("_given", *(literal("(", [py_str(f.alias or f.name), f.name]) for f in fields))
    start = f"        return await {me}.call({py_str(tool)}, "
    one = render(given, 8, ")", lead=width(start) - 8)
    if "\n" not in one and width(start + one) <= LINE_LENGTH:
        return start + one
    return (
        f"        return await {me}.call(\n            {py_str(tool)},\n"
        f"            {render(given, 12, ',')}\n        )"
    )


def method_doc(doc: str, fields: list[PyField]) -> str:
    """The tool's description, then an `Args:` section (what an IDE shows on hover): each
    argument's description or title, and its declared default."""
    entries = []
    for f in fields:
        about = (f.description or f.title or "").strip()
        if f.declared is not NOT_DECLARED:
            shown = json.dumps(f.declared, ensure_ascii=False)
            about = f"{about} (default: {shown})" if about else f"Default: {shown}."
        if about:
            first, *rest = about.splitlines() or [""]
            entries.append(f"    {f.name}: {first}" + "".join(f"\n        {r}" for r in rest))
    if not entries:
        return doc
    return doc.rstrip() + "\n\nArgs:\n" + "\n".join(entries)


def client_piece(tool: str, args: PyModel, doc: str) -> ClientPiece:
    p = pascal(tool)
    me = _receiver(args.fields)
    signature = _signature(tool, me, [_param(f) for f in args.fields], f"Envelope[{p}Data]")
    text = docblock(method_doc(doc, args.fields), "        ")
    method = f"{signature}\n{text}{_body(tool, me, args.fields)}"
    names = {n for f in args.fields for n in names_in(f.type.annotation())} | {f"{p}Data"}
    names.discard("None")
    return ClientPiece(method, frozenset(names))


def _imports(
    used: set[str], tools: list[str], pieces: Mapping[str, ClientPiece], shared: frozenset[str]
) -> list[str]:
    lines = ["from __future__ import annotations", "", "import enum"]
    lines.append(import_line("typing", sorted({"Any", *(n for n in TYPING if n in used)})))
    pydantic = [n for n in PYDANTIC if n in used]
    if pydantic:
        lines += ["", import_line("pydantic", pydantic)]
    lines.append("")
    helpers = [n for n in HELPERS if n in used]
    if helpers:
        lines.append(import_line("._jsonschema", helpers))
    lines.append(import_line(".client_runtime", ["Envelope", "ToolClient"]))
    lines.append(import_line(".registry", ["ALL_TOOLS"]))
    if used & shared:
        lines.append(import_line(".shared", used & shared))
    for tool in sorted(tools, key=lambda n: natural_key(snake(n))):
        if pieces[tool].imports:
            lines.append(pieces[tool].imports)
    return lines


def with_imports(tool: str, piece: ClientPiece, local: frozenset[str]) -> ClientPiece:
    """The piece with its import line, from what the tool's module defines."""
    mine = sorted(piece.names & local, key=isort_key)
    line = import_line(f".tools.{snake(tool)}", mine) if mine else ""
    return replace(piece, imports=line, imported=frozenset(mine))


class NameClash(Exception):
    """Two tools' modules define a class of the same name that client.py needs from both."""

    def __init__(self, name: str, first: str, second: str) -> None:
        super().__init__(f"{name}: defined for both {first!r} and {second!r}")
        self.name, self.first, self.second = name, first, second


# What client.py defines or imports itself: no tool's class may come in under one of these.
_CLIENT_OWN = frozenset({"Any", "Envelope", "ToolClient", "ALL_TOOLS", "Unset", "UNSET", "enum"})


def _no_clashes(tools: list[str], pieces: Mapping[str, ClientPiece]) -> None:
    owner: dict[str, str] = dict.fromkeys(_CLIENT_OWN, "the client module")
    for tool in tools:
        for name in sorted(pieces[tool].imported):
            first = owner.setdefault(name, tool)
            if first != tool:
                raise NameClash(name, first, tool)


def client_module(
    header: str,
    serving: Mapping[str, Serving],
    pieces: Mapping[str, ClientPiece],
    shared: frozenset[str],
) -> bytes:
    """`shared`: the shared types' class names."""
    servers = served_tools(serving)
    tools = [t for names in servers.values() for t in names]
    _no_clashes(sorted(tools, key=lambda n: natural_key(snake(n))), pieces)
    used = {n for t in tools for n in pieces[t].names}
    classes = []
    for server, names in servers.items():
        methods = "\n\n".join(pieces[t].method for t in names)
        doc = docstring(
            f"The tools of the MCP server `{server}`.\n\n"
            f"`async with {pascal(server)}Client.connect(params, confirm=ask) as tools:`",
            "    ",
        )
        body = f"{doc}\n\n    TOOLS = ALL_TOOLS\n\n{methods}\n"
        classes.append(f"class {pascal(server)}Client(ToolClient):\n{body}")
    imports = "\n".join(_imports(used, tools, pieces, shared))
    text = f"{header}\n{_DOC}\n\n{imports}\n{_COMMON}\n\n" + "\n\n".join(classes)
    return text.encode()
