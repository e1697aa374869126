"""Network benchmark: ``python -m net.bench [--netns] [--games N]``.

The two installations run in two separate processes (each with its own event loop and
core), over 127.0.0.1 and, with ``--netns`` (root + iproute2), between two network
namespaces joined by a veth pair (tests/netns.py; deleted afterwards). For each link it
prints the pairing time (first contact: TLS without client certificate, commit-reveal,
code, confirmations), the pinned mutual-TLS handshake time, and the median / p99 time
from "action taken" to "applied on both sides" over full bot games (each side measures
its own actions on its own clock), with the write-ahead log fsynced (as shipped) and not.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Parse arguments; run the orchestrator or one peer process."""
    parser = argparse.ArgumentParser(prog="python -m net.bench", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode")
    peer = sub.add_parser("peer", help="(internal) one installation in its own process")
    peer.add_argument("--role", choices=["host", "guest"], required=True)
    peer.add_argument("--dir", type=Path, required=True)
    peer.add_argument("--interface", required=True)
    peer.add_argument("--peer-host")
    peer.add_argument("--port", type=int, default=0)
    peer.add_argument("--seed", type=int, default=11)
    peer.add_argument("--sync", type=int, choices=[0, 1], default=1)
    parser.add_argument("--netns", action="store_true", help="also run between two network namespaces (root)")
    parser.add_argument("--games", type=int, default=2, help="games per configuration (default 2)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.mode == "peer":
        return asyncio.run(_peer(args))
    results = run_bench(args.games, args.netns)
    print(json.dumps(results, indent=2) if args.json else format_results(results))
    return 0


def run_bench(games: int, netns: bool) -> dict[str, Any]:
    """Figures per link and fsync setting: {link: {"fsync on"/"fsync off": {...}}} (times in ms)."""
    links: dict[str, Any] = {"loopback": None}
    results: dict[str, Any] = {}
    if netns:
        with _netns_module().netns_pair(prefix="wecn") as pair:
            links["netns"] = pair
            results["netns"] = _link(pair, games)
    results["loopback"] = _link(None, games)
    return results


def format_results(results: dict[str, Any]) -> str:
    """A small table."""
    lines = ["WEC network benchmark: two processes, TLS 1.3, Ed25519, msgpack "
             "(goal: median <= 0.45 ms, p99 <= 0.75 ms; notes/anchors-performance.md goal 5)"]
    for link, by_sync in results.items():
        for label, r in by_sync.items():
            lines.append(f"[{link}, WAL {label}] pairing {r['pairing_ms']:.1f} ms; pinned mutual TLS handshake "
                         f"{r['handshake_ms']:.2f} ms; action taken -> applied on both sides over {r['actions']} "
                         f"actions: median {r['median_ms']:.3f} ms, p99 {r['p99_ms']:.3f} ms")
    return "\n".join(lines)


def _link(pair: Any, games: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sync in (1, 0):
        runs = [_game(pair, sync, seed=11 + 2 * n) for n in range(games)]
        lat = [x for r in runs for x in r["latencies"]]
        out["fsync on" if sync else "fsync off"] = {
            "pairing_ms": statistics.median(r["pairing"] for r in runs) * 1e3,
            "handshake_ms": statistics.median(r["handshake"] for r in runs) * 1e3,
            "actions": len(lat), "median_ms": statistics.median(lat) * 1e3, "p99_ms": _pct(lat, 99) * 1e3}
    return out


def _game(pair: Any, sync: int, seed: int) -> dict[str, Any]:
    """One fresh pair of installations: pair, handshakes, a full bot game; both sides' figures."""
    with tempfile.TemporaryDirectory() as tmp:
        host_addr = pair.addr_a if pair else "127.0.0.1"
        guest_addr = pair.addr_b if pair else "127.0.0.1"
        common = ["--sync", str(sync)]
        host = _spawn(pair, pair.ns_a if pair else None, ["--role", "host", "--dir", f"{tmp}/host", "--interface",
                                                         host_addr, "--seed", str(seed), *common])
        try:
            port = _read(host)["port"]
            guest = _spawn(pair, pair.ns_b if pair else None,
                           ["--role", "guest", "--dir", f"{tmp}/guest", "--interface", guest_addr, "--peer-host",
                            host_addr, "--port", str(port), "--seed", str(seed + 1), *common])
            g, h = _read(guest), _read(host)
        finally:
            for proc in [host] + ([guest] if "guest" in locals() else []):
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        if g["status"] != "finished" or h["status"] != "finished":
            raise SystemExit(f"benchmark game did not finish: host {h['status']}, guest {g['status']}")
        return {"pairing": g["pairing"], "handshake": g["handshake"], "latencies": g["latencies"] + h["latencies"]}


def _spawn(pair: Any, ns: str | None, args: list[str]) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "net.bench", "peer", *args]
    kw: dict[str, Any] = dict(stdout=subprocess.PIPE, text=True, cwd=str(REPO))
    return pair.run(ns, argv, **kw) if pair else subprocess.Popen(argv, **kw)


def _read(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise SystemExit(f"benchmark peer exited with status {proc.wait()} (see its stderr)")
    return json.loads(line)


async def _peer(args: argparse.Namespace) -> int:
    import engine.api as engine
    from net import certs
    from net.bot import BotDriver
    from net.identity import load_or_create
    from net.peers import PeerStore
    from net.session import Host, NetConfig, play_as_guest, run_pairing
    from net.transport import Timeouts, connect

    logging.basicConfig(level=logging.ERROR)

    async def yes(code: str, name: str) -> bool:
        return True

    args.dir.mkdir(parents=True)
    cfg = NetConfig(identity=load_or_create(args.dir), data_dir=args.dir, engine=engine, name=args.role,
                    confirm=yes, wal_sync=bool(args.sync), timeouts=Timeouts())
    bot = BotDriver(engine, args.seed, "white" if args.role == "host" else "black")
    if args.role == "host":
        host = Host(cfg, bot, args.interface, 0)
        _emit(port=await host.start())
        try:
            out = await host.wait(120)
        finally:
            await host.close()
        _emit(status=out.status, latencies=bot.latencies)
        return 0
    t0 = time.perf_counter()
    link = await connect(args.peer_host, args.port, certs.client_context(None, None), cfg.timeouts)
    await run_pairing(cfg, link, "initiator", link.peer_der)
    pairing = time.perf_counter() - t0
    known = PeerStore(cfg.data_dir).all()[0]
    PeerStore(cfg.data_dir).remember_address(known.fingerprint, f"{args.peer_host}:{args.port}")
    handshakes = []
    for _ in range(20):
        t0 = time.perf_counter()
        link = await connect(args.peer_host, args.port, certs.client_context(cfg.certs, known.cert_pem), cfg.timeouts)
        handshakes.append(time.perf_counter() - t0)
        await link.close()
    await asyncio.sleep(0.05)
    out = await play_as_guest(cfg, bot, args.peer_host, args.port, expected_fp=known.fingerprint)
    _emit(status=out.status, pairing=pairing, handshake=statistics.median(handshakes), latencies=bot.latencies)
    return 0


def _emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _netns_module() -> ModuleType:
    """tests/netns.py (the bench shares the test harness)."""
    sys.path.insert(0, str(REPO / "tests"))
    return importlib.import_module("netns")


if __name__ == "__main__":
    sys.exit(main())
