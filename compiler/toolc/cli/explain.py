"""`toolc explain` and `toolc schema`: what toolc knows, printed."""

from __future__ import annotations

import json

import click

from toolc.diagnostics import CODES
from toolc.diagnostics.suggest import did_you_mean
from toolc.resources import load_schema, schema_path


@click.command()
@click.argument("code")
def explain(code: str) -> None:
    """Explain a diagnostic code, e.g. `toolc explain yaml-duplicate-key`."""
    rule = CODES.get(code)
    if rule is None:
        raise click.UsageError(f"unknown diagnostic code '{code}'{did_you_mean(code, CODES)}")
    click.echo(f"{rule.code} ({rule.severity.value}): {rule.summary}\n\n{rule.explanation}")


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
