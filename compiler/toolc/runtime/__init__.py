"""Code the generated package carries verbatim (after the generated header), so
deployments do not need toolc installed; toolc's own tests exercise it directly.
`jsonschema_types` imports only the standard library and pydantic (the models load
with pydantic alone); the server and client runtimes add `mcp` and its dependencies.
`mock_values` stays in toolc: it serves `toolc serve --mock`."""
