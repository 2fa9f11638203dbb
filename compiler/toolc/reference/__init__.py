"""The generated reference docs (`toolc docs`, and `docs_out` for `build` and `check`): a
Markdown page per mcp_server, `llms.txt` and `llms-full.txt`, read from the package a compile
publishes (`model`) and rendered by templates (`render`). Pure: {file name: bytes}."""

from __future__ import annotations

from collections.abc import Mapping

from toolc.reference.model import servers
from toolc.reference.render import LLMS, LLMS_FULL, reference_files

__all__ = ["LLMS", "LLMS_FULL", "docs_files"]


def docs_files(
    package_files: Mapping[str, bytes],
    served_by: Mapping[str, str],
    defaults: Mapping[str, int] | None = None,
) -> dict[str, bytes]:
    """The reference of the servers in `served_by` (enabled tool → its mcp_server);
    `defaults`: each server's default response ceiling."""
    return reference_files(servers(package_files, served_by, defaults))
