"""Regenerate docs/diagnostics.md from the diagnostic code table (`make docs`)."""

from pathlib import Path

from toolc.diagnostics.docs import render_markdown

target = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"
target.write_text(render_markdown(), encoding="utf-8")
print(f"wrote {target}")
