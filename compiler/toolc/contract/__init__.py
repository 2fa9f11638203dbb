"""What every tool's contract holds besides the tool's own declaration: the response envelope's
fixed terms (`framework`). Imports nothing from the rest of toolc, so that checks, emit,
evolution and diagnostics can all read it without a cycle."""
