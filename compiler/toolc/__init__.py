"""toolc: a compiler for MCP tool declarations."""

__version__ = "0.1.0"
