"""Where this installation keeps its data (identity key, licence token, saves, peers)."""
from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """Return the user data directory, created with mode 0700.

    ``WEC_DATA_DIR`` overrides the default (``$XDG_DATA_HOME/wec`` or ``~/.local/share/wec``);
    tests and the two-peer demo use it to run several installations on one machine.
    """
    env = os.environ.get("WEC_DATA_DIR")
    if env:
        path = Path(env)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "wec"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
