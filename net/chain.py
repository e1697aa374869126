"""Signed, numbered, hash-chained game messages (one chain per sender).

Payload (canonical msgpack): ``[v, chain_id, sender_pub, seq, prev, [tag, {fields}]]``.
Signature: Ed25519 over ``b"wec/msg/v1\\0" + payload`` (verified over the exact received bytes).
Message id: ``sha256(b"wec/chain/v1" + payload)`` (never the signature, which is not unique).
``prev`` of seq 0 is ``sha256(b"wec/genesis/v1" + chain_id + sender_pub)``; of seq n, the id of n-1.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from net.errors import EquivocationError, IntegrityError, ProtocolError
from net.frames import pack, unpack_strict
from net.identity import Identity
from net.keys import check_public_key, verify
import net.hidden_wire  # noqa: F401  (registers the hidden-play game messages)
from net.messages import GAME, PROTOCOL_VERSION, Message, Signed, decode_fields, encode_fields

SIG_CONTEXT = b"wec/msg/v1\x00"


def message_id(payload: bytes) -> bytes:
    """Chain id of a payload: SHA-256 over a domain tag and the payload bytes."""
    return hashlib.sha256(b"wec/chain/v1" + payload).digest()


def genesis(chain_id: bytes, sender_pub: bytes) -> bytes:
    """``prev`` of a sender's first message in a chain."""
    return hashlib.sha256(b"wec/genesis/v1" + chain_id + sender_pub).digest()


def derive_chain_id(host_pub: bytes, guest_pub: bytes, host_nonce: bytes, guest_nonce: bytes) -> bytes:
    """Identifier of one game's transcript, bound to both identities and both hello nonces."""
    return hashlib.sha256(b"wec/chain-id/v1" + host_pub + guest_pub + host_nonce + guest_nonce).digest()


@dataclass(frozen=True)
class Verified:
    """A verified game message with its position in the sender's chain."""

    seq: int
    message: Message
    signed: Signed


class ChainWriter:
    """Signs our messages in order: each one numbered and chained to the previous one."""

    def __init__(self, identity: Identity, chain_id: bytes) -> None:
        self.identity, self.chain_id = identity, chain_id
        self._pub = identity.public_bytes   # derived once, not per message
        self.seq, self.prev = 0, genesis(chain_id, self._pub)

    def sign(self, msg: Message) -> Signed:
        """Sign ``msg`` as the next message of our chain (does not advance; see ``advance``)."""
        payload = pack([PROTOCOL_VERSION, self.chain_id, self._pub, self.seq, self.prev,
                        encode_fields(msg)])
        return Signed(payload, self.identity.sign(SIG_CONTEXT + payload))

    def advance(self, signed: Signed) -> None:
        """Record that ``signed`` (from ``sign``) was logged and is now part of our chain."""
        self.seq += 1
        self.prev = message_id(signed.payload)


class ChainReader:
    """Checks the peer's messages: signature, version, game, sender, sequence and chain link."""

    def __init__(self, peer_pub: bytes, chain_id: bytes) -> None:
        self.peer_pub, self.chain_id = peer_pub, chain_id
        self._key = check_public_key(peer_pub)
        self.received: list[Signed] = []
        self.prev = genesis(chain_id, peer_pub)

    @property
    def seq(self) -> int:
        """Sequence number expected next."""
        return len(self.received)

    def check(self, signed: Signed) -> Verified | None:
        """Verify the next peer message; ``None`` for a byte-identical replay of an old one.

        :raises IntegrityError: bad signature, version, game, sender, sequence gap or chain link.
        :raises EquivocationError: a different message signed with an already used number.
        :raises ProtocolError: a malformed payload.
        """
        if not verify(self._key, signed.sig, SIG_CONTEXT + signed.payload):
            raise IntegrityError("bad signature on game message (forged or corrupted)")
        v, chain_id, sender, seq, prev, body = _fields(signed.payload)
        if v != PROTOCOL_VERSION:
            raise IntegrityError(f"version mismatch: game message v{v}, we speak v{PROTOCOL_VERSION}")
        if chain_id != self.chain_id:
            raise IntegrityError("game message belongs to another game (cross-game replay)")
        if sender != self.peer_pub:
            raise IntegrityError("game message claims another sender than the authenticated peer")
        if seq < self.seq:
            if self.received[seq].payload == signed.payload:
                return None
            raise EquivocationError(f"equivocation: two different messages signed with seq {seq}")
        if seq > self.seq:
            raise IntegrityError(f"out-of-order message: expected seq {self.seq}, got {seq} (reordered or lost)")
        if prev != self.prev:
            raise IntegrityError(f"broken chain at seq {seq}: prev does not match the previous message")
        message = decode_fields(body, GAME, "game")
        return Verified(seq, message, signed)

    def accept(self, verified: Verified) -> None:
        """Record a verified message (after it was logged) as the chain head."""
        self.received.append(verified.signed)
        self.prev = message_id(verified.signed.payload)


def _fields(payload: bytes) -> tuple[int, bytes, bytes, int, bytes, list[object]]:
    obj = unpack_strict(payload)
    if not (isinstance(obj, list) and len(obj) == 6):
        raise ProtocolError("signed payload must be [v, chain, sender, seq, prev, body]")
    v, chain_id, sender, seq, prev, body = obj
    ok = (isinstance(v, int) and not isinstance(v, bool) and isinstance(chain_id, bytes) and len(chain_id) == 32
          and isinstance(sender, bytes) and len(sender) == 32 and isinstance(seq, int)
          and not isinstance(seq, bool) and seq >= 0 and isinstance(prev, bytes) and len(prev) == 32)
    if not ok:
        raise ProtocolError("signed payload header has a bad type or size")
    return v, chain_id, sender, seq, prev, body  # type: ignore[return-value]
