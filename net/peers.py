"""The known-peers store: identities pinned after a mutually confirmed pairing.

One JSON file, ``known_peers.json`` in the data directory, written atomically. A peer is
keyed by its identity fingerprint (SHA-256 of the raw public key) and holds its certificate
(PEM, the TLS trust anchor), its certificate pin, its display name and its last address.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from net.atomic import write_atomic

PEERS_FILE = "known_peers.json"


@dataclass(frozen=True)
class KnownPeer:
    """One pinned peer."""

    fingerprint: str
    public_key: str  # hex of the raw Ed25519 key
    cert_pem: str
    cert_pin: str
    name: str
    address: str = ""  # last "host:port" it was reached at (only a hint, never identity)


class PeerStore:
    """Load, query and update the pinned peers of one installation."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / PEERS_FILE
        self._peers: dict[str, KnownPeer] = {}
        if self.path.exists():
            data = json.loads(self.path.read_text())
            self._peers = {fp: KnownPeer(**entry) for fp, entry in data["peers"].items()}

    def all(self) -> list[KnownPeer]:
        """Every pinned peer, ordered by fingerprint."""
        return [self._peers[k] for k in sorted(self._peers)]

    def get(self, fingerprint: str) -> KnownPeer | None:
        """The peer with this exact fingerprint, if pinned."""
        return self._peers.get(fingerprint)

    def by_cert_pin(self, cert_pin: str) -> KnownPeer | None:
        """The peer whose certificate has this pin."""
        return next((p for p in self._peers.values() if p.cert_pin == cert_pin), None)

    def by_address(self, address: str) -> KnownPeer | None:
        """The peer last reached at ``address``."""
        return next((p for p in self._peers.values() if p.address == address), None)

    def by_prefix(self, text: str) -> list[KnownPeer]:
        """Peers whose fingerprint starts with ``text`` or whose name equals it."""
        return [p for p in self.all() if p.fingerprint.startswith(text.lower()) or p.name == text]

    def add(self, peer: KnownPeer) -> None:
        """Pin ``peer`` (after mutual confirmation). Never replaces a different key silently."""
        old = self._peers.get(peer.fingerprint)
        if old is not None and old.cert_pin != peer.cert_pin:
            raise ValueError(f"peer {peer.fingerprint[:16]} is pinned to another certificate")
        self._peers[peer.fingerprint] = peer
        self._save()

    def remember_address(self, fingerprint: str, address: str) -> None:
        """Record where a pinned peer was last reached."""
        peer = self._peers.get(fingerprint)
        if peer is not None and peer.address != address:
            self._peers[fingerprint] = replace(peer, address=address)
            self._save()

    def remove(self, fingerprint: str) -> bool:
        """Forget a peer (the only way to re-pair after an identity change)."""
        found = self._peers.pop(fingerprint, None) is not None
        if found:
            self._save()
        return found

    def pems(self) -> list[str]:
        """The pinned certificates, for the TLS trust store."""
        return [p.cert_pem for p in self.all()]

    def _save(self) -> None:
        data = {"version": 1, "peers": {fp: asdict(p) for fp, p in sorted(self._peers.items())}}
        write_atomic(self.path, json.dumps(data, indent=1).encode())
