"""The quiet public Move and article action: an event after which no zone test can find anything
new (issue 10 item 6; docs/rulings.md P-10, P-13, docs/protocol.md "PSI in play").

Both sides decide it alike, from what both hold: the public state before the event (equal on
both sides, ``phash``), the event's ``Consequences`` and public text, and the actor's opening,
which the owner holds because it saw the actor (a public action, RUL-37). Nothing private to
either side enters the decision, so making it discloses nothing (P-7). When it holds, the
event's two zone tests (HQ-10) are not run: each side's last zone-test result still holds, and
both use it. A Move of a visible detector without hiding reason keeps the resolver's test only,
one of a piece with a hiding reason that detects nothing the owner's only (``kept_tests``).

Why the results still hold: a zone test finds which of the asker's squares with a hiding reason
lie in the responder's zones. A quiet Move changes neither: the actor has no hiding reason and
no detector ability (Torpedo Launcher, Anti-Stealth: RUL-18, RUL-19) before or after, it carries
no passenger and nudges nothing (so it is the only piece that moves), no piece of the other side
is touched (``yours`` empty), and the ply, the ground (no article picked up or dropped), the
projectiles, the serials and the result are unchanged (so no reveal ends, RUL-20, and nothing
else happened). The lock targets still travel in clear in ``event`` and ``ack``. A quiet
article action (P-13, ``_article_action_keeps``) moves no piece and hands over no article that
makes a hiding reason or a detector; only the ground changes.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.actions import SUB, Drop, Exchange, Move, PickUp
from engine.board import has_ability
from engine.pieces import DEFENCES, TRANSPORTS, WEAPONS
from engine.descs import resolve_all
from engine.errors import RuleError
from engine.visibility import stealthy


#: the articles whose changing hands leaves every zone test's result as it was (P-13): the
#: weapons but the Torpedo Launcher (a detector, RUL-18) and the defences; and for a pick-up the
#: transports too (gaining one moves nothing at once). Not these: Stealth and Anti-Stealth (a
#: hiding reason, a detector and its locks, RUL-18, RUL-19); and, by caution only, a transport
#: given away or dropped and XXX (docs/rulings.md P-13)
QUIET_CODES = frozenset(set(WEAPONS) - {"TL"}) | frozenset(DEFENCES)
QUIET_PICK_UPS = QUIET_CODES | frozenset(TRANSPORTS)


def _same_public(before: Any, c: Any, ground: bool) -> bool:
    """Nothing of the other side touched, and the ply, serials, projectiles, reinforcements, lost
    primaries and result unchanged (the ground too unless ``ground`` may change)."""
    return not (c.yours or c.fresh_turn or c.result is not None or c.ply != before.ply
                or c.next_sid != before.next_sid or c.projectiles != before.projectiles
                or (not ground and c.ground != tuple(sorted(before.ground.items())))
                or c.reinforcements != tuple(sorted(before.reinforcements.items()))
                or c.lost_primary != before.turn.lost_primary)


def _article_action_keeps(before: Any, actor_side: str, action: Any, c: Any) -> bool:
    """P-13: a pick-up, drop or exchange in clear of articles all in ``QUIET_CODES`` (a pick-up:
    ``QUIET_PICK_UPS``), changing nothing else public but the ground: no piece moves and no hiding
    reason or detector ability changes, so neither zone test can find anything new. Decided from the action's text
    and the public state only (an exchange's receiver may be hidden from the owner, so its pieces
    are not looked up: both sides must decide alike)."""
    if isinstance(action, PickUp):
        quiet = action.article in QUIET_PICK_UPS
    elif isinstance(action, Drop):
        quiet = action.article in QUIET_CODES
    elif isinstance(action, Exchange):
        quiet = action.article in QUIET_CODES and (action.swapped is None or action.swapped in QUIET_CODES)
    else:
        return False
    return quiet and c.action is not None and _same_public(before, c, ground=True) and _ground_fits(before, action, c)


def _ground_fits(before: Any, action: Any, c: Any) -> bool:
    """The ground of ``c`` is what the action in clear makes of ``before``'s (P-13): a pick-up
    takes one such article from its piece's square, a drop leaves one there, an exchange (hand to
    hand) leaves it as it was; every other square unchanged. Else the event is not quiet (its
    zone tests run) and a side that skipped them is refused."""
    after = {sq: aids for sq, aids in c.ground if aids}
    was = {sq: aids for sq, aids in before.ground.items() if aids}
    if isinstance(action, Exchange):
        return after == was
    sq = (action.piece.row, action.piece.col)
    if {k: v for k, v in after.items() if k != sq} != {k: v for k, v in was.items() if k != sq}:
        return False
    code = before.art_code.get
    old, new = Counter(code(a) for a in was.get(sq, ())), Counter(code(a) for a in after.get(sq, ()))
    taken, left = old - new, new - old
    one = Counter({action.article: 1})
    return (taken, left) == ((one, Counter()) if isinstance(action, PickUp) else (Counter(), one))


def kept_tests(before: Any, actor_side: str, action: Any, c: Any) -> tuple[bool, bool]:
    """Which of the two zone tests of the event of ``action`` by ``actor_side`` on the public
    state ``before`` (either side's partial state before the event), with consequences ``c``,
    keep their last results: (the owner's, the resolver's). The owner's test (its hiding squares
    against the resolver's zones) keeps when the actor is no detector; the resolver's (its hiding
    squares against the owner's zones) when the actor has no hiding reason. Both need a public
    Move that moves its actor alone and changes nothing else (see the module doc); an article
    action keeps both under P-13 (``_article_action_keeps``)."""
    if _article_action_keeps(before, actor_side, action, c):
        return True, True
    if not isinstance(action, Move) or action.passenger is not None or action.doze or c.action is None:
        return False, False
    if not _same_public(before, c, ground=False):
        return False, False
    try:
        found = resolve_all(before, action.piece, actor_side)
    except RuleError:
        return False, False
    if len(found) != 1:
        return False, False
    p = found[0]
    hiding = p.level == SUB or action.level == SUB or stealthy(before, p)
    detector = has_ability(before, p, "TL") or has_ability(before, p, "ASH")
    return not detector, not hiding


def quiet_move(before: Any, actor_side: str, action: Any, c: Any) -> bool:
    """Whether both zone tests keep (``kept_tests``): a quiet public Move."""
    return all(kept_tests(before, actor_side, action, c))


def standing_query_holds(before: Any, c: Any) -> bool:
    """P-14: whether the owner's standing zone-test query, sent before the event, still lists the
    owner's squares with a hiding reason after it, decided alike on both sides from public data:
    the event changes none of the owner's pieces (``yours`` empty: no piece of the owner's moved,
    changed, was opened, destroyed or converted, so its squares, levels and articles are as
    they were), and neither the ply (a reveal ends only with it, RUL-20; a new turn begins), the
    serials (the public size of the query, P-8) nor the result change."""
    return not (c.yours or c.fresh_turn or c.result is not None or c.ply != before.ply
                or c.next_sid != before.next_sid)
