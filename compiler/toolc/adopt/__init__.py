"""`toolc import`: an existing server's `tools/list` translated into a config (tools.yaml and,
where the annotations ask for one, tool_policies.yaml). Reading the source (`adopt.listing`),
the schema dialect (`adopt.dialect`), the inputSchema's root and `$defs` (`adopt.schemas`),
each tool's other keys (`adopt.tools`) and the YAML text (`adopt.yamltext`) are pure: nothing
here writes (`verbs.importing` checks the result with the compiler and writes it)."""
