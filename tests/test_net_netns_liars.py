"""Lying peers across two network namespaces (issue 8 "What it must show": lying peers).

The two-host game of tests/test_net_netns.py: ``wec host`` (honest) in one namespace, ``wec join``
in the other as a test build of the peer (tests/liar_peer.py, tests/hidden_liars.py), joined by
a veth pair; both start from the crowded skirmish position under the "deep" option set. Each
lie is caught by the honest host with the turn, action, event and the liar's signed message, as
over 127.0.0.1 (tests/test_net_hidden_liars.py ``CAUGHT``). Needs root and iproute2.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hidden_games import play_wec_game
from netns import NetnsPair
from test_net_hidden_liars import CAUGHT


@pytest.mark.netns
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_a_lying_wec_process_is_caught_across_namespaces(netns_pair: NetnsPair, tmp_path: Path, name: str) -> None:
    """HQ-1, HQ-12, HQ-14, HQ-17, RUL-37: the guest process lies once; the host process names it."""
    lie: Any = None
    for seed in range(8):
        game = play_wec_game(tmp_path / f"{seed}", "deep", seed, "skirmish", resign_after=40, liar=name,
                             audit_seconds=2, pair=netns_pair, guest_abandon_after=3)
        lie = game.lie()
        if lie is not None:
            break
    assert lie is not None, f"the {name} liar never had a chance in 8 games"
    result = game.result("host")
    assert result is not None, game.out["host"] + game.err["host"]
    reason = game.err["host"].strip().splitlines()[-1].removeprefix("wec: ")
    guest = game.result("guest")
    CAUGHT[name](result.group(1), reason, lie, Path(result.group(5)), guest.group(5) if guest else None)
