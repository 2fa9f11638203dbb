"""Code the generated package carries verbatim. It imports only the standard library
and pydantic (never toolc), so deployments do not need toolc installed; toolc's own
tests exercise it directly."""
