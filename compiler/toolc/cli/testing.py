"""`toolc test`: the test kit (toolc.testkit) run against the user's own handlers. It tests
the package the build wrote (DIR's `out` setting, or --out) as it is on disk; it compiles
nothing and writes nothing. Exit 0 when every case passes, 1 on a failure (each printed with
its tool, case, arguments, what was expected and what came back), 2 on a usage error."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolc.cli.common import EXIT_ERRORS, config_dir_argument, out_option, settings_for
from toolc.cli.serving import _pick_server, server_option


@click.command(name="test")
@config_dir_argument
@click.option(
    "--handlers", "handlers_spec", metavar="MODULE:ATTR", default=None,
    help="Your handlers: a class (instantiated with no arguments) or an object, in a module "
    "importable from the working directory or beside the package, or a .py file. "
    "Default: <server>_server:Handlers, the file `toolc scaffold` writes.",
)  # fmt: skip
@server_option
@out_option
@click.option("--examples", type=click.IntRange(1, 100), default=5, show_default=True,
              help="Valid argument sets generated per tool.")  # fmt: skip
@click.option(
    "--cases", "cases_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help='Your own arguments too, run through the same checks: a JSON file '
    '{"<tool>": [{...}, ...]} (arguments that produce partial, failed and secondary-failure '
    "multi-item answers cover the guide's checklist).",
)  # fmt: skip
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds a call may take before its case fails.")  # fmt: skip
@click.option("-v", "--verbose", is_flag=True, help="List every case run.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seeds the generated arguments: the same seed, the same calls.")  # fmt: skip
def test(
    config_dir: Path, handlers_spec: str | None, server_name: str | None, out: Path | None,
    cases_file: Path | None, timeout: float, verbose: bool, examples: int, seed: int,
) -> None:  # fmt: skip
    """Test your handlers from outside, through the SDK's client: generated arguments for
    every tool, every answer checked against the published schemas, near-miss arguments
    refused before your handler, the multi-item guide's per-item evidence, and the
    confirmation decline and accept paths."""
    settings = settings_for(config_dir, out=out)
    from toolc.testkit import loading, runner

    out_dir = settings.out_dir(config_dir).resolve()
    try:
        target = loading.load_package(out_dir)
        served = sorted({s.mcp_server for s in target.registry.values() if s.enabled})
        server = _pick_server(served, server_name)
        extra = loading.load_cases(cases_file) if cases_file is not None else {}
        default = (
            "; that is the default, the file `toolc scaffold` writes beside the package: "
            "name yours with --handlers MODULE:ATTR"
        )
        handlers = (
            loading.load_handlers(handlers_spec)
            if handlers_spec is not None
            else loading.load_handlers(f"{server}_server:Handlers", default)
        )
        report = runner.run(target, handlers, server, seed, examples, extra, timeout)
    except loading.KitError as exc:
        raise click.UsageError(str(exc)) from exc
    failed = {(f.tool, f.case) for f in report.failures}
    for tool, case in report.cases if verbose else ():
        click.echo(f"{'FAIL' if (tool, case) in failed else 'pass'} {tool} [{case}]")
    for failure in report.failures:
        click.echo(failure.render())
    for note in report.notes:
        click.echo(f"note: {note}")
    for tool, seen in sorted(report.outcomes.items()):
        shown = ", ".join(f"{case} ×{n}" for case, n in sorted(seen.items()))
        click.echo(f"{tool}: multi-item outcomes seen: {shown}")
    summary = f"{len(report.failures)} failure(s) in {len(report.cases)} call(s)"
    if report.untested:  # no case reached them: not a pass
        summary += f", {len(report.untested)} tool(s) untested: {', '.join(report.untested)}"
    click.echo(f"toolc test {config_dir} (server {server!r}, seed {seed}): {summary}")
    if report.failures or report.untested:
        sys.exit(EXIT_ERRORS)
