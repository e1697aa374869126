"""Endings without capture over real TLS on 127.0.0.1 (issue 10 item 1): signed resignation and
agreed draw (RUL-53), abandonment claimed after a limit (both transcripts record it; the absent
side sees it when it returns), the negotiated move time limit, and the loss by too many refused
actions. Every limit is injected short through the product's configuration; nothing waits on a
wall-clock margin: the tests wait for the outcome (events), under an overall deadline."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

import engine.api as engine
from net.audit_log import audit_log
from net.chain import ChainReader
from net.match import Match
from net.messages import Action, Claim, DrawAnswer, DrawOffer, Resign, Signed
from net.outputs import Send
from net.saves import verify_transcript
from net.session import Host, claim_abandoned, join, play_as_guest
from net.wal import read
from net_evil import Evil
from net_helpers import QuickBot, make_cfg, run


def _messages(path: Path) -> list[tuple[str, Any]]:
    """(direction, game message) of every entry of a transcript, after verifying it."""
    header, entries, _ = read(path)
    verify_transcript(header, entries)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    out = []
    for e in entries:
        v = readers[e.direction].check(e.signed)
        assert v is not None
        readers[e.direction].accept(v)
        out.append((e.direction, v.message))
    return out


class Scripted(QuickBot):
    """A bot that, after ``after`` of its own actions, does ``then`` in its own turn:
    "resign", "offer-draw" or "stall" (stays connected, never acts again)."""

    def __init__(self, *a: Any, after: int, then: str, accept_draw: bool = True, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.after, self.then, self.accept_draw, self.done = after, then, accept_draw, False

    def decide(self, match: Match) -> Send | None:
        play = match.play
        if play is not None and play.draw_offer is not None and play.draw_offer[0] == "peer":
            if not self.accept_draw:
                return play.answer_draw(False)
            if play.my_move() and play.turn == play.draw_offer[1] + 1:
                return play.answer_draw(True)
        if play is not None and self.actions >= self.after and play.my_move():
            if self.then == "stall":
                return None
            if not self.done:
                self.done = True
                return play.resign() if self.then == "resign" else play.offer_draw()
        return super().decide(match)


class DrawAccepter(QuickBot):
    """A bot that accepts a standing draw offer in its next turn (RUL-53)."""

    def decide(self, match: Match) -> Send | None:
        play = match.play
        if (play is not None and play.draw_offer is not None and play.draw_offer[0] == "peer" and play.my_move()
                and play.turn == play.draw_offer[1] + 1):
            return play.answer_draw(True)
        return super().decide(match)


async def _pair_and_play(tmp: Path, host_bot: Any, guest_bot: Any, requests: list[dict[str, Any]] | None = None,
                         **cfg_kw: Any) -> tuple[Any, Any, Any, Any, Host]:
    hc, gc = make_cfg(tmp, "host", engine, **cfg_kw), make_cfg(tmp, "guest", engine, **cfg_kw)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=3, backoff=0.05)
        host_out = await host.wait(30)
    finally:
        await host.close()
    return hc, gc, host_out, guest_out, host


def test_signed_resignation_ends_the_game_for_both_RUL_53(tmp_path: Path) -> None:
    """RUL-53: the guest (black) resigns during its own turn; white wins on both sides, and both
    signed transcripts record the resignation as the guest's signed message."""
    host_bot = QuickBot(engine, seed=1, colour="white")
    guest_bot = Scripted(engine, seed=2, colour="black", after=3, then="resign")
    hc, gc, host_out, guest_out, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert (host_out.outcome, guest_out.outcome) == ("white", "white")
    assert host_out.state_hash == guest_out.state_hash
    assert "black resigned (RUL-53)" in host_out.reason
    h_msgs, g_msgs = _messages(host_out.transcript), _messages(guest_out.transcript)
    assert [m for d, m in h_msgs if isinstance(m, Resign) and d == "in"] == \
           [m for d, m in g_msgs if isinstance(m, Resign) and d == "out"]
    assert len([m for _, m in g_msgs if isinstance(m, Resign)]) == 1
    assert not list((hc.data_dir / "games").glob("active-*"))


