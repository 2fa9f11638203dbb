"""`python crashing_build.py ARGS...`: `toolc ARGS...`, killed (os._exit(137), as kill -9
leaves things) at one chosen file-system step, to prove every crash point recoverable.

CRASH_AT=op:n kills at the n-th call of `os.<op>` (rename, replace, link, unlink, rmdir,
mkdir); COUNT_TO=path writes how many calls of each op a whole build made (no crash);
LATE_FILE=name writes name into the output directory just before the first rename (a user's
file appearing while the build runs); SLOW_AT=op:n waits there instead, until the file RELEASE names exists (two seconds without
one, at most a minute with it)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

OPS = ("rename", "replace", "link", "unlink", "rmdir", "mkdir")
counts = dict.fromkeys(OPS, 0)
crash = os.environ.get("CRASH_AT", "")
slow = os.environ.get("SLOW_AT", "")
late = os.environ.get("LATE_FILE")


def wrap(op: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def step(*args: Any, **kwargs: Any) -> Any:
        counts[op] += 1
        here = f"{op}:{counts[op]}"
        if here == crash:
            os._exit(137)
        if here == slow:
            release = os.environ.get("RELEASE")
            deadline = time.monotonic() + (60 if release else 2)
            while time.monotonic() < deadline and not (release and os.path.exists(release)):
                time.sleep(0.02)
        if op == "rename" and late and counts[op] == 1:
            out = sys.argv[sys.argv.index("--out") + 1]
            with open(os.path.join(out, late), "w") as stream:
                stream.write("written while the build ran\n")
        return real(*args, **kwargs)

    return step


for name in OPS:
    setattr(os, name, wrap(name, getattr(os, name)))

target = os.environ.get("COUNT_TO")
from toolc.cli import run  # noqa: E402 -- after the patch, so toolc sees it
from toolc.workspace import finish_cleanup  # noqa: E402

status = run(sys.argv[1:])
finish_cleanup()
if target:
    with open(target, "w") as stream:
        stream.write(json.dumps(counts))
sys.exit(status)
