"""Bridge benchmark: ``python -m net.bench_bridge [--actions N]``.

Side by side in one run, over real TLS on 127.0.0.1 (the write-ahead log fsynced, as shipped):

* the anchor: two ``BotDriver`` sessions in one asyncio loop; each action's time from "taken"
  to "applied on both sides" (the peer's signed ok came back), on the mover's clock;
* the figure: two ``NetBridge`` instances, each with its network thread, driven as two windows
  would: from ``post(Act)`` on A to ``PeerActed`` arriving in B's event queue (a window draws
  it at its next frame). This adds the thread hops, the player's view (``observe``) and the
  next ``YourTurn``'s legal actions to the anchor's round trip.

Prints median and p99 of both and their ratio.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import engine.api as engine
from net import frontend as fe
from net.bot import BotDriver
from net.bridge import BridgeConfig, NetBridge
from net.identity import load_or_create
from net.session import Host, NetConfig, play_as_guest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.bench_bridge", description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=200, help="actions to time in each configuration")
    args = parser.parse_args(argv)
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    logging.getLogger("wec.net").setLevel(logging.ERROR)
    for sync in (True, False):
        with tempfile.TemporaryDirectory() as tmp:
            anchor = bot_latencies(Path(tmp) / "bots", args.actions, sync)
            figure = bridge_latencies(Path(tmp) / "bridges", args.actions, sync)
        print(f"write-ahead log fsync {'on (as shipped)' if sync else 'off'}:")
        print(format_results(anchor, figure))
    return 0


def format_results(anchor: list[float], figure: list[float]) -> str:
    """Median and p99 of both (ms) and the ratios."""
    a, f = (statistics.median(anchor), _pct(anchor, 99)), (statistics.median(figure), _pct(figure, 99))
    return "\n".join([
        f"anchor  bot action -> applied on both (round trip): median {a[0] * 1e3:.3f} ms, p99 {a[1] * 1e3:.3f} ms "
        f"({len(anchor)} actions)",
        f"figure  post(Act) on A -> PeerActed queued on B:     median {f[0] * 1e3:.3f} ms, p99 {f[1] * 1e3:.3f} ms "
        f"({len(figure)} actions)",
        f"ratio   median {f[0] / a[0]:.2f}x, p99 {f[1] / a[1]:.2f}x"])


def _config(root: Path, name: str, sync: bool) -> NetConfig:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)

    async def yes(code: str, peer: str) -> bool:
        return True
    return NetConfig(identity=load_or_create(d), data_dir=d, engine=engine, name=name, confirm=yes, wal_sync=sync)


def bot_latencies(root: Path, actions: int, sync: bool) -> list[float]:
    """The anchor: seconds from a bot's action to its being applied on both sides."""
    half = actions // 2 + 1   # a game that ends by capture first gives fewer samples (printed)
    host_bot = BotDriver(engine, seed=1, colour="white", max_actions=half)
    guest_bot = BotDriver(engine, seed=2, colour="black", max_actions=half)

    async def run() -> None:
        host = Host(_config(root, "a", sync), host_bot, "127.0.0.1", 0)
        port = await host.start()
        guest = asyncio.ensure_future(play_as_guest(_config(root, "b", sync), guest_bot, "127.0.0.1", port))
        try:
            while len(host_bot.latencies) + len(guest_bot.latencies) < actions and not guest.done():
                await asyncio.sleep(0.01)
        finally:
            guest.cancel()
            await asyncio.gather(guest, return_exceptions=True)
            await host.close()
    asyncio.run(run())
    return (host_bot.latencies + guest_bot.latencies)[:actions]


def bridge_latencies(root: Path, actions: int, sync: bool) -> list[float]:
    """The figure: seconds from ``post(Act)`` on one bridge to ``PeerActed`` in the other's queue."""
    a = NetBridge(BridgeConfig(_config(root, "a", sync), interfaces=["127.0.0.1"], discovery=False, hint_after=-1))
    b = NetBridge(BridgeConfig(_config(root, "b", sync), interfaces=["127.0.0.1"], discovery=False, hint_after=-1))
    out: list[float] = []
    with a, b:
        a.post(fe.Host())
        port = _wait(a, fe.Hosting).port
        b.post(fe.Join(f"127.0.0.1:{port}"))
        for bridge, colour in ((a, "white"), (b, "black")):
            _wait(bridge, fe.PairingCode)
            bridge.post(fe.ConfirmCode(True))
        for bridge, colour in ((a, "white"), (b, "black")):
            _wait(bridge, fe.Connected)
            bridge.post(fe.ChooseColour(colour))
            bridge.post(fe.ChooseGovernment("monarchy"))
        for bridge in (a, b):
            _wait(bridge, fe.SetupChanged, lambda e: e.ready)
            bridge.post(fe.FinishSetup())
        sides = {"black": b, "white": a}
        other = {"black": a, "white": b}
        rng = random.Random(3)
        in_turn = 0
        mover = "black"
        while len(out) < actions:
            turn = _wait(sides[mover], fe.YourTurn)
            if turn.end_turn is not None and (in_turn >= 1 or len(turn.legal) == 1):
                text, in_turn = turn.end_turn, 0
            else:
                text, in_turn = rng.choice([t for t in turn.legal if t != turn.end_turn]), in_turn + 1
            start = time.perf_counter()
            sides[mover].post(fe.Act(text))
            seen = _wait(other[mover], fe.PeerActed)
            out.append(time.perf_counter() - start)
            assert seen.text == text
            if text == turn.end_turn:
                mover = "white" if mover == "black" else "black"
    return out


def _wait(bridge: NetBridge, cls: type, pred: Any = lambda e: True) -> Any:
    while True:
        event = bridge.events.get(timeout=60)
        if isinstance(event, fe.GameOver):
            raise RuntimeError(f"the game ended early: {event}")
        if isinstance(event, cls) and pred(event):
            return event


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


if __name__ == "__main__":
    raise SystemExit(main())
