"""First contact: commit-then-reveal nonce exchange and a 6-digit code bound to both certificates.

Like Bluetooth numeric comparison (anchors-reliability §1.3, §3.2): the initiator (the
joining laptop) commits to its nonce before it sees the responder's nonce, so neither a
peer nor a man in the middle can grind keys or nonces to hit a chosen code; each attempt
succeeds with probability 10**-6 and a failure is visible to both players. Both players
confirm; each side then signs the pairing transcript, and a peer is pinned only after the
local confirmation *and* the peer's valid signature.
"""
from __future__ import annotations

import enum
import hashlib
import secrets
from typing import Callable

from net.certs import cert_public_key
from net.errors import ProtocolError
from net.identity import Identity
from net.keys import check_public_key, verify
from net.messages import PROTOCOL_VERSION, Message, PairCommit, PairConfirm, PairNonce, PairReveal
from net.outputs import Event, Output, Send, Stop

CODE_DIGITS = 6
CONFIRM_CONTEXT = b"wec/pair-confirm/v1\x00"


def commitment(nonce: bytes, id_pub: bytes, cert_der: bytes) -> bytes:
    """The initiator's commitment to its nonce, bound to its key and certificate."""
    return hashlib.sha256(b"wec/pair-commit/v1" + _lp(nonce, id_pub, hashlib.sha256(cert_der).digest())).digest()


def short_code(cert_r: bytes, cert_i: bytes, id_pub_i: bytes, id_pub_r: bytes, nonce_i: bytes, nonce_r: bytes,
               *, version: int = PROTOCOL_VERSION, digits: int = CODE_DIGITS) -> str:
    """The code both screens show, from both certificates, keys and nonces and the protocol version."""
    h = hashlib.sha256(b"wec/pair-sas/v1" + _lp(version.to_bytes(4, "big"), hashlib.sha256(cert_r).digest(),
                                                hashlib.sha256(cert_i).digest(), id_pub_i, id_pub_r,
                                                nonce_i, nonce_r)).digest()
    value = int.from_bytes(h[:8], "big") % 10**digits
    text = f"{value:0{digits}d}"
    return f"{text[:3]} {text[3:]}" if digits == 6 else text


class PairState(enum.Enum):
    I_START = "initiator: not started"
    I_COMMITTED = "initiator: commitment sent"
    R_WAITING = "responder: waiting for commitment"
    R_NONCE_SENT = "responder: nonce sent"
    CONFIRMING = "code shown, waiting for both confirmations"
    PAIRED = "paired"
    FAILED = "failed"


