"""Salted, domain-separated commitments and the per-turn commitment root (issue 8 item 2).

Pure: no I/O, no clock. Randomness comes only from a ``SaltSource`` handed in (``RandomSalts``,
fresh bytes from ``secrets`` for play; ``SeededSalts`` for tests and reproducible benchmarks).

Every hash is SHA-256 over a fixed, unambiguous layout (docs/protocol.md "Commitments"):

* leaf   = H(0x00 || "wec/leaf/v1"   || context || u32 slot  || salt32 || u32 len || value)
* node   = H(0x01 || left32 || right32)
* root   = H(0x02 || "wec/root/v1"   || context || u32 n_slots || tree top)
* action = H(0x03 || "wec/action/v1" || context || u32 index || salt32 || u32 len || value)

``context`` = game id (32 bytes) || side (1 byte, "B" or "W") || u32 ply. ``value`` is the
canonical msgpack of the committed item (``net.frames.pack``); the ``DUMMY`` value (msgpack
nil) fills padding slots. The tree is RFC 6962's (the largest power of two splits, the last
odd node is carried up, never duplicated: Bitcoin CVE-2012-2459), and the root commits to the
number of slots, so one leaf can be opened with its sibling path alone.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence

import msgpack

from net.errors import ProtocolError
from net.frames import pack, unpack_strict

__all__ = ["SALT_LEN", "MAX_SLOTS", "MAX_VALUE", "DUMMY", "CommitmentError", "Context",
           "SaltSource", "RandomSalts", "SeededSalts", "LeafOpening", "TurnCommitment",
           "commit_turn", "prepare_turn", "PreparedTurn", "verify_leaf", "verify_turn", "path_length",
           "ActionOpening", "commit_action", "verify_action"]

SALT_LEN = 32            # 256-bit salts (anchors-reliability §1.13: 32 bytes from secrets)
MAX_SLOTS = 1024         # a side never has this many pieces; bounds the tree depth at 10
MAX_VALUE = 4096         # bytes of one committed item's canonical msgpack
DUMMY = None             # the value of a padding slot
SIDES = ("B", "W")
_U32 = struct.Struct(">I")
_LEAF, _NODE, _ROOT, _ACTION = b"\x00wec/leaf/v1", b"\x01", b"\x02wec/root/v1", b"\x03wec/action/v1"


class CommitmentError(ProtocolError):
    """An opening does not match its commitment; ``check`` names the test that failed:
    ``format`` (a size or type), ``domain`` (another game, side or ply), ``index`` (slot
    outside the tree), ``path`` (wrong number of siblings), ``value`` (not canonical msgpack),
    ``root`` / ``commitment`` (the hashes do not lead to what was committed)."""

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(f"commitment refused ({check}): {detail}")
        self.check = check


@dataclass(frozen=True, slots=True)
class Context:
    """What every commitment of one side at one ply is bound to (mirror and replay attacks)."""

    game_id: bytes
    side: str
    ply: int

    def __post_init__(self) -> None:
        if not (isinstance(self.game_id, bytes) and len(self.game_id) == 32):
            raise CommitmentError("format", "game id must be 32 bytes")
        if self.side not in SIDES:
            raise CommitmentError("format", f"side must be 'B' or 'W', not {self.side!r}")
        if not (isinstance(self.ply, int) and 0 <= self.ply < 2**32):
            raise CommitmentError("format", f"ply {self.ply!r} outside 0..2^32-1")

    def encode(self) -> bytes:
        """The 37-byte context block of every hash."""
        return self.game_id + self.side.encode() + _U32.pack(self.ply)

    def describe(self) -> str:
        return f"game {self.game_id.hex()[:12]}, side {self.side}, ply {self.ply}"


class SaltSource(Protocol):
    """Gives ``n`` salts of ``SALT_LEN`` bytes for the items of one context and kind."""

    def salts(self, ctx: Context, kind: str, n: int) -> list[bytes]: ...


class RandomSalts:
    """Fresh salts from the operating system's CSPRNG (``secrets``), one per item: for play.
    The caller must store them (they are in ``TurnCommitment``) before sending the root."""

    def salts(self, ctx: Context, kind: str, n: int) -> list[bytes]:
        raw = secrets.token_bytes(SALT_LEN * n)
        return [raw[i:i + SALT_LEN] for i in range(0, SALT_LEN * n, SALT_LEN)]


class SeededSalts:
    """Salts derived by HMAC-SHA256 from a seed, the context, the kind and the item number:
    deterministic, for tests and benchmarks (a secret 32-byte seed is a PRF key)."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def salts(self, ctx: Context, kind: str, n: int) -> list[bytes]:
        base = ctx.encode() + kind.encode() + b"\x00"
        return [hmac.digest(self.seed, base + _U32.pack(i), "sha256") for i in range(n)]


