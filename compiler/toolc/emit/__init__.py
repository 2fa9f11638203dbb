"""Emission: from the typed model to the files of the generated package, as `{path: bytes}`.
Nothing here touches the disk; `toolc.workspace` alone writes."""
