"""The commands that run or start a server: `toolc serve --mock` and `toolc scaffold`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolc.cli.common import (
    EXIT_ERRORS,
    config_dir_argument,
    env_token,
    out_option,
    report,
    resolved,
    served_by,
    settings_for,
)

server_option = click.option(
    "--server", "server_name", default=None, metavar="NAME",
    help="The mcp_server to serve (needed when the config declares several).",
)  # fmt: skip


def _pick_server(servers: list[str], wanted: str | None) -> str:
    if wanted is not None:
        return served_by(servers, wanted)
    if len(servers) != 1:
        raise click.UsageError(
            "the config declares several mcp_servers; choose one with --server: "
            + ", ".join(servers)
        )
    return servers[0]


@click.command()
@config_dir_argument
@server_option
@out_option
@click.option("--mock", is_flag=True, help="Answer from each tool's `returns` schema.")
@click.option("--http", is_flag=True, help="Serve Streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option(
    "--allow-host", "allowed_hosts", multiple=True, metavar="NAME",
    help="A Host header clients may send besides the loopback names (repeatable; `name:*` "
    "for any port).",
)  # fmt: skip
@click.option(
    "--auth-token-env", metavar="VAR", default=None,
    help="Require `Authorization: Bearer <token>`, the token read from environment variable VAR.",
)  # fmt: skip
def serve(
    config_dir: Path, server_name: str | None, out: Path | None, mock: bool, http: bool,
    host: str, port: int, allowed_hosts: tuple[str, ...], auth_token_env: str | None,
) -> None:  # fmt: skip
    """Serve the tools of DIR over stdio (or HTTP) with no handler written: each tool answers
    with data from its `returns` schema (declared examples first), under the same validation,
    pre-validation, confirmation and envelope rules as a real server."""
    if not mock:
        raise click.UsageError(
            "`toolc serve` runs mock handlers only: add --mock. A real server runs your "
            "handlers: `toolc scaffold` writes a starting point"
        )
    settings = settings_for(config_dir, out=out)
    from toolc import verbs

    compiled = verbs.compile_config(config_dir)
    if compiled.package is None:
        report(settings, compiled, "serve", config_dir, "")
    from toolc.serve import mock_server

    server = _pick_server(verbs.served_servers(compiled), server_name)
    package = resolved(settings.out_dir(config_dir), "output directory").name

    def warn(text: str) -> None:
        click.echo(f"toolc serve: warning: {text}", err=True)

    click.echo(f"toolc serve {config_dir}: mock server {server!r} on "
               + (f"http://{host}:{port}/mcp" if http else "stdio"), err=True)  # fmt: skip
    token = env_token(auth_token_env) if auth_token_env is not None else None
    listen = mock_server.Listen(host, port, allowed_hosts, token) if http else None
    mock_server.serve(compiled.files, package, server, listen, warn)


@click.command()
@config_dir_argument
@server_option
@out_option
@click.option(
    "--file", "target", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Where to write it. Default: <server>_server.py beside the generated package.",
)  # fmt: skip
def scaffold(
    config_dir: Path, server_name: str | None, out: Path | None, target: Path | None
) -> None:
    """Write a starting implementation of a server's handlers, once: a class with one typed
    method per tool, and a `serve()` that runs it. An existing file is never overwritten."""
    settings = settings_for(config_dir, out=out)
    from toolc import verbs

    compiled = verbs.compile_config(config_dir)
    if compiled.package is None:
        report(settings, compiled, "scaffold", config_dir, "")
    server = _pick_server(verbs.served_servers(compiled), server_name)
    out_dir = settings.out_dir(config_dir)
    path = target or out_dir.parent / f"{server}_server.py"
    if path.parent.resolve() == out_dir.parent.resolve() and path.stem == out_dir.name:
        # `import retail_server` would find the package, not the file (toolc test's default)
        raise click.UsageError(
            f"{path.name} would sit beside the package {out_dir.name}/ under the same module "
            "name, and importing it would find the package: name the file with --file PATH"
        )
    from toolc.diagnostics.render import render_text, use_color
    from toolc.verbs.refused_write import WriteRefused

    try:
        wrote = verbs.scaffold(compiled, resolved(out_dir, "output directory").name, server, path)
    except WriteRefused as refused:
        sys.stderr.write(render_text([refused.found], {}, color=use_color(sys.stderr)))
        sys.exit(EXIT_ERRORS)
    if not wrote:
        click.echo(
            f"toolc scaffold: {path} exists; toolc never overwrites it (delete it to start over)",
            err=True,
        )
        sys.exit(EXIT_ERRORS)
    click.echo(f"toolc scaffold {config_dir}: wrote {path}", err=True)