def test_resignation_outside_own_turn_is_refused_RUL_53(tmp_path: Path) -> None:
    """RUL-53: resignation only during one's own turn; our side refuses to send it otherwise."""
    host_bot = QuickBot(engine, seed=1, colour="white")
    guest_bot = Scripted(engine, seed=2, colour="black", after=3, then="resign")
    _, _, host_out, _, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    play = host_out.match.play   # the game is over: no resignation, no draw offer, no claim
    for command in (play.resign, play.offer_draw):
        with pytest.raises(RuntimeError):
            command()
    with pytest.raises(RuntimeError, match="the game is over"):
        play.claim("abandoned", "x")


def test_draw_offered_in_own_turn_and_accepted_in_the_next_is_a_draw_RUL_53(tmp_path: Path) -> None:
    """RUL-53: black offers a draw during its turn; white accepts during its next turn: draw on both."""
    host_bot = DrawAccepter(engine, seed=1, colour="white")
    guest_bot = Scripted(engine, seed=2, colour="black", after=2, then="offer-draw")
    _, _, host_out, guest_out, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    assert (host_out.outcome, guest_out.outcome) == ("draw", "draw")
    assert host_out.state_hash == guest_out.state_hash
    g_msgs = _messages(guest_out.transcript)
    offers = [m for d, m in g_msgs if d == "out" and isinstance(m, DrawOffer)]
    accepts = [m for d, m in g_msgs if d == "in" and isinstance(m, DrawAnswer)]
    assert len(offers) == 1 and accepts == [DrawAnswer(offers[0].turn, True)]
    assert "draw agreed" in guest_out.reason


async def _quit_mid_game(tmp: Path) -> tuple[Any, ...]:
    """The guest plays a few actions, then its connection drops and it does not come back; the
    host claims after ``abandon_after``. Then the guest returns and learns the result."""
    hc, gc = make_cfg(tmp, "host", engine, abandon_after=0.3), make_cfg(tmp, "guest", engine, abandon_after=0)
    host_bot = QuickBot(engine, seed=1, colour="white")
    guest_bot = Scripted(engine, seed=2, colour="black", after=3, then="stall")
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        quitter = asyncio.ensure_future(join(gc, guest_bot, "127.0.0.1", port))
        while not (host.active_link is not None and host_bot.kinds().count("applied") >= 3):
            await asyncio.sleep(0.005)
        host.active_link.writer.transport.abort()   # the losing player's link is gone...
        assert (await quitter).status == "disconnected"   # ...and it does not try again
        host_out = await host.wait(30)
        claimed = _messages(host_out.transcript)   # the winner's record, before the absent side returns
        returned = await join(gc, QuickBot(engine, seed=3, colour="black"), "127.0.0.1", port)
    finally:
        await host.close()
    return hc, gc, host, host_out, claimed, returned


def test_peer_that_quits_and_stays_away_loses_by_abandonment_and_sees_it_on_return(tmp_path: Path) -> None:
    """Issue 10 item 1 (RUL-53 ruling on abandonment): the guest quits mid-game and does not come
    back within the limit; the host's transcript records its signed claim and the win; when the
    guest returns it receives the claim, records the same result, and both logs are finished."""
    hc, gc, host, host_out, claimed, returned = run(_quit_mid_game(tmp_path))
    assert (host_out.status, host_out.outcome) == ("finished", "white")
    assert "black abandoned the game" in host_out.reason
    claims = [m for d, m in claimed if isinstance(m, Claim)]
    assert len(claims) == 1 and claims[0].kind == "abandoned"
    assert (returned.status, returned.outcome) == ("finished", "white")
    assert "black abandoned the game" in returned.reason
    g_claims = [(d, m) for d, m in _messages(returned.transcript) if isinstance(m, Claim)]
    assert g_claims == [("in", claims[0])]
    assert not list((gc.data_dir / "games").glob("active-*"))
    assert not list((hc.data_dir / "games").glob("active-*"))
    finished = host.connections[-1]   # the host's log, now finished, still holds its claim
    assert finished.status == "finished" and finished.outcome == "white"
    assert [m for d, m in _messages(finished.transcript) if isinstance(m, Claim)] == claims


