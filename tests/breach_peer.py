"""Start one ``wec`` process whose bot breaks a play rule once, then leaves (tests only).

``python tests/breach_peer.py VENDOR_PUB WEC-ARGS...``: the bot, in its first own move, signs and
sends a resignation for the next turn, outside its own turn (a breach, docs/rulings.md N-6). When
its own machine finds that fault it prints ``own-fault #SEQ`` and stops reading for good (the
process blocks, holding its link open, until the test kills it): it never reads the claim that
follows. The vendor public key is set in this process only, as tests/test_net_cli.py's LAUNCH does.
"""
from __future__ import annotations

import sys
import time
from typing import Any


def main() -> int:
    pub, argv = sys.argv[1], sys.argv[2:]
    import net.vendor_key as vendor
    vendor.VENDOR_PUBLIC_KEY = bytes.fromhex(pub)
    import wec_p2p.cmd_net as cmd_net
    from net.messages import Resign
    from net.outputs import Send
    decide, on_event = cmd_net._PrintingBot.decide, cmd_net._PrintingBot.on_event

    def _decide(self: Any, match: Any) -> Any:
        play = match.play
        if play is not None and play.my_move() and not getattr(self, "breached", False):
            self.breached = True
            print(f"bot: resigning for turn {play.turn + 1} in turn {play.turn} (a breach)", flush=True)
            return Send(Resign(play.turn + 1, play.index))
        return decide(self, match)

    def _on_event(self: Any, event: Any) -> None:
        on_event(self, event)
        if event.kind == "own-fault":
            print(f"own-fault #{event.data['seq']}: {event.data['reason']}", flush=True)
            while True:          # the player is gone: nothing more is read or sent
                time.sleep(3600)

    cmd_net._PrintingBot.decide = _decide          # type: ignore[method-assign]
    cmd_net._PrintingBot.on_event = _on_event      # type: ignore[method-assign]
    from wec_p2p.cli import main as wec_main
    return wec_main(argv)


if __name__ == "__main__":
    sys.exit(main())
