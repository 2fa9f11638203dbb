"""`toolc explain` and `toolc schema`: what toolc knows, printed."""

from __future__ import annotations

import json

import click

from toolc.resources import load_schema, schema_path


@click.command()
@click.argument("code", required=False)
@click.option(
    "--list-rules", is_flag=True,
    help="List every diagnostic code and evolution rule instead: ID, kind, severity or level, "
    "summary.",
)  # fmt: skip
@click.option(
    "--kind", type=click.Choice(["diagnostic", "evolution"]), default=None,
    help="With --list-rules: only the diagnostic codes, or only the evolution rules.",
)  # fmt: skip
def explain(code: str | None, list_rules: bool, kind: str | None) -> None:
    """Explain a diagnostic code or an evolution rule, e.g. `toolc explain yaml-duplicate-key`,
    `toolc explain arg-removed`."""
    from toolc.diagnostics import catalogue

    if list_rules == (code is not None):
        raise click.UsageError("give a CODE to explain, or --list-rules")
    if kind is not None and not list_rules:
        raise click.UsageError("--kind goes with --list-rules")
    if list_rules:
        click.echo(catalogue.listing(kind), nl=False)
        return
    try:
        click.echo(catalogue.explain(str(code)))
    except catalogue.UnknownId as exc:
        raise click.UsageError(str(exc)) from exc


@click.command()
@click.option("--policies", is_flag=True, help="The schema of tool_policies.yaml instead.")
@click.option("--path", "show_path", is_flag=True, help="Print where the installed file is.")
def schema(policies: bool, show_path: bool) -> None:
    """Print the JSON Schema of tools.yaml (or of tool_policies.yaml)."""
    kind = "policies" if policies else "tools"
    if show_path:
        click.echo(str(schema_path(kind)))
    else:
        click.echo(json.dumps(load_schema(kind), indent=2, ensure_ascii=False))