async def _host_leaves(tmp: Path) -> tuple[Any, Any, list[tuple[str, Any]], Any]:
    hc, gc = make_cfg(tmp, "host", engine, abandon_after=0), make_cfg(tmp, "guest", engine, abandon_after=0.3)
    host_bot = Scripted(engine, seed=1, colour="white", after=3, then="stall")
    guest_bot = QuickBot(engine, seed=2, colour="black")
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    guest = asyncio.ensure_future(play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=3, backoff=0.05))
    while guest_bot.kinds().count("applied") < 3:
        await asyncio.sleep(0.005)
    await host.close()   # the host's laptop leaves: its listener and its connection are gone
    guest_out = await guest
    claimed = _messages(guest_out.transcript)
    back = Host(hc, QuickBot(engine, seed=5, colour="white"), "127.0.0.1", 0)   # the host comes back later
    port = await back.start()
    try:
        again = await join(gc, QuickBot(engine, seed=6, colour="black"), "127.0.0.1", port)
        host_out = await back.wait(30)
    finally:
        await back.close()
    return guest_out, claimed, again, host_out


def test_guest_claims_when_the_host_does_not_come_back_and_the_host_sees_it_later(tmp_path: Path) -> None:
    """Issue 10 item 1: the guest keeps trying to reconnect; after ``abandon_after`` without the
    host it claims the game, signed, in its own transcript. When the host hosts again and the
    guest joins, the host receives the claim and records the same result."""
    guest_out, claimed, again, host_out = run(_host_leaves(tmp_path))
    assert (guest_out.status, guest_out.outcome) == ("finished", "black")
    assert "white abandoned the game" in guest_out.reason
    assert [(d, m.kind) for d, m in claimed if isinstance(m, Claim)] == [("out", "abandoned")]
    assert (again.status, again.outcome) == (host_out.status, host_out.outcome) == ("finished", "black")
    assert [(d, m.kind) for d, m in _messages(host_out.transcript) if isinstance(m, Claim)] == [("in", "abandoned")]


async def _both_claim(tmp: Path) -> tuple[Any, Any]:
    """The link drops; both sides wait in vain (each is cut off) and both claim; then they meet."""
    hc, gc = make_cfg(tmp, "host", engine, abandon_after=0), make_cfg(tmp, "guest", engine, abandon_after=0)
    host_bot = Scripted(engine, seed=1, colour="white", after=3, then="stall")
    guest_bot = Scripted(engine, seed=2, colour="black", after=3, then="stall")
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        first = asyncio.ensure_future(join(gc, guest_bot, "127.0.0.1", port))
        while not (host.active_link is not None and host_bot.kinds().count("applied") >= 3):
            await asyncio.sleep(0.005)
        host.active_link.writer.transport.abort()
        await first
        while not any(o.status == "disconnected" for o in host.connections):
            await asyncio.sleep(0.005)
        h_claim = claim_abandoned(hc, gc.identity.public_bytes, "test: cut off")
        g_claim = claim_abandoned(gc, hc.identity.public_bytes, "test: cut off")
        assert h_claim is not None and g_claim is not None
        assert (h_claim.outcome, g_claim.outcome) == ("white", "black")
        guest_out = await join(gc, QuickBot(engine, seed=4), "127.0.0.1", port)
        host_out = await host.wait(30)
    finally:
        await host.close()
    return host_out, guest_out


def test_crossed_abandonment_claims_draw_the_game_on_both_sides(tmp_path: Path) -> None:
    """docs/rulings.md (abandonment, RUL-53): two claims made while the laptops were cut off from
    each other cancel out: when they meet again both record the same result, a draw."""
    host_out, guest_out = run(_both_claim(tmp_path))
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert (host_out.outcome, guest_out.outcome) == ("draw", "draw")
    for out in (host_out, guest_out):
        assert "both sides claimed" in out.reason
        assert [(d, m.kind) for d, m in _messages(out.transcript) if isinstance(m, Claim)] in (
            [("out", "abandoned"), ("in", "abandoned")],)


