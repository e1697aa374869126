"""Our action's text sealed to ourselves (issue 8 item 6: resume from one's own data).

The first message of each of our actions carries its text encrypted with ChaCha20-Poly1305
under a key only we hold (derived from our per-game salt secret, which is in our log from our
``finish``). The peer stores it with the message, so if our log loses its tail (a power loss)
or is damaged, the peer's copy gives the text back to us, and to nobody else. Deterministic
(the nonce is derived from the action number and event), so that the audit's honest re-run of
a side, knowing its secret, sends the same bytes. Texts are padded to 128 bytes: the length of
the seal says nothing about the action.
"""
from __future__ import annotations

import hmac

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from net.errors import ProtocolError

PAD = 128


def _key(seed: bytes) -> bytes:
    return hmac.digest(seed, b"wec/self-seal/key/v1", "sha256")


def _nonce(seed: bytes, game_id: bytes, ev: int, index: int) -> bytes:
    return hmac.digest(seed, b"wec/self-seal/nonce/v1" + game_id + ev.to_bytes(8, "big") + index.to_bytes(8, "big"),
                       "sha256")[:12]


def seal(seed: bytes, game_id: bytes, ev: int, index: int, text: str) -> bytes:
    """The sealed ``text`` of our action ``index`` started at event ``ev``."""
    raw = text.encode()
    if len(raw) > PAD:
        raise ValueError(f"action text of {len(raw)} bytes exceeds {PAD}")
    return ChaCha20Poly1305(_key(seed)).encrypt(_nonce(seed, game_id, ev, index), raw.ljust(PAD, b"\0"), game_id)


def unseal(seed: bytes, game_id: bytes, ev: int, index: int, sealed: bytes) -> str:
    """:raises ProtocolError: not sealed by us for this action."""
    try:
        raw = ChaCha20Poly1305(_key(seed)).decrypt(_nonce(seed, game_id, ev, index), sealed, game_id)
    except InvalidTag:
        raise ProtocolError(f"the sealed text of our action {index} does not open with our key") from None
    return raw.rstrip(b"\0").decode()
