"""The speed work of issue 13 item 8 changes no hash and no rule (DESIGN §3 determinism, 04/U31).

Every expected value below was computed by the engine WITHOUT the speed work (main at 7dfd56c;
two digests again at main 0f4f86d, whose RUL-19 fix ends a removed piece's locks at once),
with the loop of ``wec selfplay --seed N --turns T`` (seeded ``random_action`` until T finished
turns or the game's end) under the options given: the number of actions played, a SHA-256 digest
over the state hash after every action (so every intermediate state counts, not only the last)
and the final state hash (for the default options, the ``state`` line ``wec selfplay`` prints).
"""
from __future__ import annotations

import dataclasses
import hashlib
import gc
import random
import subprocess
import sys
import tracemalloc

import msgpack
import pytest

from engine import api
from engine.state import to_dict

#: (options that differ from the defaults, seed, turns, actions, digest of every hash, final hash)
RECORDED = [
    ({}, 0, 160, 267,
     'b1b697a368022350ac46e23209b3a648',
     '36b795548d1854e9bcd9b17c87365a0cd3b6d61a0ef2fc007effa804932886c9'),
    ({}, 1, 160, 117,
     '5134f891157580f1ddafa77c2954a859',
     '249930ce555a18ee8dce3409b554d30ef220c2fe6ee09789dee1e147d277d0bb'),
    ({}, 2, 160, 185,
     'efc1f2b3cfe19f9a83eb05c2f2c662ca',
     'db1ef6c8898ea739d91ced59ee039c88b78e06e85b5a085f376d1a47e0a9939e'),
    ({}, 3, 160, 783,
     'd78eda7f23cc3a8b514d5db355dbfaf2',
     '83ac96a2e21b6ba422e12f4eea1829073ed286028de03c48810a617a6675bb88'),
    ({}, 4, 160, 168,
     '9abe46afe4d8ab7b91845e9f0b847988',
     'c9cec420fcd97486dea1a071f0ca0303d0d145e0b27af8d9d84e51580b03cc06'),
    ({}, 5, 160, 299,
     '1af719c221d9a9a9a285f0cb17b0a3ad',
     'cbb284ea0679367b6a5578d468e562af465a9d9922e872296c8e572add0d498e'),
    ({}, 6, 160, 859,
     '3dcb4e2edf4a8f2cfef3a9dd288b697b',
     'a308e19b3182d7d0d10be58484c214f7f243dd7ea3cb685b614c89bb89fdee90'),
    ({}, 7, 160, 573,
     '8b0c8d0a06c3d4b0a2e24b4f3f52243a',
     '25fb0881f527eaa56d90ae3dd748a4f870f456cdd8a2aee70ad681d6d2b7b642'),
    ({}, 8, 160, 429,
     '2020b6c654e8457138471a4577d931a5',
     '55b28143dd9daef1d5a4eb5ed6e046b063407cdbb0c3bf92a17e1d6d42f11131'),
    ({}, 9, 160, 449,
     '04bf2135732310674da56018c801d6d3',
     'b83f431ec6822f943ddf44fae9a9fccae277c383605e0fc4d04760ef162135d9'),
    ({}, 10, 160, 60,
     '89b70f4619ce35427624906dca0bc4dc',
     'd1ef1ee5128f93e79d7676210d875b5a3ba294cc0a1922de1fe1553246cc3b2d'),
    ({}, 11, 160, 537,
     'e59842ec0367c8dc77b55e43f7463cd4',
     '08d1a14bd9adce32d08699bb0094b220b1513d23e728ab3450435815f2d765e3'),
    ({}, 100, 600, 744,
     '3079e40509a981a542aa691380130150',
     '687979465fe56d9589e805d1b64e1bf941323bbe9dd79983a7a0774a343a1e3a'),
    ({}, 101, 600, 80,
     '4709b6dee827c5f94a0babb429f73f48',
     '0d23174caa110b9a657a0eb302e565dc54f372c000d4b786c49882fd28fff037'),
    ({}, 102, 600, 1088,
     '9e173740f6e033af6f2c79f291bade90',
     'ace0e1d34f9291e4b54ea15e67675a7347213350fd070abf0bc4ea67b398d8ef'),
    ({'movement_type': 'standard_chess'}, 3, 200, 513,
     'ad7189754f418dd13d15f538fd6a1c39',
     'e522887402341655cb1c3647edfa0569858c21e53bb6d670b84414a02db59533'),
    ({'movement_type': 'standard_chess'}, 4, 200, 304,
     '637ba8f0be75793a814c96035ac3f692',
     'b050cf7908a7f8a15f11b50424c6f15db51338bc105c21139622930c8f6d5c08'),
    ({'movement_type': 'mass_destruction_chess'}, 5, 200, 852,
     '0f27037a8b5f270963d367ac6371fa1a',
     'c245f24d5a7ca3ba6b4d4ee0514e6640ad2f28c6b698b83b044e544549f4f82c'),
    ({'movement_type': 'mass_destruction_chess'}, 6, 200, 739,
     'da2d4d7455dce7374013fb81e907aaad',
     'e70f791fd1e3c2cd774df7df3f24f45f5872e0b1673853abd81fa8797bee1cfc'),
    ({'one_action_per_piece': True, 'stunned_may_act': False}, 7, 200, 349,
     'f2fa04fff89f39d06093a532387636ad',
     '645768b2150ede508fec25a7bf68b53645fa6a8b88c3677571443721397e117c'),
    ({'stealth_range_detection': True, 'detection_dominance': 'stealth'}, 8, 200, 429,
     'b8dd2aecfbac68461acbc729d479ba12',
     '9eef4db4ea32fb22397503c6922e07466af0c9af5deb8283017be0ea01dfc001'),
    ({'stealth_range_detection': True, 'detection_dominance': 'stealth'}, 9, 200, 449,
     '969283ce4b017426423d1848ffdcc0d4',
     'ba4df5c18955b061963634ac865c348dd4ed60d392b927d2c749f52c29f0152d'),
    ({'fire_limit_rule': 'per_weapon', 'projectile_speed': 2, 'homing_range': 5}, 10, 200, 60,
     '9b4aa4d485b061c366aaa841bd37d79b',
     '325ac26b9bb0e71036606e19567e82642c848ff53379d5096b25b829ac6284bf'),
    ({'fire_limit_rule': 'per_weapon', 'projectile_speed': 2, 'homing_range': 5}, 11, 200, 365,
     'a34df7324147d0eed22a70231da2fda6',
     'bc138812f9e3b06930df9cf393e0c35500ab0809e100f1c7b7d3ccacb8efe779'),
    ({'move_only': True}, 12, 200, 61,
     '054984c6d22ca03a60ec14a9514e97a5',
     '2f30ffa4fae70cc8cfa64aa7d8d55d2dd1503b5804a66eaff766d2ba0595c4c9'),
    ({'gov_black': 'democracy', 'gov_white': 'theocracy'}, 13, 200, 480,
     'b974147b9ad95fc22307a45ee4367a90',
     'f8068eb7de41b740ea8c186720d35a2640654b1ec4281147399cae99d25ffd88'),
]


