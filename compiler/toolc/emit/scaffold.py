"""`toolc scaffold`: a starter implementation of one server's handlers, written once beside the
generated package and then the user's own (toolc never overwrites it)."""

from __future__ import annotations

from collections.abc import Mapping

from toolc.emit.pyexpr import call, render
from toolc.emit.pyliterals import docblock, docstring, py_str
from toolc.emit.pymodules import import_line, natural_key
from toolc.emit.serving import Serving, def_line, handlers_class
from toolc.model.naming import pascal, snake


def scaffold_module(package: str, server: str, serving: Mapping[str, Serving]) -> bytes:
    names = sorted(
        (n for n, s in serving.items() if s.enabled and s.server == server),
        key=lambda n: natural_key(snake(n)),
    )
    imports = [
        import_line(
            f"{package}.handlers", {handlers_class(server)} | {f"{pascal(n)}Result" for n in names}
        ),
        import_line(f"{package}.server", ["main"]),
        import_line(f"{package}.server_runtime", ["ToolContext"]),
        *(import_line(f"{package}.tools.{snake(n)}", [f"{pascal(n)}Args"]) for n in names),
    ]
    methods = []
    for name in names:
        p = pascal(name)
        params = ["self", f"args: {p}Args", "ctx: ToolContext"]
        head = def_line("    ", f"async def {snake(name)}", params, f"{p}Result")
        todo = py_str(f"{name}: not implemented yet")
        methods.append(
            head
            + "\n"
            + docblock(serving[name].doc, "        ")
            + f"        raise NotImplementedError({todo})"
        )
    doc = docstring(
        f"The `{server}` MCP server: fill in each handler, then run this file\n"
        f"(`python {server}_server.py`, or `--http` for Streamable HTTP).\n\n"
        "Written once by `toolc scaffold`; toolc never overwrites it. Raise\n"
        "`ToolFailure(code, message)` from `server_runtime` for a declared error.",
        "",
    )
    cls = handlers_class(server)
    body = "\n\n".join(methods)
    text = (
        f"{doc}\n\nfrom __future__ import annotations\n\n"
        + "\n".join(imports)
        + f"\n\n\nclass Handlers:\n{docstring(f'The tools of `{server}` ({cls}).', '    ')}"
        + f"\n\n{body}\n\n\n"
        + "def serve() -> None:\n"
        + f"    handlers: {cls} = Handlers()  # mypy proves the protocol is implemented\n"
        + f"    {render(call('main', 'handlers', kwargs=[('server', py_str(server))]), 4)}\n\n\n"
        + 'if __name__ == "__main__":\n    serve()\n'
    )
    return text.encode()
