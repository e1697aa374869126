"""Helpers for the network tests: installations in temporary data dirs, fast timeouts."""
from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType
from typing import Any

from net.bot import BotDriver
from net.identity import load_or_create
from net.session import NetConfig
from net.transport import Timeouts

#: The network option (docs/rulings.md P-6) that plays hidden play's questions and detection zones in
#: clear instead of through PSI: the bulk network test games ask for it in their setup, like any rule
#: change, because their point is not the PSI. tests/test_net_hidden_psi.py, the lying peers and a few
#: games (tests/test_net_hidden_equiv.py, test_net_hidden.py) keep the default, PSI on.
NO_PSI: dict[str, int] = {"hidden_psi": 0}

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


def run(coro: Any, timeout: float = 300.0) -> Any:
    """Run ``coro`` in a fresh event loop with an overall deadline: a hang guard only, not a
    margin (a whole bot game at load 15 on 2 cores took over 60 s; issue 10 item 7)."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


class QuickBot(BotDriver):
    """``net.bot.BotDriver`` that first asks for ``NO_PSI`` through the setup's rule-change requests
    (the peer approves it as any request); ``psi=True`` leaves PSI on (the default)."""

    def __init__(self, *args: Any, psi: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        if not psi:
            self.requests.insert(0, dict(NO_PSI))
