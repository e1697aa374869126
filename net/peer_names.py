"""Display names are claims, fingerprints are identities (issue 10 item 3).

Anyone on the network can advertise any name. This module marks what discovery sees against
the pinned peers (``known_peers.json``): which entries are pinned, which share a name with
another identity, and which use the name of a pinned peer without being it. ``wec peers`` and
the lobby show these marks; ``wec join NAME`` uses ``resolve`` to pick whom to connect to:

- a name that belongs to a pinned peer connects only to that identity; another identity
  answering the same name is refused with a warning (never paired);
- a name that no pinned peer has, answered by several identities, is ambiguous: they are
  listed with their fingerprints and the player chooses (scripts are refused);
- a fingerprint prefix names an identity directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from net.discovery import PeerInfo
from net.peers import KnownPeer


@dataclass(frozen=True)
class Marked:
    """One discovered game with its marks."""

    peer: PeerInfo
    pinned: bool                     # its identity is pinned here
    duplicate: bool                  # another identity advertises the same name
    not_pinned_as: str | None = None  # the pinned fingerprint of this name, when this is another identity

    def marks(self) -> str:
        """The marks as shown in a listing ("" if none)."""
        out = []
        if self.pinned:
            out.append("pinned")
        if self.not_pinned_as is not None:
            out.append(f"NOT the pinned {self.peer.name!r} ({self.not_pinned_as[:16]}): possible impostor")
        elif self.duplicate:
            out.append("same name as another device")
        return "; ".join(out)


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def mark(peers: Iterable[PeerInfo], pinned: Iterable[KnownPeer]) -> list[Marked]:
    """Mark each discovered game (in the order given)."""
    peers, pins = list(peers), list(pinned)
    pinned_fps = {p.fingerprint for p in pins}
    out = []
    for peer in peers:
        others = {p.fingerprint for p in peers if _same(p.name, peer.name) and p.fingerprint != peer.fingerprint}
        owner = [p.fingerprint for p in pins if _same(p.name, peer.name)]
        impostor = owner[0] if owner and peer.fingerprint not in owner else None
        out.append(Marked(peer, peer.fingerprint in pinned_fps, bool(others), impostor))
    return out


@dataclass
class Resolution:
    """What ``wec join WANTED`` should do with the peers seen so far.

    ``peer``: connect to it. ``choices``: several identities answer; ask which (or refuse).
    ``warnings``: other identities using a pinned peer's name (refused, shown to the player).
    ``wait``: nothing usable yet; keep listening. ``refused``: the reason nothing will be joined."""

    peer: PeerInfo | None = None
    choices: list[PeerInfo] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    refused: str | None = None
    first_contact: bool = False      # the name is not pinned: pairing will follow

    @property
    def wait(self) -> bool:
        return self.peer is None and not self.choices and self.refused is None


def _is_prefix(text: str) -> bool:
    return len(text) >= 4 and all(c in "0123456789abcdef" for c in text.lower())


def resolve(wanted: str, peers: Iterable[PeerInfo], pinned: Iterable[KnownPeer], final: bool) -> Resolution:
    """Whom ``wec join WANTED`` joins, given the peers seen so far (``final``: no more will come)."""
    peers, pins = list(peers), list(pinned)
    by_fp = _distinct([p for p in peers if _is_prefix(wanted) and p.fingerprint.startswith(wanted.lower())])
    if by_fp:
        return Resolution(peer=by_fp[0]) if len(by_fp) == 1 else Resolution(choices=by_fp)
    named = _distinct([p for p in peers if _same(p.name, wanted)])
    owners = {p.fingerprint: p for p in pins if _same(p.name, wanted)}
    if owners:
        genuine = [p for p in named if p.fingerprint in owners]
        warnings = [impostor_warning(p, owners) for p in named if p.fingerprint not in owners]
        if genuine:
            return Resolution(peer=genuine[0], warnings=warnings)
        if named and final:
            return Resolution(warnings=warnings, refused=(
                f"{wanted!r} is pinned here as {_fps(owners)}, but only another identity answers that name: "
                "refused, not paired. If that laptop was really reinstalled, remove its pin (wec peers --forget "
                f"{next(iter(owners))[:16]}) and pair again; to pair with the other device, join it by fingerprint"))
        return Resolution(warnings=warnings)
    if not named:
        return Resolution()
    if len(named) > 1:
        return Resolution(choices=named, first_contact=True)
    if named[0].fingerprint in {p.fingerprint for p in pins}:   # pinned under another name: known identity
        return Resolution(peer=named[0])
    return Resolution(peer=named[0], first_contact=True) if final else Resolution(first_contact=True)


def impostor_warning(peer: PeerInfo, owners: dict[str, KnownPeer]) -> str:
    """The warning about ``peer`` using the name of a pinned peer."""
    return (f"WARNING: {peer.name!r} at {peer.host}:{peer.port} has identity {peer.fingerprint[:16]}, but "
            f"{peer.name!r} is pinned here as {_fps(owners)}: another device uses that name (possible impostor); "
            "not paired with it")


def listing(choices: list[PeerInfo]) -> str:
    """The numbered list of identities answering one name."""
    return "\n".join(f"  {i}) {p.name!r} at {p.host}:{p.port}  fp {p.fingerprint[:16]}"
                     for i, p in enumerate(choices, 1))


def _fps(owners: dict[str, KnownPeer]) -> str:
    return " or ".join(fp[:16] for fp in owners)


def _distinct(peers: list[PeerInfo]) -> list[PeerInfo]:
    """One entry per identity (a laptop may advertise one game on several addresses)."""
    seen: dict[str, PeerInfo] = {}
    for p in peers:
        seen.setdefault(p.fingerprint, p)
    return sorted(seen.values(), key=lambda p: p.fingerprint)
