"""Network benchmark: ``python -m net.bench`` (loopback TLS, two in-process installations).

Prints the pairing time (first contact: TLS without client certificate, commit-reveal,
code, confirmations), the pinned mutual-TLS handshake time, and the median / p99 time from
"action taken" to "applied on both sides" over a full bot game, with and without fsync of
the write-ahead log.
"""
from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import engine.api as engine
from net import certs
from net.bot import BotDriver
from net.identity import load_or_create
from net.peers import PeerStore
from net.session import Host, NetConfig, join, play_as_guest, run_pairing
from net.transport import Timeouts, connect


async def _yes(code: str, name: str) -> bool:
    return True


def _cfg(tmp: Path, name: str, sync: bool) -> NetConfig:
    d = tmp / name
    d.mkdir(parents=True)
    return NetConfig(identity=load_or_create(d), data_dir=d, engine=engine, name=name, confirm=_yes,
                     wal_sync=sync, timeouts=Timeouts())


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def _run(sync: bool, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        hc, gc = _cfg(tmp, "host", sync), _cfg(tmp, "guest", sync)
        hb, gb = BotDriver(engine, seed, "white"), BotDriver(engine, seed + 1, "black")
        host = Host(hc, hb, "127.0.0.1", 0)
        port = await host.start()
        try:
            t0 = time.perf_counter()
            link = await connect("127.0.0.1", port, certs.client_context(None, None), gc.timeouts)
            await run_pairing(gc, link, "initiator", link.peer_der)
            pairing = time.perf_counter() - t0
            known = PeerStore(gc.data_dir).all()[0]
            handshakes = []
            for _ in range(20):
                t0 = time.perf_counter()
                link = await connect("127.0.0.1", port, certs.client_context(gc.certs, known.cert_pem), gc.timeouts)
                handshakes.append(time.perf_counter() - t0)
                await link.close()
            await asyncio.sleep(0.05)
            t0 = time.perf_counter()
            out = await play_as_guest(gc, gb, "127.0.0.1", port)
            game = time.perf_counter() - t0
            await host.wait(10)
        finally:
            await host.close()
        if out.status != "finished":
            raise SystemExit(f"benchmark game did not finish: {out.status} {out.reason}")
        lat = hb.latencies + gb.latencies
        return {"pairing": pairing, "handshake": statistics.median(handshakes), "game": game,
                "actions": float(len(lat)), "median": statistics.median(lat), "p99": _pct(lat, 99)}


def main() -> int:
    """Run the benchmark and print the figures."""
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("wec.net").setLevel(logging.ERROR)
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    print("WEC network benchmark (loopback, TLS 1.3, Ed25519, msgpack)")
    for sync in (True, False):
        r = asyncio.run(_run(sync, seed=11))
        label = "WAL fsync on " if sync else "WAL fsync off"
        print(f"[{label}] pairing {r['pairing'] * 1e3:.1f} ms; pinned mutual TLS handshake (median of 20) "
              f"{r['handshake'] * 1e3:.2f} ms")
        print(f"[{label}] action taken -> applied on both sides over {int(r['actions'])} actions: "
              f"median {r['median'] * 1e3:.3f} ms, p99 {r['p99'] * 1e3:.3f} ms; whole game {r['game']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
