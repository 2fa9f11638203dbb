"""The package's serving side: `handlers.py` (one typed Protocol per `mcp_server`), `server.py`
(`create_server`, `main`) and the server runtime copied verbatim from `toolc/runtime/`.

Everything here is read from what each tool contributed (`Serving`, kept in the build cache
with the rest of a tool's output), never from the whole project, so the incremental build
makes the same files as a full one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from toolc.contract.semver import Version
from toolc.emit.pyexpr import LINE_LENGTH, Expr, one_line, render, sub, union
from toolc.emit.pyexpr import name as expr_name
from toolc.emit.pyfile import HEADER, write
from toolc.emit.pyimports import FUTURE, import_line, natural_key
from toolc.emit.pylines import annotated, class_header
from toolc.emit.pyliterals import docblock, py_str
from toolc.emit.pymodel import PyAlias
from toolc.emit.pymodules import alias_def
from toolc.emit.pywidth import width
from toolc.model import ToolDecl
from toolc.model.naming import pascal, snake

RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"
# Copied verbatim (after the header): the logic that is the same for every config.
RUNTIME_GLOBS = ("server_*.py", "client_*.py")

# "proxied": forwarded to its origin (decision 0084), so no handler method.
Kind = Literal["plain", "multi", "workflow", "proxied"]


class Serving(msgspec.Struct, frozen=True):
    """What `handlers.py` and `server.py` need from one tool (its pieces of handlers.py made
    once, with the tool, so a rebuild assembles the file without re-rendering every tool)."""

    server: str
    enabled: bool
    version: str
    kind: Kind
    doc: str
    alias: str  # its `<Tool>Result` alias
    imports: str  # its import line
    signature: str  # its method's `async def` in the server's Protocol
    docstring: str  # that method's docstring, or "" (then the signature ends with ` ...`)
    args_class: str  # what its handler receives: `<Tool>Args`, or `<Tool>Resolved`
    metrics: bool = False  # its server records metrics by default (`servers:`)


def serving_of(tool: ToolDecl) -> Serving:
    multi = tool.decl.multi_item
    kind: Kind = "plain" if multi is None else "workflow" if multi.workflow else "multi"
    if tool.decl.proxy is not None:
        kind = "proxied"
    name = tool.name
    alias, names = _result_alias(name, kind)
    # A tool whose callers send another form gets what its pre-validator resolved.
    args = f"{pascal(name)}Resolved" if tool.accepts else f"{pascal(name)}Args"
    imports = import_line(f".tools.{snake(name)}", {args, *names})
    signature, docstring = _method(name, tool.decl.description, args)
    return Serving(
        tool.decl.mcp_server, tool.enabled, tool.decl.version, kind, tool.decl.description,
        alias, imports, signature, docstring, args, tool.metrics,
    )  # fmt: skip


def runtime_files() -> dict[str, bytes]:
    files = {}
    for pattern in RUNTIME_GLOBS:
        for path in sorted(RUNTIME_DIR.glob(pattern)):
            files[path.name] = (HEADER + "\n" + path.read_text(encoding="utf-8")).encode()
    return files


def _result_alias(name: str, kind: Kind) -> tuple[str, set[str]]:
    """`<Tool>Result: TypeAlias = ...`: what the handler may return (the runtime normalizes a
    multi-item answer itself, so those return `Items` of the item model, not `<Tool>Data`),
    laid out as the models' aliases are."""
    p = pascal(name)
    if kind == "plain":
        one: Expr = expr_name(f"{p}Data")
        names = {f"{p}Data"}
    else:
        one = sub("Items", f"{p}Item")
        names = {f"{p}Item"}
    members = [one, sub("Reply", one)]
    if kind == "workflow":  # or the workflow's own output, read at `output[<tool>]`
        mapping = sub("Mapping", "str", "Any")
        members = [mapping, *members, sub("Reply", mapping)]
    return alias_def(PyAlias(f"{p}Result", None, union(*members))).statement, names


Param = str | tuple[str, Expr]  # a parameter, or its name and a hint black may split


def def_line(
    indent: str, head: str, params: Sequence[Param], returns: Expr | str, body: str = ""
) -> str:
    """`{head}(params) -> returns:` as black lays it out: one line, or the parameters on one
    line of their own, or one per line (`body`: what follows the colon on the same line,
    such as an overload's ` ...`, which counts towards the line's length)."""
    flat = [x if isinstance(x, str) else f"{x[0]}: {one_line(x[1])}" for x in params]
    joined = ", ".join(flat)
    one = f"{indent}{head}({joined}) -> {one_line(returns)}:{body}"
    if width(one) <= LINE_LENGTH:
        return one
    inner = indent + "    "
    if len(params) > 1 and width(inner + joined) <= LINE_LENGTH:
        return f"{indent}{head}(\n{inner}{joined}\n{def_tail(indent, returns, body)}"
    # one per line with a trailing comma (black adds one to a lone parameter); a hint too
    # wide for its line split at its brackets (a server's name in `Literal[...]`)
    lines = "".join(
        f"{inner}{x},\n"
        if isinstance(x, str)
        else annotated(len(inner), x[0], x[1], end=",", parameter=True) + "\n"
        for x in params
    )
    return f"{indent}{head}(\n{lines}{def_tail(indent, returns, body)}"


def def_tail(indent: str, returns: Expr | str, body: str = "") -> str:
    """`) -> returns:` closing a definition's parameters; a subscript too wide for the line
    split at its brackets, as black splits it."""
    line = f"{indent}) -> {one_line(returns)}:{body}"
    if width(line) <= LINE_LENGTH or isinstance(returns, str):
        return line
    return f"{indent}) -> " + render(returns, len(indent), ":" + body, lead=len(") -> "))