def test_staller_loses_on_the_negotiated_move_time_limit(tmp_path: Path) -> None:
    """Issue 10 item 1: the guest asks for a move time limit (a rule option, approved by the host);
    then it stops acting but stays connected (pings keep the link up): the host claims on time."""
    host_bot = QuickBot(engine, seed=1, colour="white")
    guest_bot = Scripted(engine, seed=2, colour="black", after=2, then="stall",
                         requests=[{"move_time_limit": 3}])
    hc, gc, host_out, guest_out, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    assert host_out.match.play.move_time_limit == guest_out.match.play.move_time_limit == 3
    assert (host_out.status, host_out.outcome) == ("finished", "white")
    assert (guest_out.status, guest_out.outcome) == ("finished", "white")
    assert "black exceeded the move time limit (3 s)" in guest_out.reason
    claims = [(d, m.kind) for d, m in _messages(guest_out.transcript) if isinstance(m, Claim)]
    assert claims == [("in", "time")]


def test_move_time_limit_is_off_by_default_and_checked_when_requested(tmp_path: Path) -> None:
    """Issue 10 item 1: no clock unless agreed; a bad value is refused with the option's range,
    and an option left at its default does not change the options hash (game ids stay stable)."""
    from net.negotiation import Setup
    setup = Setup(engine, bytes(32), "host")
    assert setup.net_options()["move_time_limit"] == 0
    assert "move_time_limit" not in setup.options_dict()
    for bad in (-1, 86401, "fast", True):
        with pytest.raises(ValueError, match="move_time_limit must be an integer from 0 to 86400"):
            setup.request({"move_time_limit": bad})
    host_bot = QuickBot(engine, seed=1, colour="white", max_actions=2)
    guest_bot = Scripted(engine, seed=2, colour="black", after=1, then="resign")
    _, _, host_out, _, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    assert host_out.match.play.move_time_limit == 0 and host_out.match.play.peer_clock() is None


@asynccontextmanager
async def _host_and_evil_guest(tmp: Path, **bot_kw: Any) -> AsyncIterator[tuple[Host, Evil]]:
    """An honest host (white, ``QuickBot`` with ``bot_kw``) and the evil guest (tests/net_evil.py),
    connected, past hello and the setup, the guest black and to move; both are closed on exit."""
    hc = make_cfg(tmp, "host", engine)
    host = Host(hc, QuickBot(engine, seed=1, colour="white", **bot_kw), "127.0.0.1", 0)
    port = await host.start()
    evil = Evil(tmp, hc)
    try:
        await evil.connect(port, hc.timeouts)
        await evil.hello()
        await evil.setup_as_black()      # black moves first
        yield host, evil
    finally:
        if evil.link is not None:
            await evil.link.close()
        await host.close()


async def _breach(tmp: Path, lie: Any) -> tuple[Any, Any, int, list[Any]]:
    """The evil guest (black, to move) signs and sends ``lie(evil)`` as its first play message, fed
    to its own (honest) machine too, then reads what the host sends until its machine has a result.
    (host outcome, the guest's play result, the lie's seq, the messages the guest read after it)."""
    read_after: list[Any] = []
    async with _host_and_evil_guest(tmp) as (host, evil):
        assert evil.match.play is not None and evil.match.play.my_move()
        seq = len(evil.sent)             # the lie's seq: the guest signed len(sent) messages before it
        await evil.send(lie(evil))
        try:
            while evil.match.play.result is None:
                read_after.append(await evil.pump())
        except Exception:   # the host closed the link
            pass
        host_out = await host.wait(30)
    return host_out, evil.match.play.result, seq, read_after


def _assert_breach(host_out: Any, guest_result: Any, seq: int, read_after: list[Any], reason: str) -> None:
    """N-6: the host (white) records the win, its signed claim names the guest's message #seq, and
    the guest's machine records the same result from that claim."""
    assert host_out.status == "finished" and host_out.outcome == "white"
    assert host_out.reason.startswith("black lost by breach: ") and reason in host_out.reason
    assert host_out.reason.endswith(f"proven by signed message #{seq}")
    msgs = _messages(host_out.transcript)
    claims = [m for d, m in msgs if d == "out" and isinstance(m, Claim)]
    assert len(claims) == 1 and claims[0].kind == "breach" and claims[0].seen == seq + 1
    assert len([m for d, m in msgs if d == "in"]) == seq + 1      # the signed lie is the last one read
    assert claims[0] in read_after
    assert guest_result is not None and (guest_result["outcome"], guest_result["ending"]) == ("white", "breach")
    assert guest_result["detail"] == host_out.reason
    # a third party re-checks it from the signed transcript alone (``wec audit LOG``)
    recheck = audit_log(engine, host_out.transcript)
    assert recheck.ok is None and "the replay of the signed transcript finds the same fault" in recheck.report
    assert host_out.reason in recheck.report


