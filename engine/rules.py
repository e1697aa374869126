"""The turn: legal actions, checking and applying them, and the turn phases (RUL-1..RUL-3).

``apply_action`` checks first and changes a copy second (STYLE: "check legality first"):
an illegal action raises ``RuleError`` naming the rule and the input state is untouched.
"""
from __future__ import annotations

from .actions import GROUND, Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc, \
    Reinforce, Result
from .board import capacity, coexists, distance
from .board_ops import place_articles, remove_piece, track_leave
from .descs import resolve, resolve_all
from .effects import arrival_hits
from .errors import GameOverError, RuleError
from .fire import check_fire, do_fire, legal_fires
from .game_end import check_game_end, finish_line
from .movegen import MOVE_RULE, MovePlan, describe, generate, piece_moves
from .movetypes import MOVE_RULE as TYPE_RULE
from .notation import format_piece
from .pieces import KINDS, native_levels
from .projectiles import step_all
from .questions import Answerer, answering, current_answerer
from .record import TurnRecord
from .state import GameState, Piece, enemy, replace
from .trips import advance_trips
from .visibility import attempt_lock, end_locks, hidden_from, lock_sources, reveal, stealthy

PAWN_KINDS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})


# -- public API ------------------------------------------------------------------------------

def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the side to move, in one defined order (STYLE 'legal actions')."""
    if state.result is not None:
        return []
    known = state.known_legal()
    if known is not None:
        return list(known)
    side = state.side_to_move
    t = state.turn
    out: list[Action] = []
    out.extend(p.move for p in _allowed_moves(state, side))
    if not state.options.move_only:
        out.extend(legal_fires(state, side))
        out.extend(_pickups(state, side))
        out.extend(_drops(state, side))
        out.extend(_exchanges(state, side))
        out.extend(_reinforces(state, side))
    if t.moved or not _allowed_moves(state, side):
        out.append(EndTurn())
    if _identical_pieces(state):
        out = list(dict.fromkeys(out))   # identical pieces in one cell offer one action (E-6)
    state.remember_legal(out)
    return list(out)


def _identical_pieces(state: GameState) -> bool:
    """Whether a cell holds two pieces that the notation cannot tell apart (kind, hand and
    articles): only then can two actions be equal (the same Move or Fire of two such pieces,
    a homing Fire at either of two such targets), and only then is the list deduplicated."""
    for sids in state.cells().values():
        if len(sids) > 1:
            ps = [state.pieces[s] for s in sids]
            for i, a in enumerate(ps):
                for b in ps[i + 1:]:
                    if a.kind == b.kind and a.hand == b.hand and \
                            state.codes(a) == state.codes(b):
                        return True       # (either side: two such enemies as homing targets)
    return False


def apply_action(state: GameState, action: Action, answerer: Answerer | None = None) -> GameState:
    """The state after ``action``; the input is unchanged.

    :raises RuleError: the action is illegal now (the error names the rule broken).
    """
    if answerer is not None:
        with answering(answerer):
            return _apply(state, action)
    return _apply(state, action)


def apply_move_plan(state: GameState, plan: MovePlan) -> GameState:
    """The state after the Move of ``plan``, a plan ``movegen`` made for this very state and
    its side to move (the computer opponent's fast path: the plan is not searched for again).
    The budget checks of ``_allowed_moves`` are made here; an airborne Chopper's obligation
    (RUL-22, RUL-44a) is read strictly: while one is obliged, only obliged pieces Move.

    :raises RuleError: the turn's Move is spent (01/R4.2), the piece may not act (RUL-11,
        02/D23), or another piece must make the Move (RUL-22).
    """
    if state.result is not None:
        raise GameOverError("RUL-2", f"the game is over ({state.end_reason})")
    t = state.turn
    if t.moved:
        raise RuleError("01/R4.2", "the Move of this turn has already been made")
    if not _may_act(state, plan.sid):
        raise RuleError("RUL-11", "this piece may not act now")
    if t.obliged and plan.sid not in t.obliged and any(
            sid in state.pieces and state.pieces[sid].level == "A"
            and state.pieces[sid].side == state.side_to_move for sid in t.obliged):
        raise RuleError("RUL-22", "an airborne Chopper must make this turn's Move and land")
    new = state.clone()
    _do_move(new, plan.move, plan)
    new.actions = state.actions + (plan.move,)
    check_game_end(new)
    return new


def _apply(state: GameState, action: Action) -> GameState:
    """``apply_action`` under the current answerer."""
    if state.result is not None:
        raise GameOverError("RUL-2", f"the game is over ({state.end_reason})")
    if isinstance(action, Move):
        plan = _check_move(state, action)
        new = state.clone()
        _do_move(new, action, plan)
    elif isinstance(action, PickUp):
        p, aid = _check_pickup(state, action)
        new = state.clone()
        _do_pickup(new, action, p, aid)
    elif isinstance(action, Drop):
        p, aid = _check_drop(state, action)
        new = state.clone()
        _do_drop(new, action, p, aid)
    elif isinstance(action, Exchange):
        giver, receiver, a1, a2 = _check_exchange(state, action)
        new = state.clone()
        _do_exchange(new, action, giver, receiver, a1, a2)
    elif isinstance(action, Reinforce):
        _check_reinforce(state, action)
        new = state.clone()
        _do_reinforce(new, action)
    elif isinstance(action, EndTurn):
        _check_end_turn(state)
        new = state.clone()
        new.actions = state.actions + (action,)
        end_turn(new)
        return new
    elif isinstance(action, Fire):
        fplan = check_fire(state, action)
        new = state.clone()
        do_fire(new, action, fplan)
    else:
        raise RuleError("01/R4.8", f"not an action: {action!r}")
    new.actions = state.actions + (action,)
    check_game_end(new)
    return new


def end_phase(state: GameState, answerer: Answerer | None = None) -> GameState:
    """End Turn as ``apply_action`` makes it, less the next ply's start phase (docs/hidden.md).

    :raises RuleError: the turn may not end now (as ``apply_action``).
    """
    with answering(answerer):
        if state.result is not None:
            raise GameOverError("RUL-2", f"the game is over ({state.end_reason})")
        _check_end_turn(state)
        new = state.clone()
        new.actions = state.actions + (EndTurn(),)
        end_turn(new, start_next=False)
        return new


def begin_turn(state: GameState) -> None:
    """Start phase of the ply in ``state.ply`` (RUL-1 phase 1); mutates ``state``."""
    side = state.side_to_move
    mine = [p for p in state.pieces.values() if p.side == side]
    watch = []
    for sq, (owner, _kind, _hand) in sorted(state.reinforcements.items()):
        if owner == side:
            here = frozenset(p.sid for p in mine if p.square == sq and p.level == GROUND)
            if here:
                watch.append((sq, here))
    # RUL-11: every piece stunned when the turn begins, of either side: an enemy piece the
    # mover converts during the turn counts down at its end too (RUL-13)
    state.turn = replace(type(state.turn)(), watch=tuple(watch),
                         stunned=frozenset(s for s, p in state.pieces.items() if p.stun > 0))
    state.hits = {}                                   # RUL-7: counters reset every turn
    state.touch()
    advance_trips(state)                              # RUL-31, RUL-48
    if state.options.chopper_must_land_next_turn:     # RUL-22, RUL-44 (a)
        obliged = frozenset(p.sid for p in state.pieces.values()
                            if p.side == side and p.kind == "CH" and p.level == "A")
        state.turn = replace(state.turn, obliged=obliged)
    state.touch()


def end_turn(state: GameState, start_next: bool = True) -> None:
    """End phase (RUL-1 phase 4), history line, next ply's start phase; mutates ``state``.

    With ``start_next`` False the next ply's start phase is left to the caller: in a network
    game the next mover runs ``begin_turn`` on its own partial state (docs/hidden.md)."""
    step_all(state)                               # RUL-15 end-phase step
    check_game_end(state)                         # RUL-2
    if state.result is not None:
        return
    side = state.side_to_move
    for sid in sorted(state.turn.stunned):        # RUL-11 countdown, owner's turns only
        p = state.pieces.get(sid)
        if p is not None and p.side == side and p.stun > 0:
            state.put(replace(p, stun=p.stun - 1))
    for sid, until in list(state.reveals.items()):   # RUL-20 reveals expire
        if until <= state.ply:
            del state.reveals[sid]
            state.touch()
    finish_line(state)
    state.record = TurnRecord()
    state.actions = ()
    if state.options.ply_limit and state.ply >= state.options.ply_limit:
        state.result, state.end_reason = "draw", f"ply limit {state.options.ply_limit} (RUL-53)"
        state.touch()
        return
    state.ply += 1
    if start_next:
        begin_turn(state)


# -- moves -----------------------------------------------------------------------------------

def _allowed_moves(state: GameState, side: str) -> list[MovePlan]:
    """Legal Moves now, with the budget and the Chopper obligation applied (RUL-22, RUL-44a)."""
    key = ("allowed", side, state.turn)        # the budget is part of the answer
    cached = state._cache.get(key)
    if cached is not None:
        return cached
    t = state.turn
    if t.moved:
        plans: list[MovePlan] = []
    else:
        plans = [pl for pl in generate(state, side) if _may_act(state, pl.sid)]
        obliged = [pl for pl in plans if pl.sid in t.obliged
                   and state.pieces[pl.sid].level == "A" and state.pieces[pl.sid].side == side]
        if obliged:
            plans = obliged
    state._cache[key] = plans
    return plans


def _candidate_moves(state: GameState, side: str, desc: PieceDesc,
                     nudges: bool = True) -> list[MovePlan]:
    """``_allowed_moves`` restricted to the pieces a description fits, without generating every
    piece's Moves: checking one Move (a peer's action, a replayed line) stays cheap."""
    cached = state._cache.get(("allowed", side, state.turn))
    if cached is not None:
        return [pl for pl in cached if pl.move.piece == desc]
    if state.turn.moved:
        return []
    try:
        fits = resolve_all(state, desc, side)
    except RuleError:
        return []
    plans = [pl for p in fits if _may_act(state, p.sid)
             for pl in piece_moves(state, side, p, nudges)]
    obliged = [q for q in (state.pieces.get(s) for s in sorted(state.turn.obliged))
               if q is not None and q.side == side and q.level == "A" and _may_act(state, q.sid)]
    if any(piece_moves(state, side, q) for q in obliged):        # RUL-22, RUL-44 (a)
        plans = [pl for pl in plans if pl.sid in {q.sid for q in obliged}]
    return plans


def _may_act(state: GameState, sid: int) -> bool:
    """02/D23 one action per piece; RUL-11 ``stunned_may_act``."""
    p = state.pieces[sid]
    if state.options.one_action_per_piece and sid in state.turn.acted:
        return False
    if not state.options.stunned_may_act and p.stun > 0:
        return False
    return True


def _norm(move: Move) -> tuple[object, ...]:
    return (move.piece, move.level, move.row, move.col, move.passenger, frozenset(move.doze),
            move.doze[:1])


def _listed_move(state: GameState, action: Move) -> MovePlan | None:
    """The plan of a Move that is the very object ``legal_actions`` listed for this state: the
    first plan with that Move, as the search below finds it (a listing keeps the first of
    equal actions; a listed nudge names only members its side sees, so the search would not
    rewrite it), without comparing every plan."""
    if not state.listed(action):
        return None
    e = state._cache.get("listed_moves")
    if e is None or e[0] is not state.turn:
        ix: dict[int, MovePlan] = {}
        for pl in _allowed_moves(state, state.side_to_move):
            ix.setdefault(id(pl.move), pl)
        e = state._cache["listed_moves"] = (state.turn, ix)
    plan = e[1].get(id(action))
    return plan if plan is not None and plan.move is action else None


def _check_move(state: GameState, action: Move) -> MovePlan:
    plan = _listed_move(state, action)
    if plan is not None:
        return plan
    side = state.side_to_move
    if state.turn.moved:
        raise RuleError("01/R4.2", "the Move of this turn has already been made")
    p = resolve(state, action.piece, side)
    if action.doze:                      # a full record also lists hidden members (RUL-45)
        hidden = hidden_from(state, side)
        seen = [e for e in action.doze if any(
            state.pieces[s].kind == e[0] and s not in hidden for s in state.at(e[1], e[2], GROUND))]
        action = replace(action, doze=tuple(seen))
    want = _norm(action)
    for plan in _candidate_moves(state, side, action.piece, nudges=bool(action.doze)):
        if _norm(plan.move) == want:
            return plan
    rule = MOVE_RULE[KINDS[p.kind].movement]
    if state.options.movement_type in TYPE_RULE:                 # 03/M2, M3
        rule = TYPE_RULE[state.options.movement_type][KINDS[p.kind].movement]
    if p.stun > 0:
        rule, why = "RUL-11", "a stunned piece cannot Move"
    elif p.trip is not None:
        rule, why = "RUL-31", "a piece on a Jump Pack or Scuba trip cannot Move"
    elif p.sid in state.turn.transported:
        rule, why = "RUL-30", "a piece moved by a transport article this turn cannot Move"
    elif p.level not in native_levels(p.kind):
        rule, why = "RUL-25", "a passenger off its native level has no Moves of its own"
    elif any(pl.sid == p.sid for pl in generate(state, side)) and \
            any(pl.sid in state.turn.obliged for pl in _allowed_moves(state, side)):
        rule, why = "RUL-22", "an airborne Chopper must make this turn's Move and land"
    elif p.kind == "DO" and action.doze:
        rule, why = "RUL-26", "not a legal nudge (group, direction or co-located piece)"
    else:
        rule, why = _destination_problem(state, p, action, rule)
    mark = {"G": "", "A": "^", "S": "v"}.get(action.level, "?")
    raise RuleError(rule, f"{_fmt_desc(action.piece)}->{mark}({action.row},{action.col}): {why}")


def _destination_problem(state: GameState, p: Piece, action: Move, rule: str) -> tuple[str, str]:
    """Name the most specific reason a requested destination is refused."""
    hidden = hidden_from(state, p.side)
    there = [state.pieces[s] for s in state.at(action.row, action.col, action.level)
             if s not in hidden and s != p.sid]
    enemies = [q for q in there if q.side != p.side]
    friends = [q for q in there if q.side == p.side]
    if enemies and not KINDS[p.kind].combat:
        return "03/M0.7", "a non-combat piece cannot take the enemy piece there"
    if enemies and friends:
        return "RUL-14", "nothing may enter a cell holding pieces of both sides"
    if len(friends) >= 2:
        return "01/R5.1", "the cell already holds two pieces"
    if friends and not any(coexists(state, q.kind) for q in friends + [p]):
        return "01/R5.4", "neither piece has Coexistence"
    return rule, "not one of its destinations, or its path is blocked"


def _do_move(state: GameState, action: Move, plan: MovePlan) -> None:
    ans = current_answerer()
    p = state.pieces[plan.sid]
    side = p.side
    t = state.turn
    state.record.move = action
    if plan.members:
        _do_nudge(state, action, plan)
        state.turn = replace(state.turn, moved=True, mover=p.sid, acted=t.acted | {p.sid})
        return
    cells = plan.cells
    stop_i: int | None
    if plan.routes:                                   # Chopper (RUL-23, RUL-44)
        if ans.any_route_clear(state, side, plan.routes):
            stop_i = None
        else:
            cells = plan.routes[0]
            stop_i = ans.first_hidden(state, side, cells)
    else:
        stop_i = ans.first_hidden(state, side, cells)  # HQ-1
    stop = cells[-1] if stop_i is None else cells[stop_i]
    r, c, lv = stop
    if (r, c, lv) != (action.row, action.col, action.level):
        state.record.results.append(Result(p.kind, "v", r, c))
    seen = hidden_from(state, side)
    taken = sorted({s for s in state.at(r, c, lv) if state.pieces[s].side != side and s not in seen}
                   | set(ans.hidden_on(state, side, [stop])))     # HQ-1: "what is on it"
    movers = [p.sid] + ([plan.passenger] if plan.passenger else [])
    for sid in movers:
        q = state.pieces[sid]
        track_leave(state, q, (r, c, lv))
        state.move_piece(sid, r, c, lv, origin=False)
    destroyed = []
    for sid in taken:
        victim = state.pieces[sid]
        state.record.results.append(Result(p.kind, "*", piece=describe(state, victim),
                                           stun=0, colour=victim.side))
        destroyed.append(victim)
        remove_piece(state, victim)
    if taken and stealthy(state, state.pieces[p.sid]) and state.options.reveal_stealth_on_capture:
        reveal(state, p.sid)                          # RUL-20
    t = state.turn
    # a passenger's ride is not an action of the passenger (01/R20.1, 02/D23)
    state.turn = replace(t, moved=True, mover=p.sid, acted=t.acted | {p.sid})
    _after_destruction(state, destroyed)
    arrival_hits(state, movers)                       # RUL-15: entering a projectile's cell


def _do_nudge(state: GameState, action: Move, plan: MovePlan) -> None:
    """Bulldozer nudge: stall on hidden obstacles (RUL-45), otherwise shift every member."""
    ans = current_answerer()
    dozer = state.pieces[plan.sid]
    side = dozer.side
    dr, dc = plan.shift
    mate = plan.members[0]
    plan_squares = {state.pieces[s].square for s in plan.members[1:]}
    chosen = [sq for sq in dict.fromkeys((e[1], e[2]) for e in action.doze[1:])
              if sq in plan_squares]
    seen = hidden_from(state, side)
    visible = [mate] + [s for sq in chosen for s in state.at(sq[0], sq[1], GROUND) if s not in seen]
    stall, hidden = ans.nudge_outcome(state, side, (dozer.sid, *visible),
                                      [(r, c, GROUND) for r, c in chosen], (dr, dc))   # HQ-3
    members = [mate] + [s for sq in chosen for s in sorted(
        s for s in state.at(sq[0], sq[1], GROUND) if s in visible or s in hidden)]
    group = [dozer] + [state.pieces[s] for s in members]
    if stall:                 # RUL-51(b): keep the members the mover selected (no hidden ones)
        state.record.move = action
        state.record.results.append(Result("DO", "v", dozer.row, dozer.col))
        return
    entries = tuple((state.pieces[s].kind, state.pieces[s].row, state.pieces[s].col)
                    for s in members)
    state.record.move = replace(action, doze=entries)
    for q in group:
        track_leave(state, q, (q.row + dr, q.col + dc, GROUND))
    for q in group:
        state.move_piece(q.sid, q.row + dr, q.col + dc, GROUND, origin=False)
    arrival_hits(state, [q.sid for q in group])


# -- destruction, articles, game end ---------------------------------------------------------

def _after_destruction(state: GameState, destroyed: list[Piece]) -> None:
    """RUL-41 steps 5 and 8: place the articles of destroyed pieces, end broken locks."""
    for victim in sorted(destroyed, key=lambda v: v.sid):
        place_articles(state, victim, victim.arts)
    end_locks(state)


# -- pick-up, drop, exchange -----------------------------------------------------------------

def _budget(state: GameState, flag: str, rule: str, what: str) -> None:
    if state.options.move_only:
        raise RuleError("02/D23", "only Moves are allowed in this game (Move-Only option)")
    if getattr(state.turn, flag):
        raise RuleError(rule, f"only one {what} per turn")


def _actor(state: GameState, desc: PieceDesc) -> Piece:
    p = resolve(state, desc, state.side_to_move)
    if not _may_act(state, p.sid):
        rule = "02/D23" if state.options.one_action_per_piece else "RUL-11"
        raise RuleError(rule, f"{_fmt_desc(desc)} may take no further action this turn")
    return p


def _stealth_primary_ok(state: GameState, p: Piece, code: str) -> bool:
    return not (code == "SH" and KINDS[p.kind].role == "primary"
                and not state.options.stealthy_primary_allowed)


def _first_of(state: GameState, aids: tuple[int, ...], code: str) -> int | None:
    return next((a for a in aids if state.art_code[a] == code), None)


def _check_pickup(state: GameState, action: PickUp) -> tuple[Piece, int]:
    _budget(state, "picked", "01/R4.5", "Pick-up")
    p = _actor(state, action.piece)
    if p.level != GROUND or p.trip is not None:
        raise RuleError("01/R10.8", "only a piece at Ground level can pick up (RUL-29)")
    aid = _first_of(state, state.ground.get(p.square, ()), _art(action.article))
    if aid is None:
        raise RuleError("RUL-29", f"no {action.article} lies on the ground of {_sq(p.square)}")
    if not _fits(state, p, p.arts + (aid,)):
        raise RuleError("RUL-28", f"{_fmt_desc(action.piece)} has no free capacity")
    if not _stealth_primary_ok(state, p, state.art_code[aid]):
        raise RuleError("RUL-18", "a primary government piece may not pick up Stealth (02/D21)")
    return p, aid


def _do_pickup(state: GameState, action: PickUp, p: Piece, aid: int) -> None:
    ground = state.own("ground")
    here = ground[p.square]
    ground[p.square] = tuple(a for a in here if a != aid)
    if not ground[p.square]:
        del ground[p.square]
    p = replace(p, arts=p.arts + (aid,))
    state.put(p)
    state.record.pickup = action
    t = state.turn
    state.turn = replace(t, picked=True, acted=t.acted | {p.sid})
    if state.art_code[aid] == "ASH":
        attempt_lock(state, ("a", aid), p)            # RUL-19


def _check_drop(state: GameState, action: Drop) -> tuple[Piece, int]:
    _budget(state, "dropped", "01/R4.5", "Drop")
    p = _actor(state, action.piece)
    aid = _first_of(state, _free(p), _art(action.article))
    if aid is None:
        raise RuleError("RUL-29", f"{_fmt_desc(action.piece)} holds no {action.article} "
                                  "that it may drop (an article in use on a trip stays, RUL-31)")
    if len(state.ground.get(p.square, ())) >= 2:
        raise RuleError("RUL-29", f"the ground of {_sq(p.square)} already holds 2 articles")
    rest = replace(p, arts=tuple(a for a in p.arts if a != aid))
    if len(rest.arts) > capacity(state, rest):
        raise RuleError("RUL-28", "the Drop would leave the piece over its capacity")
    return p, aid


def _do_drop(state: GameState, action: Drop, p: Piece, aid: int) -> None:
    state.put(replace(p, arts=tuple(a for a in p.arts if a != aid)))
    ground = state.own("ground")
    ground[p.square] = ground.get(p.square, ()) + (aid,)
    state.record.drop = action
    t = state.turn
    state.turn = replace(t, dropped=True, acted=t.acted | {p.sid})
    end_locks(state)                                  # RUL-19: a dropped source unlocks


def _check_exchange(state: GameState, action: Exchange) -> tuple[Piece, Piece, int, int | None]:
    _budget(state, "exchanged", "01/R4.5", "Exchange")
    giver = _actor(state, action.giver)
    receiver = _actor(state, action.receiver)
    if giver.sid == receiver.sid:
        raise RuleError("RUL-29", "an Exchange needs two different pieces")
    far = distance(giver.square, receiver.square) > 1
    if far and "secondary" not in (KINDS[giver.kind].role, KINDS[receiver.kind].role):
        raise RuleError("A-17", "pieces must be next to each other unless one is the "
                                "secondary government piece (RUL-29)")
    a1 = _first_of(state, _free(giver), _art(action.article))
    if a1 is None:
        raise RuleError("RUL-29", f"{_fmt_desc(action.giver)} holds no {action.article}")
    a2 = None
    if action.swapped is not None:
        a2 = _first_of(state, _free(receiver), _art(action.swapped))
        if a2 is None:
            raise RuleError("RUL-29", f"{_fmt_desc(action.receiver)} holds no {action.swapped}")
    g_arts = tuple(a for a in giver.arts if a != a1) + ((a2,) if a2 else ())
    r_arts = tuple(a for a in receiver.arts if a != a2) + (a1,)
    if not _fits(state, giver, g_arts) or not _fits(state, receiver, r_arts):
        raise RuleError("RUL-28", "the Exchange would leave a piece over its capacity")
    if not _swap_ok(state, giver, receiver, a1, a2):
        raise RuleError("RUL-18", "a primary government piece may not receive Stealth (02/D21)")
    return giver, receiver, a1, a2


def _do_exchange(state: GameState, action: Exchange, giver: Piece, receiver: Piece, a1: int,
                 a2: int | None) -> None:
    g2 = replace(giver, arts=tuple(a for a in giver.arts if a != a1) + ((a2,) if a2 else ()))
    r2 = replace(receiver, arts=tuple(a for a in receiver.arts if a != a2) + (a1,))
    state.put(g2)
    state.put(r2)
    state.record.exchange = action
    t = state.turn
    state.turn = replace(t, exchanged=True, acted=t.acted | {giver.sid, receiver.sid})
    for aid, holder in sorted(((a1, r2), (a2, g2)), key=lambda pair: pair[1].sid):   # RUL-49
        if aid is not None and state.art_code[aid] == "ASH":
            attempt_lock(state, ("a", aid), holder)   # RUL-19: receipt in an Exchange


# -- reinforce, end turn ---------------------------------------------------------------------

def _check_reinforce(state: GameState, action: Reinforce) -> None:
    _budget(state, "reinforced", "RUL-34", "Reinforce")
    sq = (action.row, action.col)
    side = state.side_to_move
    waiting = state.reinforcements.get(sq)
    if waiting is None or waiting[0] != side:
        raise RuleError("RUL-34", f"no unused reinforcement of yours waits on {_sq(sq)}")
    if (waiting[1], waiting[2]) != ({"STP": "SP"}.get(action.kind, action.kind), action.orient):
        raise RuleError("RUL-34", f"the reinforcement on {_sq(sq)} is {waiting[1]}{waiting[2]}")
    if sq not in state.turn.vacated:
        raise RuleError("RUL-34", f"no friendly piece that stood on {_sq(sq)} at the start of "
                                  "the turn has left it this turn (A-18)")
    hidden = hidden_from(state, side)
    if any(s not in hidden for s in state.at(sq[0], sq[1], GROUND)):
        raise RuleError("RUL-34", f"the Ground of {_sq(sq)} is not empty")


def _do_reinforce(state: GameState, action: Reinforce) -> None:
    sq = (action.row, action.col)
    side = state.side_to_move
    state.record.reinforce = action
    state.turn = replace(state.turn, reinforced=True)
    if current_answerer().any_hidden(state, side, [(sq[0], sq[1], GROUND)]):   # HQ-13
        return                                        # RUL-47: the Reinforce fails
    _, kind, hand = state.own("reinforcements").pop(sq)
    p = Piece(state.next_sid, kind, side, sq[0], sq[1], GROUND, hand,
              origin=kind in PAWN_KINDS)
    state.next_sid += 1
    state.put(p)
    for key in lock_sources(state, p):
        attempt_lock(state, key, p)
    arrival_hits(state, [p.sid])


def _check_end_turn(state: GameState) -> None:
    if state.turn.moved:
        return
    side = state.side_to_move
    plans = _allowed_moves(state, side)
    if plans:
        if any(pl.sid in state.turn.obliged for pl in plans):
            raise RuleError("RUL-44", "an airborne Chopper has a legal Move and must land first")
        raise RuleError("01/R4.2", "the turn's Move has not been made and a legal Move exists")


# -- generators ------------------------------------------------------------------------------

def _pickups(state: GameState, side: str) -> list[PickUp]:
    if state.turn.picked:
        return []
    out = []
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        if p.side != side or p.level != GROUND or p.trip is not None or not _may_act(state, sid):
            continue
        seen = set()
        for aid in state.ground.get(p.square, ()):
            code = state.art_code[aid]
            if code in seen:
                continue
            seen.add(code)
            if _fits(state, p, p.arts + (aid,)) and _stealth_primary_ok(state, p, code):
                out.append(PickUp(describe(state, p), code))
    return out


def _drops(state: GameState, side: str) -> list[Drop]:
    if state.turn.dropped:
        return []
    out = []
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        if p.side != side or not p.arts or not _may_act(state, sid):
            continue
        if len(state.ground.get(p.square, ())) >= 2:
            continue
        seen = set()
        for aid in _free(p):
            code = state.art_code[aid]
            if code in seen:
                continue
            seen.add(code)
            rest = replace(p, arts=tuple(a for a in p.arts if a != aid))
            if len(rest.arts) <= capacity(state, rest):
                out.append(Drop(describe(state, p), code))
    return out


def _exchanges(state: GameState, side: str) -> list[Exchange]:
    if state.turn.exchanged:
        return []
    mine = [state.pieces[s] for s in sorted(state.pieces)
            if state.pieces[s].side == side and _may_act(state, s)]
    out: list[Exchange] = []
    free = {p.sid: _distinct(state, _free(p)) for p in mine}     # what each may give
    secondary = {p.sid for p in mine if KINDS[p.kind].role == "secondary"}
    for g in mine:
        if not g.arts:
            continue
        gives = free[g.sid]
        gd = None
        for r in mine:
            if r.sid == g.sid:
                continue
            if max(abs(g.row - r.row), abs(g.col - r.col)) > 1 and \
                    g.sid not in secondary and r.sid not in secondary:
                continue                  # next to each other, or one is secondary
            if gd is None:
                gd = describe(state, g)
            rd = describe(state, r)
            for a1 in gives:
                code = state.art_code[a1]
                if _swap_ok(state, g, r, a1, None):
                    out.append(Exchange(gd, code, rd))
                if r.sid > g.sid:
                    for a2 in free[r.sid]:
                        if _swap_ok(state, g, r, a1, a2):
                            out.append(Exchange(gd, code, rd, state.art_code[a2]))
    return out


def _distinct(state: GameState, aids: tuple[int, ...]) -> list[int]:
    """The first article of each type, in acquisition order (04/H24)."""
    seen: dict[str, int] = {}
    for a in aids:
        seen.setdefault(state.art_code[a], a)
    return list(seen.values())


def _swap_ok(state: GameState, giver: Piece, receiver: Piece, a1: int, a2: int | None) -> bool:
    """Capacity (RUL-28) and Stealth on a primary piece (RUL-18) after an Exchange."""
    g_arts = tuple(a for a in giver.arts if a != a1) + ((a2,) if a2 else ())
    r_arts = tuple(a for a in receiver.arts if a != a2) + (a1,)
    if not _fits(state, giver, g_arts) or not _fits(state, receiver, r_arts):
        return False
    if not _stealth_primary_ok(state, receiver, state.art_code[a1]):
        return False
    return a2 is None or _stealth_primary_ok(state, giver, state.art_code[a2])


def _reinforces(state: GameState, side: str) -> list[Reinforce]:
    if state.turn.reinforced:
        return []
    out = []
    for sq in sorted(state.turn.vacated):
        waiting = state.reinforcements.get(sq)
        if waiting is None or waiting[0] != side:
            continue
        action = Reinforce(sq[0], sq[1], waiting[1], waiting[2])
        try:
            _check_reinforce(state, action)
        except RuleError:
            continue
        out.append(action)
    return out


# -- small helpers ---------------------------------------------------------------------------

def _free(p: Piece) -> tuple[int, ...]:
    """Held articles that may leave the piece: not the one in use on a trip (RUL-29)."""
    if p.trip is None:
        return p.arts
    return tuple(a for a in p.arts if a != p.trip[0])


def _fits(state: GameState, p: Piece, arts: tuple[int, ...]) -> bool:
    """No action may leave a piece over its capacity (RUL-28, same rule as ``board.capacity``)."""
    if p.kind == "XP":
        return len(arts) <= 2
    if len(arts) <= 1:
        return True
    return len(arts) <= 3 and any(state.art_code[a] == "XXX" for a in arts)


def _art(code: str) -> str:
    """Article token aliases (RUL-35): JU is the Jump Pack."""
    return "JP" if code == "JU" else code


def _sq(sq: tuple[int, int]) -> str:
    return f"({sq[0]},{sq[1]})"


def _fmt_desc(desc: PieceDesc) -> str:
    return format_piece(desc)
