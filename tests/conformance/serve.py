"""The conformance subject: `python serve.py PACKAGE_PARENT PORT` serves the generated package
`conformance_tools` (built from tests/conformance/config into PACKAGE_PARENT) over Streamable
HTTP on 127.0.0.1:PORT, with tests/conformance/handlers.py and its resources, prompts and
completions, through the package's own `create_server` and `run_http`."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [sys.argv[1], str(Path(__file__).resolve().parent)]

from conformance_tools.server import create_server  # noqa: E402
from conformance_tools.server_runtime import run_http  # noqa: E402
from handlers import PROMPTS, RESOURCE_TEMPLATES, RESOURCES, Handlers, complete  # noqa: E402

server = create_server(
    Handlers(),
    resources=RESOURCES,
    resource_templates=RESOURCE_TEMPLATES,
    prompts=PROMPTS,
    complete=complete,
)
run_http(server, "127.0.0.1", int(sys.argv[2]))