def _method(name: str, doc: str, args: str) -> tuple[str, str]:
    """The method's signature and docstring."""
    p = pascal(name)
    params = ["self", f"args: {args}", "ctx: ToolContext"]
    head = f"async def {snake(name)}"
    text = docblock(doc, "        ")
    if not text:  # black puts a body of `...` alone on the def's line
        return def_line("    ", head, params, f"{p}Result", " ..."), ""
    return def_line("    ", head, params, f"{p}Result"), text


def served_tools(per_tool: Mapping[str, Serving]) -> dict[str, list[str]]:
    """Each mcp_server (sorted) and its enabled tools, in module order."""
    servers: dict[str, list[str]] = {}
    for name in sorted(per_tool, key=lambda n: natural_key(snake(n))):
        if per_tool[name].enabled:
            servers.setdefault(per_tool[name].server, []).append(name)
    return dict(sorted(servers.items()))


class Protocol(msgspec.Struct, frozen=True):
    """`class <Server>Handlers(Protocol)`: one method per tool the server serves."""

    name: str
    server: str
    methods: tuple[Serving, ...]

    @property
    def header(self) -> str:
        return class_header(self.name, "Protocol")


def handlers_module(per_tool: Mapping[str, Serving]) -> bytes:
    servers = {
        server: [n for n in names if per_tool[n].kind != "proxied"]
        for server, names in served_tools(per_tool).items()
    }
    tools = [n for names in servers.values() for n in names]
    ordered = sorted(tools, key=lambda n: natural_key(snake(n)))
    typing = {"Protocol", "TypeAlias"}
    if any(per_tool[n].kind == "workflow" for n in tools):
        typing.add("Any")
    std = ["from collections.abc import Mapping"] if "Any" in typing else []
    uses_items = any(per_tool[n].kind in ("multi", "workflow") for n in tools)
    runtime = import_line(
        ".server_runtime", {"Reply", "ToolContext", *(["Items"] if uses_items else [])}
    )
    imports: tuple[tuple[str, ...], ...] = (
        (FUTURE,),
        (*std, import_line("typing", typing)),
        (runtime, *(per_tool[n].imports for n in ordered)),
    )
    if not tools:  # every served tool is proxied: empty Protocols, nothing to import
        imports = ((FUTURE,), (import_line("typing", {"Protocol"}),))
    protocols = [
        Protocol(handlers_class(server), server, tuple(per_tool[n] for n in served))
        for server, served in servers.items()
    ]
    aliases = [per_tool[n].alias for n in ordered]
    text = write("handlers.py.j2", imports=imports, aliases=aliases, protocols=protocols)
    # The template's blank line before the aliases: without aliases, one too many.
    return text if aliases else text.replace(b"\n\n\n\nclass ", b"\n\n\nclass ")


def handlers_class(server: str) -> str:
    return pascal(server) + "Handlers"


def server_version(per_tool: Mapping[str, Serving], names: list[str]) -> str:
    """The highest version among the server's tools: it changes whenever what it serves does."""
    return str(max(Version.parse(per_tool[n].version) for n in names))


def _union(classes: list[str]) -> str:
    union = " | ".join(classes)
    return union if len(union) <= 60 else "Any"  # beyond that, a line of its own would not fit


# create_server's keyword parameters (server_runtime.build_server's hooks).
_HOOKS = ["*", "metrics: bool | None = None", "observer: Observer | None = None",
          "audit: AuditHook | None = None"]  # fmt: skip


# What a server offers besides its tools (server_extensions; decision 0093). Named through the
# module so that a shared type called `Resource` or `Prompt` stays the user's to take.
_EXTENSIONS = [
    "resources: Sequence[server_runtime.Resource] = ()",
    "resource_templates: Sequence[server_runtime.ResourceTemplate] = ()",
    "prompts: Sequence[server_runtime.Prompt] = ()",
    "complete: server_runtime.Completer | None = None",
]


def server_values(per_tool: Mapping[str, Serving]) -> dict[str, object]:
    servers = served_tools(per_tool)
    classes = [handlers_class(s) for s in servers]
    versions = [(py_str(s), py_str(server_version(per_tool, n))) for s, n in servers.items()]
    literal = render(sub("Literal", *(py_str(s) for s in servers)), 0, lead=len("ServerName = "))
    first = next(iter(servers), "")
    single = [
        f"handlers: {handlers_class(first)}", f"server: ServerName = {py_str(first)}", *_HOOKS
    ]  # fmt: skip
    metrics = [(py_str(s), str(any(per_tool[t].metrics for t in n))) for s, n in servers.items()]
    # What several worker processes share (decision 0089): run-time values, never config.
    shared = [
        "request_state_key: bytes | str | None = None",
        "request_state_store: SingleUseStore | None = None",
        *_EXTENSIONS,
    ]
    keywords = [*_HOOKS, *shared]
    return {
        "create_single": def_line("", "def create_server", [*single, *shared], "Server[Any]"),
        "create_many": def_line(
            "",
            "def create_server",
            ["handlers: Any", "server: ServerName", *keywords],
            "Server[Any]",
        ),
        "servers": list(servers),
        "overloads": [
            def_line(
                "",
                "def create_server",
                [
                    f"handlers: {handlers_class(s)}",
                    ("server", sub("Literal", py_str(s))),
                    *keywords,
                ],
                "Server[Any]",
                " ...",
            )
            for s in servers
        ],
        "server_literal": literal,
        "versions": versions,
        "metrics": metrics,
        "handler_import": import_line(".handlers", classes, indent="    "),
        "main_def": def_line(
            "",
            "def main",
            [
                f"handlers: {_union(classes)}",
                "argv: Sequence[str] | None = None",
                "*",
                "server: ServerName | None = None",
            ],
            "None",
        ),
    }