def test_an_action_in_clear_loses_a_hidden_game_by_breach(tmp_path: Path) -> None:
    """HN-1 / N-6 (docs/rulings.md): network games run hidden play, where the acting side's own
    engine refuses an illegal action before anything is sent; an omniscient-lockstep ``action``
    is forbidden by its tag alone, so the signed message proves the breach: the sender loses,
    both sides record it, and the signed message stays in the host's transcript."""
    host_out, guest_result, seq, read_after = run(_breach(tmp_path, lambda e: Action(0, "Zz99-Q0")))
    _assert_breach(host_out, guest_result, seq, read_after, "HN-1")
    msgs = _messages(host_out.transcript)
    assert [m for d, m in msgs if d == "in" and isinstance(m, Action)] == [Action(0, "Zz99-Q0")]
    claims = [m for d, m in msgs if d == "out" and isinstance(m, Claim)]
    assert [c.kind for c in claims] == ["breach"] and "proven by signed message #" in claims[0].detail


async def _unfounded_claim(tmp: Path) -> Any:
    async with _host_and_evil_guest(tmp, max_actions=0) as (host, evil):
        await evil.send(Claim("refused-actions", 0, 0, 0, "lies"), feed=False)
        return await host.wait(30)


def test_an_unfounded_refused_actions_claim_loses_the_claimant_the_game_RUL_53(tmp_path: Path) -> None:
    """RUL-53 with docs/rulings.md N-6: the accused checks a refused-actions claim against the
    public count, which the signed transcript shows; a claim that does not hold is a breach
    proven by the claimant's own signed message: the claimant (black) loses."""
    out = run(_unfounded_claim(tmp_path))
    assert (out.status, out.outcome) == ("finished", "white")
    assert "black lost by breach" in out.reason and "unfounded refused-actions claim" in out.reason


async def _lying_peer(tmp: Path, lie: Any) -> Any:
    """The evil guest (black, to move) sends ``lie(evil)`` as its first play message."""
    async with _host_and_evil_guest(tmp) as (host, evil):
        await evil.send(lie(evil), feed=False)
        return await host.wait(30)


@pytest.mark.parametrize("lie, reason", [
    (lambda e: Resign(1, 0), "resignation outside the sender's own turn (RUL-53)"),
    (lambda e: Resign(0, 7), "resignation with 7 actions applied, we have 0"),
    (lambda e: DrawAnswer(0, True), "draw answer for turn 0 without a standing offer"),
    (lambda e: Claim("time", 0, 0, 0, "lies"), "unfounded time claim: no move time limit was agreed"),
])
def test_an_ending_that_breaks_the_rules_loses_the_sender_the_game_RUL_53(tmp_path: Path, lie: Any,
                                                                          reason: str) -> None:
    """RUL-53 with docs/rulings.md N-6: a resignation out of turn or with a wrong action count, an
    answer to no offer, and a time claim without an agreed limit break a rule any reader of the
    signed transcript re-checks: the sender (black) loses by breach, the reason and the evidence
    message's number in the result."""
    out = run(_lying_peer(tmp_path, lie))
    assert (out.status, out.outcome) == ("finished", "white")
    assert "black lost by breach" in out.reason and reason in out.reason
    assert "proven by signed message #" in out.reason


@pytest.mark.parametrize("lie, reason", [
    (lambda e: Resign(1, 0), "resignation outside the sender's own turn (RUL-53)"),
    (lambda e: DrawAnswer(0, True), "draw answer for turn 0 without a standing offer"),
    (lambda e: Claim("refused-actions", 0, 0, 0, "lies"), "unfounded refused-actions claim"),
])
def test_the_breach_claim_names_the_message_and_the_sender_records_the_same_loss_RUL_53(
        tmp_path: Path, lie: Any, reason: str) -> None:
    """RUL-53 with docs/rulings.md N-6: the sender's own machine logs its forbidden message (it makes
    the receiver's check of it), then reads the host's signed ``claim{breach}``, whose ``seen`` and
    detail name that message's chain seq, and records the same result: white won by breach."""
    host_out, guest_result, seq, read_after = run(_breach(tmp_path, lie))
    _assert_breach(host_out, guest_result, seq, read_after, reason)


