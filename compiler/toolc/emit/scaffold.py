"""`toolc scaffold`: a starter implementation of one server's handlers, written once beside the
generated package and then the user's own (toolc never overwrites it)."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolc.emit.pyexpr import call, render
from toolc.emit.pyfile import write
from toolc.emit.pyimports import import_line, natural_key
from toolc.emit.pyliterals import docblock, py_str
from toolc.emit.serving import Serving, def_line, handlers_class
from toolc.model.naming import pascal, snake


class Starter(msgspec.Struct, frozen=True):
    """One handler to fill in: its signature, docstring and `NotImplementedError` message."""

    signature: str
    doc: str
    todo: str


def _starter(name: str, doc: str, args: str) -> Starter:
    p = pascal(name)
    params = ["self", f"args: {args}", "ctx: ToolContext"]
    signature = def_line("    ", f"async def {snake(name)}", params, f"{p}Result")
    return Starter(signature, docblock(doc, "        "), py_str(f"{name}: not implemented yet"))


def scaffold_module(package: str, server: str, serving: Mapping[str, Serving]) -> bytes:
    names = sorted(
        # a proxied tool has no handler: its calls go to the origin
        (n for n, s in serving.items() if s.enabled and s.server == server and s.kind != "proxied"),
        key=lambda n: natural_key(snake(n)),
    )
    protocol = handlers_class(server)
    imports = [
        import_line(f"{package}.handlers", {protocol} | {f"{pascal(n)}Result" for n in names}),
        import_line(f"{package}.server", ["main"]),
        *([import_line(f"{package}.server_runtime", ["ToolContext"])] if names else []),
        *(import_line(f"{package}.tools.{snake(n)}", [serving[n].args_class]) for n in names),
    ]
    # The template writes no generated-code header: the file is the user's from the start.
    return write(
        "scaffold.py.j2",
        server=server,
        proxied_only=not names,  # every call goes to an origin: nothing to fill in
        protocol=protocol,
        imports=imports,
        methods=[_starter(n, serving[n].doc, serving[n].args_class) for n in names],
        # the protocol as a parameter: black leaves a long name there as it is
        serve_def=def_line("", "def serve", [f"handlers: {protocol}"], "None"),
        main_call=render(call("main", "handlers", kwargs=[("server", py_str(server))]), 4),
    )
