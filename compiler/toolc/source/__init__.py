"""Reading config files: bytes → text → YAML 1.2 values with a span for every node."""

from toolc.source.document import JsonPath, LoadedFile, SourceMap
from toolc.source.reader import load_file

__all__ = ["JsonPath", "LoadedFile", "SourceMap", "load_file"]
