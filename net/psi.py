"""Private set intersection over X25519 for the questions that would disclose the asker's own
hidden pieces (issue 8 item 4; 00 HQ-1, HQ-10, HQ-11, HQ-12; docs/protocol.md "PSI").

Diffie-Hellman PSI: each cell is hashed to a Curve25519 u-coordinate (``cell_u``), the asker
blinds its cells with a secret scalar ``a``, the responder blinds its own cells with ``b`` and
re-blinds the asker's; X25519 scalar multiplication commutes (``X25519(a, X25519(b, u)) ==
X25519(b, X25519(a, u))``), so the asker, raising the responder's set to ``a``, can compare
``H(c)^ab`` values without either side seeing the other's cells. Modes (``PSI_MODES``):

* ``first`` (HQ-1, HQ-11, HQ-12): the asker's cells are an ordered list; it sends them one at a
  time and, from the first hit on, sends padding values instead: it learns only the first
  listed cell that holds a responder piece. The responder learns the padded length only.
* ``set`` (HQ-10): all at once; the asker learns which of its cells hold responder pieces.
* ``count`` (HQ-12 Bike rides): the responder sorts the re-blinded values; the asker learns
  only how many of its cells hold responder pieces.

Lists are padded to public sizes with values derived from a secret padding seed, sets are
deduplicated and sorted (a sort of random-looking values is a shuffle), and every reply names
the responder's committed root. At the audit both sides send ``PsiReveal`` (scalar and seed)
and ``audit_exchange`` recomputes every value and the asker's claimed result.
Pure: no I/O; the scalars and seeds are handed in (``new_secrets``).
"""
from __future__ import annotations

import hashlib
import secrets
import struct
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from net.errors import ProtocolError
from net.frames import pack
from net.hidden_messages import (MAX_PSI_X, MAX_PSI_Z, PSI_MODES, PsiQuery, PsiReply, PsiResult,
                                 PsiReveal, PsiStep, PsiStepReply)

__all__ = ["P", "Cell", "PsiError", "PsiAuditError", "PsiContext", "cell_u", "pad_u",
           "Blinder", "check_u", "on_curve", "unblinds", "warm", "warm_points", "new_secrets", "PsiAsker",
           "PsiResponder", "audit_exchange"]

P = 2**255 - 19
Cell = tuple[int, int, str]
_U32 = struct.Struct(">I")
#: u-coordinates of the points of small order on Curve25519 and its twist (RFC 7748 §6.1 notes;
#: X25519 maps them to zero, which ``cryptography`` refuses)
SMALL_ORDER = frozenset({
    0, 1, P - 1,
    325606250916557431795983626356110631294008115727848805560023387167927233504,
    39382357235489614581723060781553021112529911719440698176882885853963445705823,
})


#: the prime orders of the large subgroups of the curve (order 8 L_CURVE) and of its twist
#: (order 4 L_TWIST = 2 (p + 1) - 8 L_CURVE)
L_CURVE = 2**252 + 27742317777372353535851937790883648493
L_TWIST = (2 * (P + 1) - 8 * L_CURVE) // 4
_A = 486662


