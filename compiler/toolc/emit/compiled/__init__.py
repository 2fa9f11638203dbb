"""The generated-code templates compiled by Jinja ahead of time (`make templates`; see
toolc.emit.precompiled). Generated: not linted, not type-checked, never edited by hand."""
