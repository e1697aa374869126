"""What a test may not leave behind: threads and open sockets (STYLE: zeroconf's verify_threads_ended)."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path


def open_sockets() -> set[str]:
    """This process's open socket descriptors as ``fd -> socket:[inode]`` strings (empty where /proc is missing)."""
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        return set()
    found = set()
    for fd in os.listdir(fds):
        try:
            target = os.readlink(fds / fd)
        except OSError:
            continue   # closed meanwhile (the listing's own descriptor, for one)
        if target.startswith("socket:"):
            found.add(f"fd {fd} -> {target}")
    return found


def leftovers(threads_before: set[threading.Thread], sockets_before: set[str],
              grace: float = 10.0) -> list[str]:
    """Threads and sockets that appeared since the snapshot and are still there after ``grace`` s.

    ``grace`` is a hang guard, not a margin: the wait ends as soon as nothing is left, and a
    loaded machine (load 8 on 2 cores, issue 10 item 7) may take seconds to run a thread's last lines."""
    deadline = time.monotonic() + grace
    while True:
        threads = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
        sockets = open_sockets() - sockets_before
        if (not threads and not sockets) or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    return [f"thread {t.name!r} still running" for t in threads] + [f"socket left open: {s}" for s in sorted(sockets)]