def test_a_forged_signature_on_a_forbidden_message_decides_nothing_RUL_53(tmp_path: Path) -> None:
    """docs/rulings.md N-6: a frame whose signature does not verify proves nothing about its sender:
    the link is dropped ("bad signature"), no claim is signed and no result recorded (the game is
    left to resume)."""
    async def go() -> Any:
        async with _host_and_evil_guest(tmp_path) as (host, evil):
            good = evil.writer.sign(Resign(1, 0))
            assert evil.link is not None
            await evil.link.send(Signed(good.payload, bytes([good.sig[0] ^ 1]) + good.sig[1:]))

            async def ended() -> Any:   # the host ends this connection (the game stays open to resume)
                while not host.connections:
                    await asyncio.sleep(0.01)
                return host.connections[0]
            return await asyncio.wait_for(ended(), 50), evil.identity.public_bytes, host.cfg
    out, evil_pub, hc = run(go())
    assert out.status == "disconnected" and "bad signature" in out.reason and out.outcome is None
    msgs = _messages(hc.active_wal(evil_pub))
    assert msgs and not any(isinstance(m, (Claim, Resign)) for _, m in msgs)


def test_a_draw_offer_lapses_at_the_end_of_the_opponents_next_turn_RUL_53(tmp_path: Path) -> None:
    """RUL-53: "the offer stands until the end of the opponent's next turn": the host never
    answers; when its next turn ends the offer lapses on both sides and the game goes on (the
    guest then resigns, so that it ends)."""
    host_bot = QuickBot(engine, seed=1, colour="white")

    class OfferThenResign(Scripted):
        def decide(self, match: Match) -> Send | None:
            play = match.play
            if play is not None and self.done and play.my_move() and "draw-offer-lapsed" in self.kinds():
                return play.resign()
            return super().decide(match)

    guest_bot = OfferThenResign(engine, seed=2, colour="black", after=2, then="offer-draw")
    _, _, host_out, guest_out, _ = run(_pair_and_play(tmp_path, host_bot, guest_bot))
    assert (host_out.outcome, guest_out.outcome) == ("white", "white")
    lapsed_g = [e.data for e in guest_bot.events if e.kind == "draw-offer-lapsed"]
    lapsed_h = [e.data for e in host_bot.events if e.kind == "draw-offer-lapsed"]
    offers = [e.data for e in host_bot.events if e.kind == "draw-offer"]
    assert len(offers) == 1 and lapsed_g == [{"by": "us", "turn": offers[0]["turn"]}]
    assert lapsed_h == [{"by": "peer", "turn": offers[0]["turn"]}]


async def _liar_reads_the_claim(tmp: Path) -> tuple[Any, Any]:
    async with _host_and_evil_guest(tmp) as (host, evil):
        await evil.send(Resign(1, 0))        # out of turn, fed to the liar's own real machine too
        claim = None
        while claim is None:
            m = await evil.pump()
            if isinstance(m, Claim):
                claim = m
        host_out = await host.wait(30)
    return host_out, evil.match.play


def test_the_breaching_side_records_its_own_loss_when_it_reads_the_claim_RUL_53(tmp_path: Path) -> None:
    """RUL-53 with docs/rulings.md N-6: the liar's own machine finds its resignation out of turn
    at fault when it logs it; the honest host's signed ``claim{breach}`` then gives both sides the
    same result: white wins, "black lost by breach"."""
    host_out, liar_play = run(_liar_reads_the_claim(tmp_path))
    assert (host_out.status, host_out.outcome) == ("finished", "white")
    assert liar_play.own_fault is not None and "outside the sender's own turn" in liar_play.own_fault[1]
    assert liar_play.result is not None and liar_play.result["outcome"] == "white"
    assert liar_play.result["ending"] == "breach" and "black lost by breach" in liar_play.result["detail"]


