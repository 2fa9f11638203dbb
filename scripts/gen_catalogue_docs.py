"""Regenerate docs/diagnostics.md and docs/evolution.md from the catalogue of diagnostic codes
and evolution rules (`make docs`)."""

from pathlib import Path

from toolc.diagnostics.docs import pages

docs = Path(__file__).resolve().parent.parent / "docs"
for name, text in pages().items():
    (docs / name).write_text(text, encoding="utf-8")
    print(f"wrote {docs / name}")