# ---- the per-turn tree ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LeafOpening:
    """One slot opened: its committed value (canonical msgpack bytes), salt and sibling path
    (bottom-up). ``ctx`` and ``n_slots`` say which root it claims to open."""

    ctx: Context
    n_slots: int
    slot: int
    value: bytes
    salt: bytes
    path: tuple[bytes, ...]

    def decoded(self) -> Any:
        """The committed item (``DUMMY`` for a padding slot)."""
        return unpack_strict(self.value)


@dataclass(frozen=True)
class TurnCommitment:
    """The committer's secret record of one ply: every slot's value and salt, and the tree.
    ``root`` is public (it goes into ``end-turn``); the rest stays with the committer until an
    answer or the audit opens it."""

    ctx: Context
    values: tuple[bytes, ...]
    salts: tuple[bytes, ...]
    levels: tuple[tuple[bytes, ...], ...]
    root: bytes

    @property
    def n_slots(self) -> int:
        return len(self.values)

    def open(self, slot: int) -> LeafOpening:
        """The opening of ``slot``. :raises CommitmentError: slot outside the tree."""
        if not 0 <= slot < self.n_slots:
            raise CommitmentError("index", f"slot {slot} outside 0..{self.n_slots - 1}")
        path = []
        i = slot
        for level in self.levels[:-1]:
            sib = i ^ 1
            if sib < len(level):
                path.append(level[sib])
            i //= 2
        return LeafOpening(self.ctx, self.n_slots, slot, self.values[slot], self.salts[slot],
                           tuple(path))

    def open_all(self) -> list[LeafOpening]:
        """Every slot opened (the audit, issue 8 item 5)."""
        return [self.open(s) for s in range(self.n_slots)]


@dataclass(frozen=True)
class PreparedTurn:
    """What a root of ``ctx`` costs before its items are known: every slot's salt and the leaf
    hash of ``DUMMY`` in it (``prepare_turn``; computed while waiting for the peer)."""

    ctx: Context
    n_slots: int
    salts: tuple[bytes, ...]
    dummy_leaves: tuple[bytes, ...]


def prepare_turn(ctx: Context, n_slots: int, salts: SaltSource) -> PreparedTurn:
    """The item-independent part of ``commit_turn(ctx, ..., n_slots, salts)``."""
    salt_list = salts.salts(ctx, "leaf", n_slots)
    return PreparedTurn(ctx, n_slots, tuple(salt_list), _leaves(ctx, [pack(DUMMY)] * n_slots, salt_list))


def commit_turn(ctx: Context, items: Mapping[int, Any], n_slots: int,
                salts: SaltSource, prepared: PreparedTurn | None = None) -> TurnCommitment:
    """Commit to ``items`` (slot -> msgpack-able value) in a tree of ``n_slots`` leaves; every
    slot not in ``items`` holds ``DUMMY``. ``prepared``: ``prepare_turn`` of the same context,
    size and salts (the same root, sooner). :raises CommitmentError: bad slot, count or size."""
    if not (isinstance(n_slots, int) and 1 <= n_slots <= MAX_SLOTS):
        raise CommitmentError("format", f"n_slots {n_slots!r} outside 1..{MAX_SLOTS}")
    bad = [s for s in items if not (isinstance(s, int) and 0 <= s < n_slots)]
    if bad:
        raise CommitmentError("index", f"slot {bad[0]!r} outside 0..{n_slots - 1}")
    packer = msgpack.Packer(use_bin_type=True)     # one packer per turn: same bytes as pack()
    dummy = pack(DUMMY)
    values = [dummy] * n_slots
    for s, v in items.items():
        values[s] = _value_bytes(v, packer)
    if prepared is not None and prepared.ctx == ctx and prepared.n_slots == n_slots:
        salt_list = list(prepared.salts)
        leaf_list = list(prepared.dummy_leaves)
        prefix, u32 = _LEAF + ctx.encode(), _U32.pack
        for s in items:
            v = values[s]
            leaf_list[s] = hashlib.sha256(prefix + _INDEX[s] + salt_list[s] + u32(len(v)) + v).digest()
        leaves = tuple(leaf_list)
    else:
        salt_list = salts.salts(ctx, "leaf", n_slots)
        leaves = _leaves(ctx, values, salt_list)
    levels = _levels(leaves)
    root = _root(ctx, n_slots, levels[-1][0])
    return TurnCommitment(ctx, tuple(values), tuple(salt_list), levels, root)


