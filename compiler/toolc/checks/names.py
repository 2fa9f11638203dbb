"""Names that generated code turns into identifiers must stay distinct once turned."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, Note, Span, diag
from toolc.model import Project
from toolc.model.naming import pascal, snake


def _collisions(
    names: Iterable[str],
    forms: tuple[Callable[[str], str], ...],
    span: Callable[[str], Span],
    what: str,
) -> Iterator[Diagnostic]:
    seen: dict[str, str] = {}
    for name in names:
        for form in forms:
            ident = form(name)
            other = seen.get(form.__name__ + ":" + ident)
            if other is not None and other != name:
                yield diag(
                    "identifier-collision",
                    span(name),
                    f"{what} '{name}' and '{other}' both become the Python identifier '{ident}'",
                    f"rename '{name}'",
                    (Note(span(other), f"'{other}' is here"),),
                )
                break
            seen[form.__name__ + ":" + ident] = name


def _arg_span(project: Project, tool: str) -> Callable[[str], Span]:
    return lambda arg: project.spans.tool(("tools", tool, "args_schema", arg), key=True)


def identifiers(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    yield from _collisions(
        project.tools,
        (snake, pascal),
        lambda n: project.spans.tool(("tools", n), key=True),
        "tools",
    )
    for name, tool in project.tools.items():
        yield from _collisions(tool.args, (snake,), _arg_span(project, name), "arguments")
    yield from _collisions(
        project.types, (pascal,), lambda n: project.spans.tool(("types", n), key=True), "types"
    )


# Names every generated package defines or imports at module level: a shared type or a tool may
# not produce one of them.
PACKAGE_NAMES = frozenset({
    "ENVELOPE_VERSION", "FRAMEWORK_ERROR_CODES", "Envelope", "Err", "ErrorInfo",
    "FrameworkErrorCode", "Meta", "Ok", "DataT", "ALL_TOOLS", "TOOLS", "ErrorSpec",
    "PreValidation", "Proxy", "ToolSpec", "ToolsByName", "Any", "Annotated", "Literal", "Optional",
    "Union", "TypeAlias", "BaseModel", "BeforeValidator", "ConfigDict", "Field", "JsonInt",
    "PlainValidator", "WireModel", "TypeAdapter", "ArgsT", "Generic", "TypeVar", "TypedDict",
    "TYPE_CHECKING", "Mapping", "MappingProxyType", "Sequence", "Protocol", "Items", "Reply",
    "Image", "ToolContext", "ToolFailure", "Server", "ServerName", "VERSIONS", "ToolClient",
    "Unset", "UNSET", "METRICS", "Observer", "AuditHook", "SingleUseStore", "AfterValidator",
    "WrapSerializer", "WrapValidator", "CheckedModel", "ExtrasModel", "CheckedExtrasModel",
})  # fmt: skip

TOOL_SUFFIXES = ("Args", "Data", "Item", "ErrorCode")


def generated_names(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Class names derived from tools and types must not meet each other or the package's own."""
    project = ctx.project
    owners: dict[str, str] = {}
    for name, tool in project.tools.items():
        # `<Tool>Resolved`, the handler's model of a tool whose callers send another form
        for suffix in (*TOOL_SUFFIXES, "Resolved") if tool.accepts else TOOL_SUFFIXES:
            derived = pascal(name) + suffix
            if derived in PACKAGE_NAMES:
                yield diag(
                    "identifier-collision",
                    project.spans.tool(("tools", name), key=True),
                    f"tool '{name}' would define '{derived}', a name the generated package "
                    "already uses",
                    f"rename '{name}'",
                )
            owners[derived] = f"tool '{name}'"
    for name in project.types:
        cls = pascal(name)
        other = "the generated package" if cls in PACKAGE_NAMES else owners.get(cls)
        if other is not None:
            yield diag(
                "identifier-collision",
                project.spans.tool(("types", name), key=True),
                f"type '{name}' becomes the class '{cls}', a name {other} already defines",
                f"rename '{name}'",
            )


def _first_tools(project: Project, served: bool) -> dict[str, str]:
    """Each `mcp_server` → the first tool that names it (with `served`, the first enabled
    one): where a finding about the server is placed."""
    first: dict[str, str] = {}
    for name, tool in project.tools.items():
        if tool.knows("mcp_server") and (not served or (tool.enabled and tool.knows("enabled"))):
            first.setdefault(tool.decl.mcp_server, name)
    return first


def server_names(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Each served `mcp_server` becomes the classes `<Server>Client` and `<Server>Handlers`:
    two servers must not share them, nor take a name the package already has."""
    project = ctx.project
    first = _first_tools(project, served=True)

    def span(server: str) -> Span:
        return project.spans.tool(("tools", first[server], "mcp_server"))

    yield from _collisions(first, (pascal,), span, "mcp_server")
    taken = {"ToolClient", *PACKAGE_NAMES, *(pascal(t) for t in project.types)}
    for server in first:
        for cls in (pascal(server) + "Client", pascal(server) + "Handlers"):
            if cls in taken:
                yield diag(
                    "identifier-collision",
                    span(server),
                    f"mcp_server '{server}' would define '{cls}', a name the generated package "
                    "already uses",
                    f"rename the mcp_server '{server}'",
                )


def hidden_servers(ctx: CheckContext) -> Iterator[Diagnostic]:
    """An mcp_server's name names files (its reference page, its scaffold): not a hidden
    one. Reported once per name, at the first tool that gives it."""
    project = ctx.project
    for server, name in _first_tools(project, served=False).items():
        if not server.startswith("."):
            continue
        yield diag(
            "mcp-server-name-hidden",
            project.spans.tool(("tools", name, "mcp_server")),
            f"mcp_server '{server}' starts with a dot: its reference page '{server}.md' "
            "would be a hidden file",
            f"rename the mcp_server '{server}' to start with a letter, a digit, '_' or '-'",
        )


CHECKS = (identifiers, generated_names, server_names, hidden_servers)
