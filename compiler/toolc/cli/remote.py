"""The commands that talk to a running server: `toolc verify` (and, later, `toolc import`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolc.cli.common import (
    EXIT_ERRORS,
    EXIT_OK,
    config_dir_argument,
    env_token,
    report,
    served_by,
    settings_for,
)

stdio_option = click.option(
    "--stdio", is_flag=True,
    help="Start the server with the command given after `--` and list it over stdio.",
)  # fmt: skip
url_option = click.option(
    "--url", default=None, metavar="URL", help="List a server over Streamable HTTP at URL."
)
command_argument = click.argument("command", nargs=-1, type=click.UNPROCESSED)
auth_token_option = click.option(
    "--auth-token-env", metavar="VAR", default=None,
    help="With --url: send `Authorization: Bearer <token>`, the token read from environment "
    "variable VAR (a server run with --auth-token-env asks for it).",
)  # fmt: skip


def headers_of(auth_token_env: str | None, url: str | None) -> dict[str, str] | None:
    """The headers a listing over HTTP sends (None: none), or a usage error."""
    if auth_token_env is None:
        return None
    if url is None:
        raise click.UsageError("--auth-token-env goes with --url (a bearer token is HTTP's)")
    from toolc.runtime.client_http import bearer

    return bearer(env_token(auth_token_env))


def target_of(stdio: bool, url: str | None, command: tuple[str, ...]) -> list[str] | None:
    """The stdio command, or None for --url; a usage error unless exactly one is asked for."""
    if stdio == (url is not None):
        raise click.UsageError("give either --stdio -- CMD ARGS... or --url URL")
    if url is not None and command:
        raise click.UsageError(f"--url takes no command (got: {' '.join(command)})")
    if stdio and not command:
        raise click.UsageError("--stdio needs the server's command after `--`")
    return list(command) if stdio else None


@click.command(context_settings={"ignore_unknown_options": True})
@config_dir_argument
@click.option(
    "--server", "server_name", default=None, metavar="NAME",
    help="The mcp_server the running process serves (default: the one its tools belong to).",
)  # fmt: skip
@stdio_option
@url_option
@auth_token_option
@command_argument
def verify(
    config_dir: Path, server_name: str | None, stdio: bool, url: str | None,
    auth_token_env: str | None, command: tuple[str, ...],
) -> None:  # fmt: skip
    """Compare a running server's tools/list with what a build of DIR publishes: every tool of
    its mcp_server listed, none other, each identical. Exit 1 on any difference."""
    target = target_of(stdio, url, command)
    headers = headers_of(auth_token_env, url)
    settings = settings_for(config_dir)
    from toolc import verbs
    from toolc.remote import RemoteError, list_remote
    from toolc.verbs.verify import servers_of, verify

    compiled = verbs.compile_config(config_dir)
    if compiled.package is None:
        report(settings, compiled, "verify", config_dir, "")
    try:
        listing = list_remote(target, url, headers=headers)
    except RemoteError as exc:
        raise click.UsageError(str(exc)) from exc
    servers = servers_of(compiled)
    if server_name is not None:  # drift against no server would name every tool
        served_by(sorted(set(servers.values())), server_name)
    server = server_name or _server_of(listing.tools, servers, listing.server)
    drift = verify(listing.tools, compiled, server)
    for d in drift:
        click.echo(d.message)
    shown = f"toolc verify {config_dir}: mcp_server '{server}', {len(listing.tools)} tool(s) listed"
    if drift:
        click.echo(f"{shown}, {len(drift)} difference(s) from the build", err=True)
        sys.exit(EXIT_ERRORS)
    click.echo(f"{shown}, identical to the build", err=True)
    sys.exit(EXIT_OK)


def _server_of(listed: list[dict[str, object]], servers: dict[str, str], named: str | None) -> str:
    """The mcp_server whose tools the process lists, else the one it names, else the config's
    only one."""
    found = {servers[str(t.get("name"))] for t in listed if str(t.get("name")) in servers}
    if len(found) == 1:
        return found.pop()
    declared = sorted(set(servers.values()))
    if named in declared:
        return str(named)
    if len(declared) == 1:
        return declared[0]
    raise click.UsageError(
        "cannot tell which mcp_server the process serves; choose one with --server: "
        + ", ".join(declared)
    )