def _options(changed: dict[str, object]) -> api.Options | None:
    return api.Options.from_dict({**api.Options().to_dict(), **changed}) if changed else None


def _selfplay(changed: dict[str, object], seed: int,
              turns: int) -> tuple[api.GameState, str, list[str]]:
    rng = random.Random(seed)
    state = api.new_game(_options(changed))
    digest = hashlib.sha256()
    hashes = [api.state_hash(state)]
    while state.result is None and len(state.history) < turns:
        state = api.apply_action(state, api.random_action(state, rng))
        hashes.append(api.state_hash(state))
        digest.update(bytes.fromhex(hashes[-1]))
        if len(hashes) % 7 == 0:      # the bytes put together from parts are the canonical ones
            assert api.serialise(state) == msgpack.packb(to_dict(state), use_bin_type=True)
    return state, digest.hexdigest()[:32], hashes


@pytest.mark.parametrize("changed,seed,turns,actions,digest,final", RECORDED)
def test_every_state_hash_as_before_the_speed_work(changed: dict[str, object], seed: int,
                                                    turns: int, actions: int, digest: str,
                                                    final: str) -> None:
    """DESIGN §3, 04/U31: the same seed gives the same actions and the same hash after every
    action as the engine before the speed work; undoing the whole game from the last state
    (each earlier state already freed, so rebuilt from its undo record) gives back every
    earlier hash, down to the new game, and then refuses (04/U31 "nothing to undo")."""
    state, got_digest, hashes = _selfplay(changed, seed, turns)
    assert (len(hashes) - 1, got_digest, hashes[-1]) == (actions, digest, final)
    for want in reversed(hashes[:-1]):
        state = api.undo(state)
        assert api.state_hash(state) == want
    with pytest.raises(api.RuleError, match="nothing to undo"):
        api.undo(state)


