"""Errors raised by the network layer; each message names the limit or rule broken."""
from __future__ import annotations


class NetError(Exception):
    """Base class for network-play errors that are reported to the player."""


class ProtocolError(NetError):
    """The peer sent something the protocol forbids (bad frame, type, field, size or order)."""


class IntegrityError(ProtocolError):
    """A signed message failed its signature, sequence or chain check."""


class EquivocationError(IntegrityError):
    """The peer signed two different messages with the same sequence number."""


class IdentityChanged(NetError):
    """The peer presented an identity other than the one pinned for it: possible impostor."""


class NotPaired(NetError):
    """The peer is not in the known-peers store and pairing was not requested or failed."""


class PairingFailed(NetError):
    """Pairing was cancelled, refused, timed out or the codes could not match (possible interception)."""


class PeerTimeout(NetError):
    """The peer stopped answering within the configured deadline."""


class Desync(NetError):
    """Both sides' state hashes differ: the game is stopped with a diagnosis."""
