"""Helpers for the network tests: installations in temporary data dirs, fast timeouts."""
from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType
from typing import Any

from net.identity import load_or_create
from net.session import NetConfig
from net.transport import Timeouts

FAST = Timeouts(connect=2.0, handshake=2.0, shutdown=0.5, frame=1.0, ping=0.3, dead=1.5, confirm=5.0)


async def yes(code: str, name: str) -> bool:
    return True


async def no(code: str, name: str) -> bool:
    return False


def make_cfg(tmp: Path, name: str, engine: ModuleType, **kw: Any) -> NetConfig:
    """A fresh installation in ``tmp/name`` that confirms pairing automatically."""
    d = tmp / name
    d.mkdir(parents=True, exist_ok=True)
    kw.setdefault("confirm", yes)
    kw.setdefault("timeouts", FAST)
    kw.setdefault("wal_sync", False)
    return NetConfig(identity=load_or_create(d), data_dir=d, engine=engine, name=name, **kw)


def run(coro: Any, timeout: float = 60.0) -> Any:
    """Run ``coro`` in a fresh event loop with an overall deadline."""
    return asyncio.run(asyncio.wait_for(coro, timeout))
