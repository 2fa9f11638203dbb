"""The package's typed client, `client.py`: one class per `mcp_server`, one method per tool,
`await tools.cancelar_pedidos(order_ids=[...]) -> Envelope[CancelarPedidosData]`, each
argument a typed keyword (from the tool's `<Tool>Args` model). The mechanics (local
validation, confirmation, tolerant parsing) are `client_runtime.ToolClient`'s.

A tool's method is made with its models (`ClientPiece`, kept in the build cache) and the
module is assembled from the pieces, so an incremental build makes the same file."""

from __future__ import annotations

import json
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from toolc.emit.pyexpr import LINE_LENGTH, Expr, call, literal, names_in, one_line, render, sub
from toolc.emit.pyfile import write
from toolc.emit.pyimports import (
    FUTURE,
    HELPERS,
    PYDANTIC,
    TYPING,
    Groups,
    import_line,
    isort_key,
    natural_key,
)
from toolc.emit.pylines import annotated, class_header
from toolc.emit.pyliterals import docblock, py_str
from toolc.emit.pymodel import NOT_DECLARED, PyField, PyModel
from toolc.emit.pywidth import width
from toolc.emit.serving import Serving, def_line, def_tail, served_tools
from toolc.model.naming import pascal, snake

# `ToolClient`'s own attributes (tests/test_client_generated.py keeps this list complete): a
# tool named like one gets its method name with a trailing underscore.
CLIENT_ATTRIBUTES = frozenset(
    {"TOOLS", "bind", "call", "confirm", "connect", "elicitation_callback",
     "missing_arguments", "session", "tools"}
)  # fmt: skip


def method_name(tool: str) -> str:
    method = snake(tool)
    return method + "_" if method in CLIENT_ATTRIBUTES or method.startswith("_") else method


class ClientPiece(msgspec.Struct, frozen=True):
    """One tool's method (each part laid out), and every name its annotations use."""

    signature: str  # `async def <tool>(...) -> Envelope[<Tool>Data]:`
    doc: str  # its docstring, or ""
    call: str  # its body: `return await self.call(...)`
    names: frozenset[str]
    imports: str = ""  # its import line (set once the tool module's own names are known)
    imported: frozenset[str] = frozenset()  # the names that line brings into client.py


class ClientClass(msgspec.Struct, frozen=True):
    """`class <Server>Client(ToolClient)`: the methods of one mcp_server's tools."""

    name: str
    server: str
    methods: tuple[ClientPiece, ...]

    @property
    def header(self) -> str:
        return class_header(self.name, "ToolClient")


def _param(f: PyField) -> tuple[str, str]:
    """The parameter in one line, and laid out as black would on a line of its own."""
    # An optional argument that does not accept null is typed `X | None` in the model (None
    # meaning "not given") with a validator refusing an explicit null; here it is `X`.
    annotation = f.type.base if f.type.refuses_null else f.type.annotation()
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


# What every method takes after the tool's arguments, as `ToolClient.call` names it: a
# caller's own idempotency key (a retry of the same order, decision 0087) and a timeout.
CALL_OPTIONS = (("read_timeout_seconds", "float"), ("idempotency_key", "str"))


def _options(fields: list[PyField]) -> list[tuple[str, str, str]]:
    """Each call option's keyword in `call`, its parameter's name and its type: the keyword,
    with trailing underscores while an argument of the tool has that name."""
    taken = {f.name for f in fields}
    named = []
    for keyword, kind in CALL_OPTIONS:
        parameter = keyword
        while parameter in taken:
            parameter += "_"
        named.append((keyword, parameter, kind))
    return named


def _option_param(parameter: str, kind: str) -> tuple[str, str]:
    flat = f"{parameter}: {kind} | None = None"
    return flat, annotated(8, parameter, [kind, "None"], "None", end=",", parameter=True)


def _signature(tool: str, me: str, params: list[tuple[str, str]], returns: Expr) -> str:
    head = f"async def {method_name(tool)}"
    flat = [me, *(["*"] if params else []), *(one for one, _ in params)]
    line = def_line("    ", head, flat, returns)
    # No argument: nothing more to split (a lone `*` would not even parse).
    if not params or all(width(x) <= LINE_LENGTH for x in line.split("\n")):
        return line
    laid = "".join(f"{full}\n" for _, full in params)
    return f"    {head}(\n        {me},\n        *,\n{laid}{def_tail('    ', returns)}"


def _body(tool: str, me: str, fields: list[PyField]) -> str:
    given = call("_given", *(literal("(", [py_str(f.alias or f.name), f.name]) for f in fields))
    options = [(keyword, parameter) for keyword, parameter, _ in _options(fields)]
    sent = call(f"{me}.call", py_str(tool), given, kwargs=options)
    # One line, else one argument a line with a trailing comma (which keeps black from
    # joining them again)
    return "        return await " + render(sent, 8, lead=width("return await "))


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
    returns = sub("Envelope", f"{p}Data")
    params = [_param(f) for f in args.fields]
    params += [_option_param(parameter, kind) for _, parameter, kind in _options(args.fields)]
    signature = _signature(tool, me, params, returns)
    text = docblock(method_doc(doc, args.fields), "        ")
    names = {n for f in args.fields for n in names_in(f.type.annotation())} | {f"{p}Data"}
    return ClientPiece(signature, text, _body(tool, me, args.fields), frozenset(names))


def _imports(
    used: set[str], tools: list[str], pieces: Mapping[str, ClientPiece], shared: frozenset[str]
) -> Groups:
    pydantic = [n for n in PYDANTIC if n in used]
    helpers = [n for n in HELPERS if n in used]
    local = [import_line("._jsonschema", helpers)] if helpers else []
    local += [
        import_line(".client_runtime", ["Envelope", "ToolClient"]),
        import_line(".registry", ["ALL_TOOLS"]),
        *([import_line(".shared", used & shared)] if used & shared else []),
        *(
            pieces[tool].imports
            for tool in sorted(tools, key=lambda n: natural_key(snake(n)))
            if pieces[tool].imports
        ),
    ]
    return (
        (FUTURE,),
        ("import enum", import_line("typing", {"Any", *(n for n in TYPING if n in used)})),
        *([(import_line("pydantic", pydantic),)] if pydantic else []),
        tuple(local),
    )


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
    serving: Mapping[str, Serving],
    pieces: Mapping[str, ClientPiece],
    shared: frozenset[str],
) -> bytes:
    """`shared`: the shared types' class names."""
    servers = served_tools(serving)
    tools = [t for names in servers.values() for t in names]
    _no_clashes(sorted(tools, key=lambda n: natural_key(snake(n))), pieces)
    used = {n for t in tools for n in pieces[t].names}
    classes = [
        ClientClass(f"{pascal(server)}Client", server, tuple(pieces[t] for t in names))
        for server, names in servers.items()
    ]
    return write("client.py.j2", imports=_imports(used, tools, pieces, shared), classes=classes)
