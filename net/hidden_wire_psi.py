"""The game message that carries the PSI exchanges of hidden play (issue 8 item 4).

``psi`` is a signed, numbered, chained game message like every hidden-play message
(``net.hidden_wire``): the event ``ev`` it belongs to, the remote question's number ``n``
(``ZONE_N`` for the zone test of HQ-10), the sealed text of our action when it is the action's
first message (``seal``, as ``hidden-query``), the sender's root and public hash, and ``msgs``:
the PSI messages of ``net.hidden_messages`` / ``net.hidden_psi`` in their canonical msgpack
(``psi-ask``, ``psi-query``, ``psi-reply``, ``psi-step``, ``psi-step-reply``), decoded and checked
field by field by the receiver (``decode_hidden``). One chain message per protocol step keeps the
play machine's rule "one peer message, at most one reply", and binds every PSI message to the
event and to the sender's committed root (docs/protocol.md "PSI in play").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import net.hidden_psi  # noqa: F401  (registers psi-ask in the HIDDEN registry)
from net.hidden_messages import decode_hidden, encode_hidden
from net.commitments import MAX_SLOTS
from net.hidden_wire import _ROOT, _SEAL, MAX_BLOB, _int, _ints
from net.messages import Message, _opt, game

__all__ = ["HiddenPsi", "ZONE_N", "MAX_PSI_MSGS", "psi_envelope", "psi_messages"]

ZONE_N = 1023             # ``n`` of the zone test's messages (questions are numbered from 0)
MAX_PSI_MSGS = 2          # psi-ask + psi-query is the most one step carries


def _msgs(v: Any) -> bool:
    return (isinstance(v, list) and 1 <= len(v) <= MAX_PSI_MSGS
            and all(isinstance(x, bytes) and len(x) <= MAX_BLOB for x in v))


@game("psi", ev=_int(), n=_int(0, ZONE_N), seal=_SEAL, msgs=_msgs, **_ROOT, locks=_opt(_ints(MAX_SLOTS)))
@dataclass(frozen=True)
class HiddenPsi(Message):
    """One step of a PSI exchange of event ``ev``: remote question ``n`` or the zone test.
    ``locks``: the owner's lock targets after the event (RUL-19), in its answer to the
    resolver's zone test when its ack follows (docs/rulings.md P-15), else None."""
    ev: int
    n: int
    seal: bytes | None
    msgs: list[bytes]
    rn: int
    root: bytes
    phash: str
    locks: list[int] | None = None


def psi_envelope(ev: int, n: int, seal: bytes | None, msgs: list[Message], stamp: tuple[int, bytes, str],
                 locks: list[int] | None = None) -> HiddenPsi:
    return HiddenPsi(ev, n, seal, [encode_hidden(m) for m in msgs], *stamp, locks)


def psi_messages(env: HiddenPsi) -> list[Message]:
    """The PSI messages inside. :raises ProtocolError: naming the bad tag or field."""
    return [decode_hidden(b) for b in env.msgs]


_MEANING = {
    ("psi-query", "x"): "the asker's blinded cells are not those of its committed state",
    ("psi-step", "x"): "the asker's blinded cell is not that of its committed state",
    ("psi-reply", "z"): "the responder's set is not the cells of its committed pieces",
    ("psi-reply", "y"): "the responder did not blind the asker's values with its own secret",
    ("psi-step-reply", "y"): "the responder did not blind the asker's value with its own secret",
}


def psi_diff(want: HiddenPsi, got: HiddenPsi) -> str:
    """'' if the PSI messages inside are the same; else which one and field differ, and what
    that shows (for the audit's report)."""
    try:
        a, b = psi_messages(want), psi_messages(got)
    except Exception as exc:   # noqa: BLE001  (a peer's undecodable message: say so)
        return f"msgs undecodable: {exc}"
    if len(a) != len(b):
        return f"msgs: {len(b)} PSI messages where {len(a)} were due"
    for w, g in zip(a, b):
        if type(w) is not type(g):
            return f"msgs: {g.TAG!r} where {w.TAG!r} was due"
        for name, value in w.fields().items():
            if getattr(g, name) != value:
                what = _MEANING.get((w.TAG, name), "")
                hq = getattr(w, "hq", None) or getattr(w, "kind", None) or ""
                return (f"msgs: its {w.TAG!r} of PSI exchange {w.qid}{' (' + hq + ')' if hq else ''} differs in "
                        f"{name}" + (f": {what}" if what else ""))
    return ""