class QuitsAfterBreach(QuickBot):
    """Black: in its first own move it signs a resignation for the next turn, outside its own turn
    (a breach, N-6), and its player quits the moment its own machine finds that fault: the session
    is cancelled right there (as net/bridge's quit cancels it), before it reads anything more."""

    breached = False

    def decide(self, match: Match) -> Send | None:
        play = match.play
        if play is not None and play.my_move() and not self.breached:
            self.breached = True
            return Send(Resign(play.turn + 1, play.index))
        return super().decide(match)

    def on_event(self, event: Any) -> None:
        super().on_event(event)
        if event.kind == "own-fault":
            raise asyncio.CancelledError   # the player closes the game at this very moment


async def _breach_then_quit(tmp: Path) -> tuple[Any, ...]:
    """The guest breaches and quits at once; the host records its win; the guest joins again."""
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine, abandon_after=0)
    host = Host(hc, QuickBot(engine, seed=1, colour="white"), "127.0.0.1", 0)
    port = await host.start()
    try:
        quitter = asyncio.ensure_future(join(gc, QuitsAfterBreach(engine, seed=2, colour="black"), "127.0.0.1", port))
        await asyncio.gather(quitter, return_exceptions=True)
        assert quitter.cancelled()
        left = _messages(gc.active_wal(hc.identity.public_bytes))   # the quitter's log as it left it
        won = await host.wait(30)
        won_log = _messages(won.transcript)   # the winner's record, before the offender returns
        returned = await join(gc, QuickBot(engine, seed=3, colour="black"), "127.0.0.1", port)
        delivered = None
        while returned.status == "finished" and delivered is None:   # the host's end of the resume
            done = [o for o in host.connections if o.status == "finished"]
            delivered = done[-1] if len(done) == 2 else None
            await asyncio.sleep(0.005)
    finally:
        await host.close()
    return hc, gc, left, won, won_log, returned, delivered


def test_an_offender_that_quits_at_once_is_shown_its_breach_loss_on_return_RUL_53(tmp_path: Path) -> None:
    """RUL-53 with docs/rulings.md N-6 (and N-2's delivery): the guest signs a resignation out of
    turn and quits before it reads anything. The host records its win at once, and its log, which
    holds its signed ``claim{breach}``, stays the active one; when the guest joins again the resume
    delivers the claim: the guest is shown "black lost by breach ... proven by signed message #k",
    both transcripts record the same claim and result, and then both logs are finished."""
    hc, gc, left, won, won_log, returned, delivered = run(_breach_then_quit(tmp_path))
    resign_seq = [m for d, m in left if d == "out"].index(Resign(1, 0))   # the lie's number in the guest's chain
    assert not any(isinstance(m, Claim) for _, m in left)   # it left before reading the claim
    assert (won.status, won.outcome) == ("finished", "white")
    assert won.reason.startswith("black lost by breach: resignation outside the sender's own turn (RUL-53)")
    assert won.reason.endswith(f"proven by signed message #{resign_seq}")
    assert won.transcript == hc.active_wal(gc.identity.public_bytes)   # kept active: not delivered yet
    claims = [m for d, m in won_log if d == "out" and isinstance(m, Claim)]
    assert len(claims) == 1 and claims[0].kind == "breach" and claims[0].seen == resign_seq + 1
    assert (returned.status, returned.outcome) == ("finished", "white")
    assert returned.reason == won.reason
    g_msgs = _messages(returned.transcript)
    assert [(d, m) for d, m in g_msgs if isinstance(m, Claim)] == [("in", claims[0])]
    assert (delivered.status, delivered.outcome, delivered.reason) == ("finished", "white", won.reason)
    h_msgs = _messages(delivered.transcript)
    assert [m for d, m in h_msgs if isinstance(m, Claim)] == claims
    assert [m for d, m in h_msgs if d == "in"] == [m for d, m in g_msgs if d == "out"]
    assert [m for d, m in h_msgs if d == "out"] == [m for d, m in g_msgs if d == "in"]
    assert delivered.transcript.name.endswith(".finished.wal") and returned.transcript.name.endswith(".finished.wal")
    assert not list((hc.data_dir / "games").glob("active-*"))
    assert not list((gc.data_dir / "games").glob("active-*"))
    for path in (delivered.transcript, returned.transcript):   # a third party finds the same fault in each
        recheck = audit_log(engine, path)
        assert recheck.ok is None and won.reason in recheck.report


