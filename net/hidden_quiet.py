"""The quiet public Move: an event after which no zone test can find anything new (issue 10 item 6;
docs/rulings.md P-10, docs/protocol.md "PSI in play").

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
else happened). The lock targets still travel in clear in ``event`` and ``ack``.
"""
from __future__ import annotations

from typing import Any

from engine.actions import SUB, Move
from engine.board import has_ability
from engine.descs import resolve_all
from engine.errors import RuleError
from engine.visibility import stealthy


def kept_tests(before: Any, actor_side: str, action: Any, c: Any) -> tuple[bool, bool]:
    """Which of the two zone tests of the event of ``action`` by ``actor_side`` on the public
    state ``before`` (either side's partial state before the event), with consequences ``c``,
    keep their last results: (the owner's, the resolver's). The owner's test (its hiding squares
    against the resolver's zones) keeps when the actor is no detector; the resolver's (its hiding
    squares against the owner's zones) when the actor has no hiding reason. Both need a public
    Move that moves its actor alone and changes nothing else (see the module doc)."""
    if not isinstance(action, Move) or action.passenger is not None or action.doze or c.action is None:
        return False, False
    if (c.yours or c.fresh_turn or c.result is not None or c.ply != before.ply or c.next_sid != before.next_sid
            or c.ground != tuple(sorted(before.ground.items())) or c.projectiles != before.projectiles
            or c.reinforcements != tuple(sorted(before.reinforcements.items()))
            or c.lost_primary != before.turn.lost_primary):
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
