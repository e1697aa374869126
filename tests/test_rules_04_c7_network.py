"""04/C7 network play: each laptop writes its own save from its own local data (issue 13 item 4).

A real game between two installations over TLS on 127.0.0.1 (the bots of net/bot.py), ended
early by a negotiated ply limit (RUL-53). docs/rulings.md RC-2 records the reading.
"""
from __future__ import annotations

from pathlib import Path

import engine.api as engine
from net.saves import load_save, verify_transcript
from net.session import Host, play_as_guest
from net.wal import read
from net_helpers import QuickBot, make_cfg, run


async def _game(tmp: Path):
    host_bot = QuickBot(engine, seed=3, colour="black")
    guest_bot = QuickBot(engine, seed=4, colour="white",
                          requests=[{"competitive": True, "ply_limit": 6}])
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=5, backoff=0.05)
        host_out = await host.wait(60)   # a hang guard (issue 10 item 7)
    finally:
        await host.close()
    return hc, gc, host_out, guest_out


def test_04_c7_each_computer_writes_its_own_save_from_its_own_data(tmp_path: Path) -> None:
    """04/C7, docs/rulings.md RC-2: after a competitive network game each installation holds its
    own save in its own data directory, written from its own log: the two files have the same
    name (the game's chain id, which both know) but different bytes, since each records its own
    messages as sent and the peer's as received. Each save verifies on its own; what one side
    sent is what the other received. Both laptops hold the whole game (lockstep), so both saves
    end on the same state hash."""
    hc, gc, host_out, guest_out = run(_game(tmp_path))
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.match.play.options.competitive is True
    assert host_out.outcome == guest_out.outcome == "draw"           # RUL-53 ply limit 6

    host_saves = sorted((hc.data_dir / "games").glob("*.finished.save"))
    guest_saves = sorted((gc.data_dir / "games").glob("*.finished.save"))
    assert len(host_saves) == len(guest_saves) == 1
    assert host_saves[0].name == guest_saves[0].name
    assert host_saves[0].read_bytes() != guest_saves[0].read_bytes()

    summaries, directions = [], []
    for out, save in ((host_out, host_saves[0]), (guest_out, guest_saves[0])):
        header, entries, saved_hash = load_save(save)
        assert saved_hash == out.state_hash
        summaries.append(verify_transcript(header, entries))
        _, logged, _ = read(out.transcript)
        assert [e.signed for e in logged] == [e.signed for e in entries]
        directions.append([(e.direction, e.signed.payload) for e in entries])
    assert summaries[0].ours == summaries[1].theirs and summaries[0].theirs == summaries[1].ours
    host_sent = [p for d, p in directions[0] if d == "out"]
    guest_received = [p for d, p in directions[1] if d == "in"]
    assert host_sent == guest_received
    assert host_out.state_hash == guest_out.state_hash