async def _receipt_lost(tmp: Path) -> tuple[Any, ...]:
    """The evil guest breaches, reads the claim (its machine records the loss) and closes without
    its receipt; then it connects again holding no unfinished game (its hello names none)."""
    async with _host_and_evil_guest(tmp) as (host, evil):
        await evil.send(Resign(1, 0))
        while evil.match.play.result is None:
            await evil.pump()
        assert evil.link is not None
        await evil.link.close()              # no ``got``: the host cannot know it read the claim
        won = await host.wait(30)
        kept = won.transcript == host.cfg.active_wal(evil.identity.public_bytes), won.transcript.exists()
        chain = evil.chain_id
        back = Evil(tmp, host.cfg)           # the same identity, back with no unfinished game
        await back.connect(host.port, host.cfg.timeouts)
        hello = await back.hello()
        assert back.link is not None
        await back.link.close()
    return host.cfg, won, kept, chain, hello


def test_an_ending_whose_receipt_was_lost_is_finished_when_the_peer_holds_no_unfinished_game(
        tmp_path: Path) -> None:
    """docs/rulings.md N-6 (delivery): the host's breach claim was read but its receipt never came,
    so its log stayed active; when the peer comes back with no unfinished game (it recorded the end),
    nothing is left to deliver: the host finishes that log, with its claim, and answers with a hello
    for a new game instead of refusing "different unfinished games"."""
    hc, won, kept, chain, hello = run(_receipt_lost(tmp_path))
    assert (won.status, won.outcome) == ("finished", "white") and "black lost by breach" in won.reason
    assert kept == (True, True)   # the claim kept in the active log
    assert hello.chain is None and (hello.sent, hello.recv) == (0, 0)
    finished = hc.games_dir / f"{chain.hex()[:16]}.finished.wal"
    assert [(d, m.kind) for d, m in _messages(finished) if isinstance(m, Claim)] == [("out", "breach")]


class QuitsAfterResigning(Scripted):
    """Resigns (``Scripted``), and its player quits the moment its own machine records the end, before
    it reads anything more (the host's receipt): the session is cancelled right there."""

    def on_event(self, event: Any) -> None:
        super().on_event(event)
        if event.kind == "game-over":
            raise asyncio.CancelledError


async def _resign_then_quit(tmp: Path) -> tuple[Any, ...]:
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine, abandon_after=0)
    host = Host(hc, QuickBot(engine, seed=1, colour="white"), "127.0.0.1", 0)
    port = await host.start()
    try:
        quitter = asyncio.ensure_future(join(gc, QuitsAfterResigning(engine, seed=2, colour="black", after=1,
                                                                     then="resign"), "127.0.0.1", port))
        await asyncio.gather(quitter, return_exceptions=True)
        assert quitter.cancelled()
        kept = _messages(gc.active_wal(hc.identity.public_bytes))   # the resigner's log, awaiting the receipt
        won = await host.wait(30)
        again = await join(gc, Scripted(engine, seed=3, colour="black", after=1, then="resign"), "127.0.0.1", port)
    finally:
        await host.close()
    return gc, kept, won, again


def test_a_guest_that_resigns_and_quits_at_once_starts_a_new_game_next_time_RUL_53(tmp_path: Path) -> None:
    """RUL-53 with docs/rulings.md N-6 (delivery): the guest resigns and quits before the host's
    receipt; the host recorded the resignation, so when the guest joins again its hello names a game
    the host holds no more: the guest finishes that log (its resignation in it) and connects again,
    and a new game is played instead of "different unfinished games" refusing every join."""
    gc, kept, won, again = run(_resign_then_quit(tmp_path))
    assert [d for d, m in kept if isinstance(m, Resign)] == ["out"]
    assert (won.status, won.outcome) == ("finished", "white") and "black resigned (RUL-53)" in won.reason
    assert (again.status, again.outcome) == ("finished", "white"), again.reason
    assert again.game_id != won.game_id
    old = gc.games_dir / f"{won.match.chain_id.hex()[:16]}.finished.wal"
    assert [(d, m) for d, m in _messages(old) if isinstance(m, Resign)] == \
           [("out", m) for d, m in _messages(won.transcript) if isinstance(m, Resign)]
    assert not list(gc.games_dir.glob("active-*"))