def verify_turn(expected: Context, n_slots: int, root: bytes,
                openings: Sequence[LeafOpening]) -> list[Any]:
    """The audit's check of a whole turn: ``openings`` are every slot in order; rebuild the tree
    once and return every committed item. :raises CommitmentError: naming the first failure."""
    if len(openings) != n_slots or [op.slot for op in openings] != list(range(n_slots)):
        raise CommitmentError("index", f"{expected.describe()}: the audit needs slots 0..{n_slots - 1} "
                                       f"in order, got {len(openings)} openings")
    items = []
    for op in openings:
        where = f"slot {op.slot} of {expected.describe()}"
        if op.ctx != expected or op.n_slots != n_slots:
            raise CommitmentError("domain", f"{where}: the opening is for {op.ctx.describe()}, {op.n_slots} slots")
        if not (isinstance(op.salt, bytes) and len(op.salt) == SALT_LEN):
            raise CommitmentError("format", f"{where}: salt must be {SALT_LEN} bytes")
        items.append(_decode_value(op.value, where))
    levels = _levels(_leaves(expected, [op.value for op in openings], [op.salt for op in openings]))
    got = _root(expected, n_slots, levels[-1][0])
    if not hmac.compare_digest(got, root):
        raise CommitmentError("root", f"{expected.describe()}: the {n_slots} opened slots lead to root "
                                      f"{got.hex()[:16]}…, not the committed {root.hex()[:16]}…")
    return items


def path_length(slot: int, n_slots: int) -> int:
    """The number of siblings on ``slot``'s path in a tree of ``n_slots`` leaves."""
    length, i, width = 0, slot, n_slots
    while width > 1:
        if (i ^ 1) < width:
            length += 1
        i, width = i // 2, (width + 1) // 2
    return length


def verify_leaf(expected: Context, n_slots: int, root: bytes, op: LeafOpening, decode: bool = True) -> Any:
    """Check that ``op`` opens ``root`` (committed by ``expected``'s side at its ply, over
    ``n_slots`` slots) and return the committed item (None with ``decode`` False: the caller
    holds these very value bytes decoded already; the size is still checked).

    :raises CommitmentError: naming the check that failed and the slot, context and roots.
    """
    where = f"slot {op.slot} of {expected.describe()}"
    if op.ctx != expected:
        raise CommitmentError("domain", f"{where}: the opening is for {op.ctx.describe()}")
    if op.n_slots != n_slots:
        raise CommitmentError("domain", f"{where}: opening claims {op.n_slots} slots, root has {n_slots}")
    if not (isinstance(op.slot, int) and 0 <= op.slot < n_slots):
        raise CommitmentError("index", f"{where}: slot outside 0..{n_slots - 1}")
    if not (isinstance(op.salt, bytes) and len(op.salt) == SALT_LEN):
        raise CommitmentError("format", f"{where}: salt must be {SALT_LEN} bytes")
    want = path_length(op.slot, n_slots)
    if len(op.path) != want or not all(isinstance(h, bytes) and len(h) == 32 for h in op.path):
        raise CommitmentError("path", f"{where}: path has {len(op.path)} siblings, needs {want} of 32 bytes")
    if decode:
        item = _decode_value(op.value, where)
    elif not (isinstance(op.value, bytes) and len(op.value) <= MAX_VALUE):
        raise CommitmentError("format", f"{where}: value must be at most {MAX_VALUE} bytes")
    else:
        item = None
    h = hashlib.sha256(_LEAF + expected.encode() + _U32.pack(op.slot) + op.salt
                       + _U32.pack(len(op.value)) + op.value).digest()
    i, width, k = op.slot, n_slots, 0
    while width > 1:
        if (i ^ 1) < width:
            sib = op.path[k]
            k += 1
            h = _node(sib, h) if i & 1 else _node(h, sib)
        i, width = i // 2, (width + 1) // 2
    got = _root(expected, n_slots, h)
    if not hmac.compare_digest(got, root):
        raise CommitmentError("root", f"{where}: value, salt and path lead to root {got.hex()[:16]}…, "
                                      f"not the committed {root.hex()[:16]}…")
    return item


