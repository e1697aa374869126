"""Start one ``wec`` process as a test build (tests only): a lying machine, a custom start, a short
audit time limit. ``python tests/liar_peer.py VENDOR_PUB LIAR START AUDIT_SECONDS WEC-ARGS...``

* ``LIAR``: ``honest`` or a name of tests/hidden_liars.py ``LIARS``; the liar's driver resigns in
  its first own turn after its lie (so the game ends and the audit runs) and the lie is printed
  as ``LIE {json}``;
* ``START``: ``standard`` or ``skirmish`` (tests/test_partial.py's crowded position; both
  processes must use the same);
* ``AUDIT_SECONDS``: 0 for the product's limit, else the audit's time limit to open.
The vendor public key is set in this process only, as tests/test_net_cli.py's LAUNCH does.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    pub, liar, start, audit = sys.argv[1:5]
    argv = sys.argv[5:]
    import net.vendor_key as vendor
    vendor.VENDOR_PUBLIC_KEY = bytes.fromhex(pub)
    import engine.api
    import wec_p2p.cmd_net as cmd_net
    if start != "standard":
        from hidden_games import engine_from
        engine.api.new_game = engine_from(start).new_game     # type: ignore[assignment]
    if liar != "honest":
        from hidden_liars import Liar, install
        install(liar)
        told = Liar._told

        def _told(self: Liar, tag: str, **where: object) -> None:
            told(self, tag, **where)
            print(f"LIE {json.dumps(self.lie, default=str)}", flush=True)
        Liar._told = _told                                      # type: ignore[method-assign]
        decide = cmd_net._PrintingBot.decide

        def _decide(self: cmd_net._PrintingBot, match: object) -> object:
            play = getattr(match, "play", None)
            if play is not None and getattr(play, "wants_to_resign", False) and play.my_move():
                play.wants_to_resign = False
                print("bot: resigning after its lie", flush=True)
                return play.resign()
            return decide(self, match)
        cmd_net._PrintingBot.decide = _decide                   # type: ignore[method-assign]
    if int(audit):
        config = cmd_net._config

        def _config(args: object) -> object:
            cfg, bot = config(args)
            cfg.audit_seconds = int(audit)
            return cfg, bot
        cmd_net._config = _config                               # type: ignore[assignment]
    from wec_p2p.cli import main as wec_main
    return wec_main(argv)


if __name__ == "__main__":
    sys.exit(main())