def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd n > 0 (binary algorithm; a Legendre symbol for n = p,
    three times faster here than Euler's criterion with ``pow``)."""
    a %= n
    t = 1
    while a:
        z = (a & -a).bit_length() - 1
        if z:
            a >>= z
            if z & 1 and n & 7 in (3, 5):
                t = -t
        if a & n & 3 == 3:
            t = -t
        a, n = n % a, a
    return t if n == 1 else 0


def on_curve(u: int) -> bool:
    """Whether u-coordinate ``u`` is a point of Curve25519 (else of its twist): u^3 + A u^2 + u
    is a square mod p (0, the point of order 2, counts as the curve)."""
    return _jacobi((u * u * u + _A * u * u + u) % P, P) != -1


def _clamp(scalar: bytes) -> int:
    """X25519's clamping (RFC 7748 §5): bits 0-2 and 255 cleared, bit 254 set."""
    return (int.from_bytes(scalar, "little") & ~7 & ((1 << 255) - 1)) | (1 << 254)


def _as_clamped(t: int, order: int) -> int | None:
    """A clamped scalar (a multiple of 8 in [2^254, 2^255)) congruent to ``t`` mod ``order``, or
    None: by the CRT it is unique mod 8 x order, so one exists for about half of the ``t``
    (a quarter on the twist)."""
    m = 8 * order
    c = 8 * (t * pow(8, -1, order) % order)
    c += -((c - (1 << 254)) // m) * m if c < 1 << 254 else 0
    return c if (1 << 254) <= c < (1 << 255) else None


def _inverse_chain(scalar: bytes, order: int) -> tuple[X25519PrivateKey, ...]:
    """X25519 keys whose scalars multiply to the inverse of ``scalar``'s clamped value mod
    ``order``: one when the inverse has a clamped form, else a public constant's and the rest's
    (the first of ``_UNBLIND_STEPS`` whose rest has one). Pure: nothing of it is sent."""
    inv = pow(_clamp(scalar), -1, order)
    c = _as_clamped(inv, order)
    if c is not None:
        return (X25519PrivateKey.from_private_bytes(c.to_bytes(32, "little")),)
    for s1 in _UNBLIND_STEPS:
        c = _as_clamped(inv * pow(s1, -1, order) % order, order)
        if c is not None:
            return (X25519PrivateKey.from_private_bytes(s1.to_bytes(32, "little")),
                    X25519PrivateKey.from_private_bytes(c.to_bytes(32, "little")))
    raise PsiError("no inverse scalar found (probability below 2^-200)")  # pragma: no cover


_UNBLIND_STEPS = tuple(_clamp(hashlib.sha256(b"wec/psi-unblind/v1" + bytes([i])).digest()) for i in range(256))


class PsiError(ProtocolError):
    """A PSI message breaks the exchange: a bad point, a wrong size, step or question id."""


class PsiAuditError(ProtocolError):
    """The opened scalars show that a side did not follow the exchange; ``check`` names it:
    ``asker-blinding``, ``probe``, ``responder-blinding``, ``responder-set``, ``result``."""

    def __init__(self, check: str, qid: int, detail: str) -> None:
        super().__init__(f"PSI exchange {qid} fails the audit ({check}): {detail}")
        self.check = check


@dataclass(frozen=True, slots=True)
class PsiContext:
    """One exchange: the game, the ply, the question's number in the asker's chain, the HQ
    item and the asker's side. Cells are hashed under it, so no two exchanges' values link."""

    game_id: bytes
    ply: int
    qid: int
    hq: str
    asker: str

    def encode(self) -> bytes:
        return _encode_ctx(self)


@lru_cache(maxsize=256)
def _encode_ctx(ctx: PsiContext) -> bytes:
    return (ctx.game_id + _U32.pack(ctx.ply) + _U32.pack(ctx.qid) + ctx.hq.encode()
            + b"\x00" + ctx.asker.encode())


@lru_cache(maxsize=1024)
def _cell_bytes(cell: Cell) -> bytes:
    return pack([cell[0], cell[1], cell[2]])


def cell_u(ctx: PsiContext, cell: Cell) -> bytes:
    """The cell as a Curve25519 u-coordinate: SHA-256 of a domain tag, the context, a counter
    and the cell's canonical msgpack, top bit cleared, reduced mod p; try the next counter on
    one of the small-order values (probability about 2^-253). (Cached, as ``pad_u`` and the
    context's and the cell's encodings: pure functions of immutable values; the work ahead
    computes an exchange's values, and its real run then finds them.)"""
    return _cell_u(ctx, tuple(cell))  # type: ignore[arg-type]


@lru_cache(maxsize=8192)
def _cell_u(ctx: PsiContext, cell: Cell) -> bytes:
    return _hash_u(b"wec/psi-cell/v1\x00" + _encode_ctx(ctx), _cell_bytes(cell))


@lru_cache(maxsize=8192)
def pad_u(ctx: PsiContext, seed: bytes, role: str, j: int) -> bytes:
    """Padding value ``j`` of ``role`` ("asker" or "responder"): derived from the secret seed,
    so nobody can test for it and the audit can recognise it."""
    return _hash_u(b"wec/psi-pad/v1\x00" + _encode_ctx(ctx) + role.encode() + b"\x00" + seed,
                   _U32.pack(j))


def check_u(u: bytes, what: str = "value") -> int:
    """``u`` as an integer. :raises PsiError: not a canonical 32-byte u-coordinate, or one of
    the points of small order (what X25519 maps to zero)."""
    if not (isinstance(u, bytes) and len(u) == 32):
        raise PsiError(f"{what}: a u-coordinate must be 32 bytes")
    n = int.from_bytes(u, "little")
    if n >= P:
        raise PsiError(f"{what}: u-coordinate not reduced mod 2^255-19")
    if n in SMALL_ORDER:
        raise PsiError(f"{what}: point of small order (X25519 result is zero)")
    return n


class Blinder:
    """A secret X25519 scalar (clamped by X25519 itself) that blinds u-coordinates."""

    def __init__(self, scalar: bytes) -> None:
        if not (isinstance(scalar, bytes) and len(scalar) == 32):
            raise PsiError("blinding scalar must be 32 bytes")
        self.scalar = scalar
        self._key = X25519PrivateKey.from_private_bytes(scalar)
        self._inverse: dict[bool, tuple[X25519PrivateKey, ...]] = {}
        self._warming = getattr(_LOCAL, "warming", False)
        if self._warming:
            memo = _WARM.pop(scalar, None)
            self._memo = _WARM[scalar] = {} if memo is None else memo
            while len(_WARM) > WARM_SCALARS:
                _WARM.pop(next(iter(_WARM)))
        else:
            self._memo = _WARM.pop(scalar, None) or {}

    def blind(self, u: bytes, what: str = "value") -> bytes:
        """X25519(scalar, u). :raises PsiError: ``u`` is not a canonical 32-byte u-coordinate
        or has small order (the library refuses the all-zero result)."""
        if not (isinstance(u, bytes) and len(u) == 32):
            raise PsiError(f"{what}: a u-coordinate must be 32 bytes")
        if int.from_bytes(u, "little") >= P:
            raise PsiError(f"{what}: u-coordinate not reduced mod 2^255-19")
        v = self._memo.get(u)
        if v is not None:
            return v
        try:
            v = self._key.exchange(X25519PublicKey.from_public_bytes(u))
        except ValueError:
            raise PsiError(f"{what}: point of small order (X25519 result is zero)") from None
        if self._warming:
            self._memo[u] = v
        return v

    def settle(self) -> None:
        """A party built inside ``warm`` is used for the real run after all: its values are
        its own now (nothing more is kept for a later ``Blinder``)."""
        if self._warming:
            self._warming = False
            if _WARM.get(self.scalar) is self._memo:
                del _WARM[self.scalar]

    def unblind(self, v: bytes, what: str = "value") -> bytes:
        """The inverse of ``blind`` on the prime-order subgroup: the u-coordinate ``w`` with
        ``blind(w) == v`` when ``v`` is ``blind`` of a point whose order is prime (every value
        X25519 outputs: its clamped scalars are multiples of 8, the cofactor). One or two X25519
        operations with the scalars of ``_inverse_chain``; ``v`` on the curve or the twist
        (``on_curve``) picks the subgroup order. :raises PsiError: as ``blind``."""
        n = check_u(v, what)
        curve = on_curve(n)
        chain = self._inverse.get(curve)
        if chain is None:
            chain = self._inverse[curve] = _inverse_chain(self.scalar, L_CURVE if curve else L_TWIST)
        try:
            for key in chain:
                v = key.exchange(X25519PublicKey.from_public_bytes(v))
        except ValueError:
            raise PsiError(f"{what}: point of small order (X25519 result is zero)") from None
        return v


#: X25519 results computed ahead (``warm``): scalar -> {u: X25519(scalar, u)}, oldest first
_WARM: dict[bytes, dict[bytes, bytes]] = {}
_LOCAL = threading.local()      # .warming: inside ``warm`` on this thread
#: how many exchanges' values ``warm`` keeps at most (a side warms one or two at a time)
WARM_SCALARS = 8


def warm(build: Callable[[], Any]) -> bool:
    """Run ``build`` (the construction of an exchange's party and its first message, exactly as
    the real run will do it) only to compute its ``Blinder.blind`` results now, off the critical
    path (issue 10 item 6): they are kept by scalar and point, and the next ``Blinder`` of that
    scalar takes them, so the real run blinds each of those points without an X25519 operation.
    A value is ``X25519(scalar, u)``, a pure function of both: a point the real run blinds that
    ``build`` did not (its state changed meanwhile) is computed then, so what is sent is the same
    byte for byte, warmed or not. Only our own points are warmed (a peer's values are blinded as
    they come). False if ``build`` failed: the real run, which raises what it must, comes later."""
    _LOCAL.warming = True
    try:
        build()
        return True
    except Exception:   # noqa: BLE001  (speculative: the real run reports any error)
        return False
    finally:
        _LOCAL.warming = False


def warm_points(scalar: bytes, us: Sequence[bytes], chunk: int = 4) -> Iterator[None]:
    """Compute ``X25519(scalar, u)`` for each of ``us`` into the values kept for ``scalar``
    (as ``warm`` does), ``chunk`` operations at a time: the generator yields after each chunk,
    so a caller can run it while it waits and stop between chunks (``PsiPlay.idle_step``). A
    point already kept, or of small order (the real run refuses it), is skipped."""
    memo = _WARM.pop(scalar, None)
    memo = _WARM[scalar] = {} if memo is None else memo
    while len(_WARM) > WARM_SCALARS:
        _WARM.pop(next(iter(_WARM)))
    key = X25519PrivateKey.from_private_bytes(scalar)
    done = 0
    for u in us:
        if u in memo:
            continue
        try:
            memo[u] = key.exchange(X25519PublicKey.from_public_bytes(u))
        except ValueError:
            continue
        done += 1
        if done % chunk == 0:
            yield


def new_secrets() -> tuple[bytes, bytes]:
    """A fresh (scalar, padding seed) for one side of one exchange, from ``secrets``."""
    return secrets.token_bytes(32), secrets.token_bytes(32)


#: the cost of one ``Blinder.unblind`` in X25519 operations (the Jacobi symbol is about one,
#: the inverse takes 1.5 on the curve and 1.75 on the twist on average); measured here
UNBLIND_COST = 2.6


def unblinds(size: int, z_size: int) -> bool:
    """Whether the asker tests its returned values by unblinding each (``y^(1/a)`` among the
    responder's ``z``; at most ``size`` of them, only its own cells' in modes set and first)
    rather than raising the responder's ``z_size`` values to its scalar (``y`` among ``z^a``):
    the cheaper of the two at worst. The same matches either way for an honest responder (its
    values are X25519 outputs, of prime order); nothing sent changes. Public sizes only, so the
    choice is the same on every run of the exchange (the audit's re-run too)."""
    return UNBLIND_COST * size < z_size


class PsiAsker:
    """The asker's side of one exchange. ``cells`` are its cells in the order the HQ item
    gives them (path order, RUL-49 order...), padded to ``size`` (public, fixed per item).
    ``root`` is the asker's own committed root, ``peer_root`` the responder's last one: a reply
    bound to any other root is refused."""

    def __init__(self, ctx: PsiContext, mode: str, cells: Sequence[Cell], size: int, root: bytes,
                 peer_root: bytes, scalar: bytes, pad_seed: bytes) -> None:
        if mode not in PSI_MODES:
            raise PsiError(f"unknown PSI mode {mode!r}")
        if not 1 <= size <= MAX_PSI_X or len(cells) > size:
            raise PsiError(f"{len(cells)} cells do not fit the padded size {size} (max {MAX_PSI_X})")
        if mode != "first" and len(set(cells)) != len(cells):
            raise PsiError("the asker's cells must be distinct (equal values would show)")
        self.ctx, self.mode, self.cells, self.size, self.root = ctx, mode, tuple(cells), size, root
        self.peer_root = peer_root
        self.blinder, self.pad_seed = Blinder(scalar), pad_seed
        self.zs: frozenset[bytes] = frozenset()
        self.z_list: list[bytes] = []
        self.i = 0
        self.first: int | None = None       # mode first: index into cells of the first hit
        self.matched: list[int] = []        # modes set/first: indices into cells that hit
        self.count = 0
        self._hit_y: list[bytes] = []
        self._hit_j: list[int] = []
        self.result: PsiResult | None = None
        #: the audit's shortcut (``use_oracle``): the responder's own record of this exchange
        self.oracle: tuple[list[bytes], dict[Cell, int]] | None = None
        self._oracle_on = False
        #: the reply's set by value -> position, when this asker unblinds (``unblinds``)
        self._z_pos: dict[bytes, int] | None = None

    def use_oracle(self, z: Sequence[bytes], cell_of: Sequence[Cell | None]) -> None:
        """The audit's re-run of this asker (``net.hidden_audit``): the responder of the exchange
        is the auditor itself, which kept its set ``z`` and the cell behind each value
        (``PsiResponder.cell_of``). When the reply carries exactly that set, membership is read
        from it instead of raising every ``z`` to ``a`` (``m`` X25519 operations saved): with an
        honest responder ``x^b`` is in ``z^a`` exactly when the asker's cell is one of the
        responder's (SHA-256 and DDH give no other match). Everything the asker *sends* is still
        computed and compared byte for byte; only its private matching is skipped."""
        self.oracle = (list(z), {c: j for j, c in enumerate(cell_of) if c is not None})

    def _x(self, i: int) -> bytes:
        real = i < len(self.cells) and (self.mode != "first" or self.first is None)
        u = cell_u(self.ctx, self.cells[i]) if real else pad_u(self.ctx, self.pad_seed, "asker", i)
        return self.blinder.blind(u)

    def query(self) -> PsiQuery:
        """The first message."""
        n = 1 if self.mode == "first" else self.size
        return PsiQuery(self.ctx.qid, self.ctx.hq, self.mode, self.size, self.root,
                        [self._x(i) for i in range(n)])

    def on_reply(self, reply: PsiReply, z_size: int) -> PsiStep | PsiResult:
        """Take the responder's set (``z_size`` is its public padded size) and first values.
        :raises PsiError: wrong exchange, sizes or points."""
        n = 1 if self.mode == "first" else self.size
        if reply.qid != self.ctx.qid or len(reply.y) != n or len(reply.z) != z_size or self.zs:
            raise PsiError(f"psi-reply for {reply.qid}: expected {n} values and a set of {z_size}")
        if reply.root != self.peer_root:
            raise PsiError(f"psi-reply {reply.qid} is bound to root {reply.root.hex()[:16]}…, not the "
                           f"responder's committed root {self.peer_root.hex()[:16]}…")
        if len(set(reply.z)) != len(reply.z) or reply.z != sorted(reply.z):
            raise PsiError("psi-reply: the responder's set must be distinct and sorted")
        if self.oracle is not None and self.oracle[0] == list(reply.z):
            self._oracle_on = True
            self.zs = frozenset(reply.z)          # marks the reply as taken
        elif unblinds(self.size, z_size):
            for j, z in enumerate(reply.z):
                check_u(z, f"z[{j}]")
            self._z_pos = {z: j for j, z in enumerate(reply.z)}
            self.zs = frozenset(reply.z)
        else:
            self.z_list = [self.blinder.blind(z, f"z[{j}]") for j, z in enumerate(reply.z)]
            self.zs = frozenset(self.z_list)
        for y in reply.y:
            self._test(y)
        return self._next()

    def on_step_reply(self, r: PsiStepReply) -> PsiStep | PsiResult:
        """Mode ``first``: take position ``i`` blinded again. :raises PsiError: out of order."""
        if self.mode != "first" or r.qid != self.ctx.qid or r.i != self.i or self.result:
            raise PsiError(f"psi-step-reply {r.qid}/{r.i} out of order (expected {self.ctx.qid}/{self.i})")
        self._test(r.y)
        return self._next()

    def _test(self, y: bytes) -> None:
        i = self.i
        self.i += 1
        if self._oracle_on:
            assert self.oracle is not None
            real = i < len(self.cells) and (self.mode != "first" or self.first is None)
            j = self.oracle[1].get(self.cells[i]) if real else None
            if j is None:
                return
            self._hit_j.append(j)
        elif self._z_pos is not None:
            # modes set and first: position i is the asker's own, padding is not tested (it
            # cannot match an honest set; a responder that made it match changed nothing the
            # asker learns, and the audit names its y as not x^b). Mode count: sorted, all tested.
            if self.mode != "count" and not (i < len(self.cells) and (self.mode != "first" or self.first is None)):
                return
            j = self._z_pos.get(self.blinder.unblind(y, f"y[{i}]"))
            if j is None:
                return
            self._hit_j.append(j)
        elif y not in self.zs:
            return
        else:
            self._hit_y.append(y)
        self.count += 1
        if self.mode == "count":
            if self.count > len(self.cells):
                raise PsiError("more matches than the asker has cells: padding matched")
            return
        if i >= len(self.cells) or (self.mode == "first" and self.first is not None):
            raise PsiError(f"position {i} is padding yet matched the responder's set")
        self.matched.append(i)
        if self.mode == "first":
            self.first = i

    def _next(self) -> PsiStep | PsiResult:
        if self.mode == "first" and self.i < self.size:
            return PsiStep(self.ctx.qid, self.i, self._x(self.i))
        hits = [] if self.mode == "count" else \
            sorted(self._hit_j if self._oracle_on or self._z_pos is not None
                   else [self.z_list.index(y) for y in self._hit_y])
        self.result = PsiResult(self.ctx.qid, hits, self.count)
        return self.result

    def reveal(self) -> PsiReveal:
        """The audit's opening of this side."""
        return PsiReveal(self.ctx.qid, self.blinder.scalar, self.pad_seed)


class PsiResponder:
    """The responder's side: ``cells`` are the cells of its pieces the HQ item asks about
    (hidden from the asker), taken from the committed state whose root is ``root``. ``mode``
    and ``size`` are what the HQ item allows (docs/protocol.md leak table): a query in another
    mode (a ``set`` where only the ``first`` cell may be learnt) or size is refused."""

    def __init__(self, ctx: PsiContext, mode: str, size: int, cells: Sequence[Cell], z_size: int,
                 root: bytes, scalar: bytes, pad_seed: bytes) -> None:
        own = sorted(set(cells))
        if not 1 <= z_size <= MAX_PSI_Z or len(own) > z_size:
            raise PsiError(f"{len(own)} cells do not fit the padded set size {z_size}")
        self.ctx, self.root, self.z_size = ctx, root, z_size
        self.allowed = (mode, size)
        self.blinder, self.pad_seed = Blinder(scalar), pad_seed
        blinded = {self.blinder.blind(cell_u(ctx, c)): c for c in own}
        for j in range(z_size - len(own)):
            blinded[self.blinder.blind(pad_u(ctx, pad_seed, "responder", j))] = None
        self.z = sorted(blinded)                   # sorting random-looking values shuffles
        self.cell_of = [blinded[v] for v in self.z]
        self.mode = ""
        self.size = 0
        self.i = 0

    def on_query(self, q: PsiQuery) -> PsiReply:
        """Answer the asker's first message. :raises PsiError: wrong exchange, size or point."""
        n = 1 if q.mode == "first" else q.size
        if q.qid != self.ctx.qid or q.hq != self.ctx.hq or len(q.x) != n or self.mode:
            raise PsiError(f"psi-query {q.qid}/{q.hq}: expected exchange {self.ctx.qid}/{self.ctx.hq} "
                           f"with {n} values")
        if (q.mode, q.size) != self.allowed:
            raise PsiError(f"psi-query {q.qid}: {q.hq} allows mode {self.allowed[0]!r} over "
                           f"{self.allowed[1]} cells, not {q.mode!r} over {q.size}")
        self.mode, self.size, self.i = q.mode, q.size, n
        y = [self.blinder.blind(x, f"x[{i}]") for i, x in enumerate(q.x)]
        if q.mode == "count":
            y.sort()
        return PsiReply(self.ctx.qid, self.root, list(self.z), y)

    def on_step(self, s: PsiStep) -> PsiStepReply:
        """Mode ``first``: blind position ``i``. :raises PsiError: out of order or too many."""
        if self.mode != "first" or s.qid != self.ctx.qid or s.i != self.i or s.i >= self.size:
            raise PsiError(f"psi-step {s.qid}/{s.i} out of order (expected {self.ctx.qid}/{self.i} "
                           f"of {self.size})")
        self.i += 1
        return PsiStepReply(s.qid, s.i, self.blinder.blind(s.x, f"x[{s.i}]"))

    def on_result(self, r: PsiResult) -> list[Cell]:
        """The responder's cells the asker found (to open the pieces there).
        :raises PsiError: the result names padding or arrives before the last step."""
        if r.qid != self.ctx.qid or self.i != self.size:
            raise PsiError(f"psi-result {r.qid} before the exchange is complete")
        if self.mode == "first" and len(r.hits) > 1:
            raise PsiError("psi-result: mode first has at most one hit")
        out = []
        for j in r.hits:
            if not 0 <= j < len(self.cell_of) or self.cell_of[j] is None:
                raise PsiError(f"psi-result: position {j} of the set is padding or outside it")
            out.append(self.cell_of[j])
        return out

    def reveal(self) -> PsiReveal:
        """The audit's opening of this side."""
        return PsiReveal(self.ctx.qid, self.blinder.scalar, self.pad_seed)


def audit_exchange(ctx: PsiContext, query: PsiQuery, reply: PsiReply, steps: Sequence[PsiStep],
                   step_replies: Sequence[PsiStepReply], result: PsiResult,
                   asker_cells: Sequence[Cell], asker: PsiReveal,
                   responder_cells: Sequence[Cell], responder: PsiReveal) -> None:
    """Recompute one exchange from its signed messages, both reveals and the true cells of
    both sides (from the opened commitments and the omniscient replay).

    :raises PsiAuditError: naming the side and value that were not what they must be.
    """
    a, b = Blinder(asker.scalar), Blinder(responder.scalar)
    xs = list(query.x) + [s.x for s in steps]
    ys = list(reply.y) + [r.y for r in step_replies]
    if len(xs) != query.size or len(ys) != query.size:
        raise PsiAuditError("result", ctx.qid, f"{len(xs)} values sent, {query.size} announced")
    want_y = [b.blind(x) for x in xs]
    if query.mode == "count":
        want_y.sort()
    if want_y != ys:
        bad = next(i for i, (w, g) in enumerate(zip(want_y, ys)) if w != g)
        raise PsiAuditError("responder-blinding", ctx.qid, f"responder value y[{bad}] is not x[{bad}]^b")
    own = sorted(set(responder_cells))
    want_z = [b.blind(cell_u(ctx, c)) for c in own]
    want_z += [b.blind(pad_u(ctx, responder.pad_seed, "responder", j))
               for j in range(len(reply.z) - len(own))]
    if sorted(want_z) != reply.z:
        raise PsiAuditError("responder-set", ctx.qid, "the responder's set is not its committed "
                            f"cells {own!r} plus padding (a piece was left out or added)")
    truth = set(responder_cells)
    first = next((i for i, c in enumerate(asker_cells) if c in truth), None)
    for i, x in enumerate(xs):
        real = i < len(asker_cells) and (query.mode != "first" or first is None or i <= first)
        u = cell_u(ctx, asker_cells[i]) if real else pad_u(ctx, asker.pad_seed, "asker", i)
        if a.blind(u) != x:
            check = "asker-blinding" if real or i >= len(asker_cells) else "probe"
            raise PsiAuditError(check, ctx.qid, f"asker value {i} is not "
                                f"{'cell ' + repr(asker_cells[i]) if real else 'padding'}"
                                + (" (a cell tested after the first hit)" if check == "probe" else ""))
    matched = [i for i, c in enumerate(asker_cells) if c in truth]
    if query.mode == "first":
        matched = matched[:1]
    if result.count != len(matched):
        raise PsiAuditError("result", ctx.qid, f"asker claimed {result.count} matches, "
                            f"the true number is {len(matched)}")
    if query.mode != "count":
        zs = sorted(want_z)
        want_hits = sorted(zs.index(b.blind(cell_u(ctx, asker_cells[i]))) for i in matched)
        if list(result.hits) != want_hits:
            raise PsiAuditError("result", ctx.qid, f"asker reported set positions {result.hits}, "
                                f"the true ones are {want_hits}")


_LOW255 = (1 << 255) - 1
_COUNTERS = tuple(bytes([c]) for c in range(256))


def _hash_u(prefix: bytes, data: bytes) -> bytes:
    for counter in _COUNTERS:
        u = (int.from_bytes(hashlib.sha256(prefix + counter + data).digest(), "little") & _LOW255) % P
        if u not in SMALL_ORDER:
            return u.to_bytes(32, "little")
    raise PsiError("no u-coordinate found (impossible with SHA-256)")  # pragma: no cover
