"""Atomic file replacement (anchors-reliability §3.7): temp file, fsync, replace, fsync dir."""
from __future__ import annotations

import glob
import os
import sys
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file.

    The data goes to a temp file ``.tmp-<name>-*`` in the same directory (fsynced, then renamed
    over ``path``); a crash before the rename leaves ``path`` as it was, plus that temp file,
    which is never read (``remove_stale_temps`` clears it where there is one writer per path).
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".tmp-{path.name}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if sys.platform != "win32":
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            fsync(dfd)
        finally:
            os.close(dfd)


def remove_stale_temps(path: Path) -> None:
    """Remove temp files of ``path`` left by an interrupted ``write_atomic`` (call only where
    nothing else writes ``path`` at the same time)."""
    path = Path(path)
    for stale in path.parent.glob(f".tmp-{glob.escape(path.name)}-*"):
        stale.unlink(missing_ok=True)


def fsync(fd: int) -> None:
    """Flush ``fd`` to stable storage (F_FULLFSYNC on macOS, where fsync does not flush the drive)."""
    if sys.platform == "darwin":
        import fcntl
        fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
    else:
        os.fsync(fd)
