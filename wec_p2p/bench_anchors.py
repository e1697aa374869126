"""The speed anchors of ``../shared/notes/anchors-performance.md``, re-measured in the same run
as the engine's figures (``python -m wec_p2p.bench``).

- python-chess (``pip install 'wec-p2p[bench]'``, pure Python): ``list(board.legal_moves)`` per
  move on kiwipete, ``push`` + ``pop`` of one kiwipete move, a random game per ply (generate +
  ``rng.choice`` + push each ply, then pop every ply, seeds 0..);
- msgpack + SHA-256: ``sha256(packb(state))`` of a ~5 KB state (10x10 board, 4 players, 29-entry
  history) whose keys are already in canonical order.

When python-chess is not installed, ``chess_available()`` is False and the chess anchors are
left out (the bench says so).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, Callable

import msgpack

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

try:  # optional: the [bench] extra
    import chess
except ImportError:  # pragma: no cover - depends on the environment
    chess = None


def chess_available() -> bool:
    """True when python-chess can be imported."""
    return chess is not None


def chess_version() -> str:
    """python-chess's version, or '' when it is missing."""
    return getattr(chess, "__version__", "") if chess is not None else ""


def movegen_case() -> tuple[Callable[[], object], int]:
    """``list(board.legal_moves)`` on kiwipete, and the number of moves (48)."""
    board = chess.Board(KIWIPETE)
    return (lambda: list(board.legal_moves)), board.legal_moves.count()


def push_pop_case() -> tuple[Callable[[], object], int]:
    """``push`` + ``pop`` of every legal kiwipete move in turn (one call does all 48)."""
    board = chess.Board(KIWIPETE)
    moves = list(board.legal_moves)

    def run() -> None:
        for m in moves:
            board.push(m)
            board.pop()
    return run, len(moves)


def random_game(seed: int, plies: int = 200) -> int:
    """One random self-play game of up to ``plies`` plies, then every ply popped; returns the
    plies played (a game that ends early by mate or stalemate is shorter)."""
    rng = random.Random(seed)
    board = chess.Board()
    n = 0
    while n < plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        n += 1
    for _ in range(n):
        board.pop()
    return n


def anchor_state(entries: int = 29) -> dict[str, Any]:
    """A ~5 KB game state in canonical key order: 10x10 board, 4 players, 29-entry history
    (``entries``: a longer history, for a state of another size)."""
    rng = random.Random(5)
    board = [[[rng.randrange(0, 40), rng.choice("GAS"), rng.randrange(0, 4)] if rng.random() < 0.6
              else [] for _ in range(10)] for _ in range(10)]
    players = [{"id": bytes(rng.randrange(256) for _ in range(16)), "name": f"player {i}",
                "score": rng.randrange(1000), "side": "BW"[i % 2], "time": rng.randrange(10 ** 6)}
               for i in range(4)]
    history = [{"ply": i + 1, "action": f"MV:RP({rng.randrange(1, 11)},{rng.randrange(1, 11)})->"
                f"({rng.randrange(1, 11)},{rng.randrange(1, 11)}),FI:RO/K(1,5)->(2,5),PU:K(1,5)^SL",
                "sig": bytes(rng.randrange(256) for _ in range(44)),
                "prev": bytes(rng.randrange(256) for _ in range(32))} for i in range(entries)]
    return {"v": 1, "board": board, "players": players, "history": history,
            "ply": 30, "result": None}


def hash_case(size_at_least: int = 0) -> tuple[Callable[[], object], int]:
    """``sha256(packb(state))`` of the ~5 KB pre-ordered state (or of one with a history long
    enough to pack to ``size_at_least`` bytes), and its packed size."""
    entries = 29
    state = anchor_state(entries)
    while len(msgpack.packb(state, use_bin_type=True)) < size_at_least:
        entries += 1
        state = anchor_state(entries)
    size = len(msgpack.packb(state, use_bin_type=True))
    return (lambda: hashlib.sha256(msgpack.packb(state, use_bin_type=True)).hexdigest()), size