class Pairing:
    """One pairing attempt. ``role`` is "initiator" (client) or "responder" (server).

    ``peer_cert`` is the server certificate the initiator saw in TLS (None for the responder).
    """

    def __init__(self, role: str, identity: Identity, cert_der: bytes, peer_cert: bytes | None = None,
                 random: Callable[[int], bytes] = secrets.token_bytes, digits: int = CODE_DIGITS) -> None:
        self.role, self.identity, self.cert, self.digits = role, identity, cert_der, digits
        self.peer_cert, self.peer_pub = peer_cert, b""
        self.nonce = random(32)
        self.peer_nonce = self.peer_commit = b""
        self.code = ""
        self._transcript = b""
        self.local: bool | None = None
        self.remote_ok = False
        self.state = PairState.I_START if role == "initiator" else PairState.R_WAITING

    def start(self) -> list[Output]:
        """Initiator: send the commitment."""
        if self.state is not PairState.I_START:
            raise RuntimeError("only an unstarted initiator can start")
        self.state = PairState.I_COMMITTED
        return [Send(PairCommit(self.identity.public_bytes, self.cert,
                                commitment(self.nonce, self.identity.public_bytes, self.cert)))]

    def receive(self, msg: Message) -> list[Output]:
        """Feed one peer message; an unexpected message fails the pairing."""
        handler = _TRANSITIONS.get((self.state, type(msg)))
        if handler is None:
            return self._fail(f"pairing: unexpected {msg.TAG!r} in state {self.state.name}")
        try:
            return handler(self, msg)
        except ProtocolError as exc:
            return self._fail(f"pairing: {exc}")

    def answer(self, accept: bool) -> list[Output]:
        """The local player's answer to "do both screens show this code?"."""
        if self.state is not PairState.CONFIRMING or self.local is not None:
            return []
        self.local = accept
        if not accept:
            self.state = PairState.FAILED
            return [Send(PairConfirm(False, b"")), Stop("pairing refused here: the codes were not confirmed")]
        sig = self.identity.sign(CONFIRM_CONTEXT + self._transcript + self.role.encode())
        return [Send(PairConfirm(True, sig))] + self._maybe_done()

    # ---- handlers ----

    def _on_commit(self, msg: PairCommit) -> list[Output]:
        check_public_key(msg.id_pub)
        if cert_public_key(msg.cert) != msg.id_pub:
            raise ProtocolError("initiator certificate does not hold its identity key")
        self.peer_pub, self.peer_cert, self.peer_commit = msg.id_pub, msg.cert, msg.commit
        self.state = PairState.R_NONCE_SENT
        return [Send(PairNonce(self.identity.public_bytes, self.nonce))]

    def _on_nonce(self, msg: PairNonce) -> list[Output]:
        check_public_key(msg.id_pub)
        if self.peer_cert is None or cert_public_key(self.peer_cert) != msg.id_pub:
            raise ProtocolError("responder identity does not match its TLS certificate")
        self.peer_pub, self.peer_nonce = msg.id_pub, msg.nonce
        self._show(cert_r=self.peer_cert, cert_i=self.cert, pub_i=self.identity.public_bytes, pub_r=msg.id_pub,
                   nonce_i=self.nonce, nonce_r=msg.nonce)
        return [Send(PairReveal(self.nonce)), Event("pair-code", {"code": self.code})]

    def _on_reveal(self, msg: PairReveal) -> list[Output]:
        if commitment(msg.nonce, self.peer_pub, self.peer_cert or b"") != self.peer_commit:
            raise ProtocolError("revealed nonce does not match the commitment (possible interception)")
        self.peer_nonce = msg.nonce
        self._show(cert_r=self.cert, cert_i=self.peer_cert or b"", pub_i=self.peer_pub, pub_r=self.identity.public_bytes,
                   nonce_i=msg.nonce, nonce_r=self.nonce)
        return [Event("pair-code", {"code": self.code})]

    def _on_confirm(self, msg: PairConfirm) -> list[Output]:
        if not msg.accept:
            return self._fail("the other player did not confirm the code: not paired (possible interception)")
        peer_role = b"responder" if self.role == "initiator" else b"initiator"
        if not verify(check_public_key(self.peer_pub), msg.sig, CONFIRM_CONTEXT + self._transcript + peer_role):
            return self._fail("the peer's pairing confirmation has a bad signature")
        self.remote_ok = True
        return self._maybe_done()

    # ---- helpers ----

    def _show(self, *, cert_r: bytes, cert_i: bytes, pub_i: bytes, pub_r: bytes, nonce_i: bytes,
              nonce_r: bytes) -> None:
        self.code = short_code(cert_r, cert_i, pub_i, pub_r, nonce_i, nonce_r, digits=self.digits)
        self._transcript = hashlib.sha256(b"wec/pair-transcript/v1" + _lp(
            cert_r, cert_i, pub_i, pub_r, nonce_i, nonce_r, self.code.encode())).digest()
        self.state = PairState.CONFIRMING

    def _maybe_done(self) -> list[Output]:
        if self.local and self.remote_ok:
            self.state = PairState.PAIRED
            return [Event("paired", {"peer_pub": self.peer_pub, "peer_cert": self.peer_cert})]
        return []

    def _fail(self, reason: str) -> list[Output]:
        self.state = PairState.FAILED
        return [Stop(reason)]


def _lp(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


_TRANSITIONS: dict[tuple[PairState, type], Callable[[Pairing, Message], list[Output]]] = {
    (PairState.R_WAITING, PairCommit): Pairing._on_commit,  # type: ignore[dict-item]
    (PairState.I_COMMITTED, PairNonce): Pairing._on_nonce,  # type: ignore[dict-item]
    (PairState.R_NONCE_SENT, PairReveal): Pairing._on_reveal,  # type: ignore[dict-item]
    (PairState.CONFIRMING, PairConfirm): Pairing._on_confirm,  # type: ignore[dict-item]
}
