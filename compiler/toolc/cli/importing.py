"""`toolc import SOURCE --out DIR`: bring an existing server's tools into a config (and the
source options `toolc init --from` shares)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
import msgspec

from toolc.cli.common import EXIT_ERRORS, EXIT_OK, format_option, resolved, settings_for
from toolc.cli.remote import (
    auth_token_option,
    headers_of,
    stdio_option,
    target_of,
    url_option,
)
from toolc.diagnostics.codes import diag
from toolc.diagnostics.model import Diagnostic, Span
from toolc.diagnostics.render import RENDERERS, render_text, use_color

if TYPE_CHECKING:  # the verb pulls in the SDK (0.4 s): imported when the command runs
    from toolc.verbs.importing import Imported


class Proxied(msgspec.Struct, frozen=True, dict=True):
    """`--proxied`: the origin the tools are proxied to, when it is not the listed server."""

    command: list[str] | None = None
    url: str | None = None


def imported_from(
    args: tuple[str, ...], stdio: bool, url: str | None, server: str | None,
    proxied: Proxied | None = None, targets: tuple[str, ...] = (),
    headers: dict[str, str] | None = None,
) -> tuple[Imported, dict[str, str]]:  # fmt: skip
    """The source read (a file, or a server listed) and translated; the texts to show.
    `targets`: those the config will be built with (its folder's [tool.toolc])."""
    from toolc.adopt.listing import of_listing, read_file
    from toolc.verbs.import_proxied import origin_of
    from toolc.verbs.importing import Imported, translate

    command: list[str] | None = None  # the listed server's, when it is started
    if not stdio and url is None:
        if len(args) != 1:
            raise click.UsageError("give one SOURCE file, or --stdio -- CMD ARGS..., or --url URL")
        path = Path(args[0])
        shown = str(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            failed = diag(
                "import-source-invalid", Span.whole_file(shown), f"cannot read {shown}: {why}"
            )
            return Imported([failed]), {}
        source, problems = read_file(data, shown)
        texts = {shown: data.decode("utf-8", errors="replace")}
    else:
        from toolc.remote import RemoteError, list_remote

        command = target_of(stdio, url, args)
        shown = f"tools/list of {' '.join(command) if command is not None else url}"
        try:
            listing = list_remote(command, url, headers=headers)
        except RemoteError as exc:
            return Imported([diag("import-source-invalid", Span.nowhere(shown), str(exc))]), {}
        source, problems, texts = of_listing(listing.tools, listing.server, shown), [], {}
    if source is None:
        return Imported(problems), texts
    origin = None
    if proxied is not None:  # the listed server is the origin unless another is named
        where = source.tools[0].span if source.tools else source.whole
        explicit = proxied.command is not None or proxied.url is not None
        origin = origin_of(
            proxied.command if explicit else command, proxied.url if explicit else url,
            where, problems,
        )  # fmt: skip
    result = translate(source, server, shown, origin, targets)
    result.diagnostics[:0] = problems
    return result, texts


def show(diagnostics: list[Diagnostic], texts: dict[str, str], fmt: str | None) -> None:
    if fmt in (None, "text"):
        sys.stderr.write(render_text(diagnostics, texts, color=use_color(sys.stderr)))
    else:
        sys.stdout.write(RENDERERS[fmt](diagnostics, texts, False))


@click.command("import", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="SOURCE")
@click.option(
    "--out",
    "out_dir",
    required=True,
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder the config is written in.",
)
@click.option(
    "--server",
    default=None,
    metavar="NAME",
    help="The mcp_server of the imported tools (default: the name the server gives itself).",
)
@click.option(
    "--proxied", is_flag=True,
    help="Write each tool proxied to its origin (a `proxy:` key), keeping the origin's schemas "
    "exactly: the listed server, or --origin-command / --origin-url.",
)  # fmt: skip
@click.option(
    "--origin-command", default=None, metavar="CMD",
    help="With --proxied: the origin's stdio command line (split as a shell does).",
)  # fmt: skip
@click.option(
    "--origin-url", default=None, metavar="URL",
    help="With --proxied: the origin's Streamable HTTP endpoint.",
)  # fmt: skip
@stdio_option
@url_option
@auth_token_option
@format_option
def import_(
    args: tuple[str, ...],
    out_dir: Path,
    server: str | None,
    proxied: bool,
    origin_command: str | None,
    origin_url: str | None,
    stdio: bool,
    url: str | None,
    auth_token_env: str | None,
    fmt: str | None,
) -> None:
    """Write a config (tools.yaml, tool_policies.yaml) from a tools/list: SOURCE is a JSON file
    ({"tools": [...]} or a list of tools), or a running server: --stdio -- CMD ARGS... or --url
    URL. What cannot be carried is a warning; an existing config is never overwritten. With
    --proxied each tool is forwarded to its origin and answers the origin's result as it is."""
    from toolc.verbs.importing import existing_config, write

    wanted = _proxied(proxied, origin_command, origin_url)
    headers = headers_of(auth_token_env, url)

    if out_dir.exists() and not out_dir.is_dir():
        raise click.UsageError(f"{out_dir} is not a directory")
    refused = existing_config(out_dir)
    if refused:  # before a server is started: nothing would be written anyway
        _nothing_written(refused, fmt, out_dir)
    # The targets its builds will apply, so that the config builds where it goes.
    targets = settings_for(resolved(out_dir, "output directory")).targets
    imported, texts = imported_from(args, stdio, url, server, wanted, targets, headers)
    if imported.failed:
        _nothing_written(imported.diagnostics, fmt, out_dir, texts)
    written, failed = write(out_dir, imported, Path.cwd())
    if failed:  # nothing written: a retry starts afresh
        _nothing_written([*imported.diagnostics, *failed], fmt, out_dir, texts)
    show(imported.diagnostics, texts, fmt)  # one report, once the outcome is known
    for path in written:
        click.echo(f"  wrote {path}", err=True)
    warnings = len(imported.diagnostics)
    click.echo(
        f"toolc import {out_dir}: {len(imported.tools)} tool(s) imported, {warnings} warning(s); "
        f"next, `toolc build {shlex.quote(str(out_dir))}`",
        err=True,
    )
    sys.exit(EXIT_OK)


def _nothing_written(
    why: list[Diagnostic], fmt: str | None, out_dir: Path, texts: dict[str, str] | None = None
) -> NoReturn:
    show(why, texts or {}, fmt)
    click.echo(f"toolc import: nothing written to {out_dir}", err=True)
    sys.exit(EXIT_ERRORS)


def _proxied(proxied: bool, command: str | None, url: str | None) -> Proxied | None:
    if not proxied:
        if command is not None or url is not None:
            raise click.UsageError("--origin-command and --origin-url go with --proxied")
        return None
    if command is not None and url is not None:
        raise click.UsageError("give one origin: --origin-command or --origin-url")
    if url is not None and not url.startswith(("http://", "https://")):
        raise click.UsageError("--origin-url takes an http:// or https:// URL")
    try:
        split = shlex.split(command) if command is not None else None
    except ValueError as exc:  # an unclosed quote, a trailing backslash
        raise click.UsageError(
            f"--origin-command {command!r} cannot be split as a shell would: {exc} "
            "(close the quote, or escape the character)"
        ) from None
    if split is not None and not split:
        raise click.UsageError("--origin-command needs a command")
    return Proxied(split, url)
