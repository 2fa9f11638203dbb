"""`python -m toolc.daemon [IDLE_SECONDS]`: the daemon process itself, as `toolc daemon start`
spawns it (in a session of its own, its output in the log beside the socket)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from toolc.daemon import protocol
from toolc.daemon.server import Daemon, warm_up
from toolc.workspace.private import (
    hold_private_lock,
    make_private_dir,
    refusal,
    remove_socket,
)


def main() -> int:
    idle = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    path = protocol.socket_path()
    if path is None:
        print("toolc daemon: caching is off (TOOLC_NO_CACHE)", file=sys.stderr)
        return 1
    folder = Path(path).parent
    make_private_dir(folder)
    why = refusal(folder / "daemon.probe")  # the folder's owner and mode
    if why is not None:
        print(f"toolc daemon: not started: {why}", file=sys.stderr)
        return 1
    # Held for the daemon's whole life: a second daemon of this toolc stops here (after a
    # few seconds' wait, in which one that was stopping writes its caches and goes).
    deadline = time.monotonic() + 10
    while (lock := hold_private_lock(protocol.beside(path, ".lock"))) is None:
        if time.monotonic() > deadline:
            print("toolc daemon: already running", file=sys.stderr)
            return 1
        time.sleep(0.05)
    del lock  # kept open, so held, until the process ends
    os.chdir("/")
    warm_up()
    remove_socket(path)  # left by a daemon that died: it held the lock, now free
    Daemon(path, idle).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