def test_wec_selfplay_prints_the_recorded_hash() -> None:
    """DESIGN §3: ``wec selfplay`` prints the state hash recorded before the speed work."""
    out = subprocess.run([sys.executable, "-m", "wec_p2p.cli", "selfplay", "--seed", "2",
                          "--turns", "160", "--quiet"], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["state", RECORDED[2][5]]


def test_undo_gives_back_the_held_state_itself_04_U31() -> None:
    """04/U31: while the caller still holds the previous state, undo returns that very object
    (as before the speed work); once it is freed, an equal state rebuilt from the undo record."""
    rng = random.Random(4)
    first = api.new_game()
    second = api.apply_action(first, api.random_action(first, rng))
    third = api.apply_action(second, api.random_action(second, rng))
    fourth = api.apply_action(third, api.random_action(third, rng))   # seals third's record
    assert api.undo(fourth) is third and api.undo(third) is second
    want = api.serialise(second)
    lone = third.detached()           # the same state, holding nothing but its undo record
    assert lone is not third and api.serialise(lone) == api.serialise(third)
    back = api.undo(lone)
    assert back is not second and api.serialise(back) == want
    assert api.serialise(api.undo(back)) == api.serialise(first)


@pytest.mark.slow
def test_a_long_game_holds_under_10_kb_a_turn() -> None:
    """Issue 13 item 8: a game kept whole for undo holds at most 10 KB per turn (tracemalloc,
    the same game played once first so that process-wide caches are not counted)."""
    from wec_p2p.bench import long_game

    long_game(300, 5)
    gc.collect()        # garbage left by earlier tests in this process is not the game's
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        state = long_game(300, 5)
        gc.collect()    # only what the game keeps counts, not cycles the collector has not reached yet
        used = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert len(state.history) == 300
    assert used / 300 <= 10 * 1024, f"{used / 300:.0f} bytes per turn"


def test_a_state_changed_in_place_hashes_its_new_contents() -> None:
    """DESIGN §3: the parts the hash reuses never outlive a change. A state changed in place
    (as the position editor and the tests do: dicts written, then ``touch()``; the ground and
    the reinforcements, shared with the state's copies, through ``own``) serialises to exactly
    ``packb(to_dict(state))`` of its new contents, and back again; its parent is untouched (but
    for the article catalogue, one for the whole game)."""
    rng = random.Random(8)
    state = api.new_game()
    for _ in range(40):
        state = api.apply_action(state, api.random_action(state, rng))
    before = api.serialise(state)
    sq, aids = next(iter(state.ground.items()))
    changes = [
        lambda s: s.own("ground").__setitem__(sq, aids[:1]),
        lambda s: s.art_ready.__setitem__(aids[0], 99),
        lambda s: s.art_code.__setitem__(999, "SH"),
        lambda s: s.reveals.__setitem__(next(iter(s.pieces)), 77),
        lambda s: s.hits.__setitem__(next(iter(s.pieces)), (("ST", 1),)),
        lambda s: s.own("reinforcements").pop(next(iter(s.reinforcements))),
        lambda s: s.locks.clear(),
    ]
    parent = api.undo(state)
    # the article catalogue (art_code) is one dict for the whole game by design; the rest of
    # the parent must not move when its child is written into
    parent_before = {k: v for k, v in to_dict(parent).items() if k != "articles"}
    for change in changes:
        change(state)
        state.touch()
        assert api.serialise(state) == msgpack.packb(to_dict(state), use_bin_type=True)
    assert api.serialise(state) != before
    assert {k: v for k, v in to_dict(parent).items() if k != "articles"} == parent_before
    with pytest.raises(TypeError, match="state.own"):
        api.apply_action(state, api.legal_actions(state)[0]).ground[sq] = ()


def test_hashes_in_any_order_match_the_canonical_bytes() -> None:
    """DESIGN §3: the parts the hash keeps (a state's piece rows patched from its parent's by
    the log of ``put`` and ``remove``) never stand for other contents, whatever order states
    are hashed in: siblings in turn (as a search), a parent after its children, a state
    rebuilt by undo, and a state whose pieces change after it was hashed (``put`` then
    ``remove`` on the hashed state itself, as the position editor does)."""
    rng = random.Random(11)
    state = api.new_game()
    for _ in range(30):
        state = api.apply_action(state, api.random_action(state, rng))
    checked = 0
    for _ in range(60):
        legal = api.legal_actions(state)
        kids = [api.apply_action(state, a) for a in rng.sample(legal, min(4, len(legal)))]
        for s in [*kids, state, *rng.sample(kids, len(kids))]:
            s.touch_bytes()
            assert api.serialise(s) == msgpack.packb(to_dict(s), use_bin_type=True)
            checked += 1
        live = [k for k in kids if k.result is None]
        if not live:
            break
        state = rng.choice(live)
        if rng.random() < 0.3:
            state = api.undo(api.apply_action(state, api.random_action(state, rng))).detached()
    assert checked > 100
    api.serialise(state)
    sid, piece = next(iter(state.pieces.items()))
    state.put(dataclasses.replace(piece, stun=piece.stun + 1))
    assert api.serialise(state.clone()) == msgpack.packb(to_dict(state), use_bin_type=True)
    state.remove(sid)
    child = state.clone()
    assert api.serialise(child) == msgpack.packb(to_dict(state), use_bin_type=True)
