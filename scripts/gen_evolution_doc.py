"""Regenerate docs/evolution.md from the rule table of contract evolution (`make docs`)."""

from pathlib import Path

from toolc.evolution.rules import evolution_doc

target = Path(__file__).resolve().parent.parent / "docs" / "evolution.md"
target.write_text(evolution_doc(), encoding="utf-8")
print(f"wrote {target}")