# ---- hidden actions (HQ-14..HQ-16) -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ActionOpening:
    """The later opening of a hidden action: its number in the game, its value, its salt."""

    ctx: Context
    index: int
    value: bytes
    salt: bytes

    def decoded(self) -> Any:
        return unpack_strict(self.value)


def commit_action(ctx: Context, index: int, action: Any, salts: SaltSource) -> tuple[bytes, ActionOpening]:
    """Commit to hidden action number ``index`` (its notation text or any msgpack-able value):
    (the 32-byte commitment to send, the opening to keep for the audit)."""
    if not (isinstance(index, int) and 0 <= index < 2**32):
        raise CommitmentError("index", f"action index {index!r} outside 0..2^32-1")
    value = _value_bytes(action)
    (salt,) = salts.salts(ctx, f"action/{index}", 1)
    op = ActionOpening(ctx, index, value, salt)
    return _action_hash(ctx, op), op


def verify_action(expected: Context, index: int, commitment: bytes, op: ActionOpening) -> Any:
    """Check that ``op`` opens hidden action ``index``'s ``commitment``; return the action.

    :raises CommitmentError: naming the check that failed.
    """
    where = f"hidden action {index} of {expected.describe()}"
    if op.ctx != expected:
        raise CommitmentError("domain", f"{where}: the opening is for {op.ctx.describe()}")
    if op.index != index:
        raise CommitmentError("index", f"{where}: the opening is for action {op.index}")
    if not (isinstance(op.salt, bytes) and len(op.salt) == SALT_LEN):
        raise CommitmentError("format", f"{where}: salt must be {SALT_LEN} bytes")
    if not (isinstance(commitment, bytes) and len(commitment) == 32):
        raise CommitmentError("format", f"{where}: commitment must be 32 bytes")
    item = _decode_value(op.value, where)
    if not hmac.compare_digest(_action_hash(expected, op), commitment):
        raise CommitmentError("commitment", f"{where}: value and salt do not hash to the "
                                            f"committed {commitment.hex()[:16]}…")
    return item


# ---- helpers ---------------------------------------------------------------------------------

def _value_bytes(v: Any, packer: Any = None) -> bytes:
    try:
        data = bytes(packer.pack(v)) if packer is not None else pack(v)
    except Exception as exc:
        raise CommitmentError("value", f"not msgpack-able: {type(exc).__name__}") from None
    if len(data) > MAX_VALUE:
        raise CommitmentError("format", f"value of {len(data)} bytes exceeds MAX_VALUE ({MAX_VALUE})")
    return data


def _decode_value(value: bytes, where: str) -> Any:
    if not (isinstance(value, bytes) and len(value) <= MAX_VALUE):
        raise CommitmentError("format", f"{where}: value must be at most {MAX_VALUE} bytes")
    try:
        return unpack_strict(value)
    except ProtocolError as exc:
        raise CommitmentError("value", f"{where}: {exc}") from None


_INDEX = tuple(_U32.pack(i) for i in range(MAX_SLOTS))


def _leaves(ctx: Context, values: Sequence[bytes], salts: Sequence[bytes]) -> tuple[bytes, ...]:
    prefix = _LEAF + ctx.encode()
    sha, u32, index = hashlib.sha256, _U32.pack, _INDEX
    return tuple(sha(prefix + index[i] + salts[i] + u32(len(v)) + v).digest()
                 for i, v in enumerate(values))


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_NODE + left + right).digest()


def _levels(leaves: Sequence[bytes]) -> tuple[tuple[bytes, ...], ...]:
    """Bottom-up levels; an odd last node is carried up unchanged (= RFC 6962's split)."""
    levels = [tuple(leaves)]
    sha = hashlib.sha256
    while len(levels[-1]) > 1:
        cur = levels[-1]
        nxt = [sha(_NODE + cur[i] + cur[i + 1]).digest() for i in range(0, len(cur) - 1, 2)]
        if len(cur) % 2:
            nxt.append(cur[-1])
        levels.append(tuple(nxt))
    return tuple(levels)


def _root(ctx: Context, n_slots: int, top: bytes) -> bytes:
    return hashlib.sha256(_ROOT + ctx.encode() + _U32.pack(n_slots) + top).digest()


def _action_hash(ctx: Context, op: ActionOpening) -> bytes:
    return hashlib.sha256(_ACTION + ctx.encode() + _U32.pack(op.index) + op.salt
                          + _U32.pack(len(op.value)) + op.value).digest()
