"""``wec`` alone / ``wec window``: the game window on its home screen (issue 9 item 1).

From the home screen: play over WiFi (the lobby), hotseat, against the computer, load a game,
the board editor, quit. WiFi play needs this installation's licence (checked when the lobby
opens, as ``wec host`` / ``wec join`` do); hotseat and the computer need none.
"""
from __future__ import annotations

from pathlib import Path

import argparse
import os
import socket
from typing import Any, Callable

NO_SCREEN_DRIVERS = frozenset({"offscreen", "dummy"})


def register(subparsers: Any) -> None:
    """Add ``wec window`` (what ``wec`` with no arguments runs)."""
    p = subparsers.add_parser("window", help="open the game window on its home screen (also: wec alone)")
    p.add_argument("--name", help="this laptop's name in the other player's lobby (default: the host name)")
    p.add_argument("--interface", metavar="ADDR", help="local IPv4 address for WiFi play (mDNS and listening)")
    p.add_argument("--port", type=int, default=0, help="TCP port to wait for the other laptop on (0 = any)")
    p.add_argument("--headless", action="store_true", help="no window (SDL dummy video and audio)")
    p.add_argument("--control", action="store_true",
                   help="for tests and scripts: inputs as JSON lines on stdin, the screen's model on stdout")
    p.set_defaults(func=run)


class ClientActivation:
    """The licence screen's work (issue 9 item 6), done by ``net.licence_client`` for this
    installation's data folder; each step returns a sentence and raises ``LicenceError``."""

    def __init__(self, directory: Path | None = None, vendor_public_key: bytes | None = None) -> None:
        from net import licence_client
        self.directory, self.vendor = directory, vendor_public_key
        self.endpoint = licence_client.DEFAULT_ENDPOINT

    def _dir(self) -> Path:
        from wec_p2p.paths import data_dir
        return self.directory if self.directory is not None else data_dir()

    def _vendor(self) -> dict[str, Any]:
        return {} if self.vendor is None else {"vendor_public_key": self.vendor}

    def online(self, key: str, endpoint: str) -> str:
        from net import licence_client
        token = licence_client.activate(key, endpoint=endpoint or self.endpoint, directory=self._dir(), **self._vendor())
        return f"activated: licence {token.licence_id}, this laptop may play over WiFi"

    def request(self, key: str, path: str) -> str:
        from net import licence_client
        licence_client.write_request(key, Path(path), directory=self._dir())
        return f"wrote {path}: take it to a connected machine, run `wec activate --relay {Path(path).name} RESPONSE`"

    def response(self, path: str) -> str:
        from net import licence_client
        token = licence_client.install_response(Path(path), directory=self._dir(), **self._vendor())
        return f"activated: licence {token.licence_id}, this laptop may play over WiFi"


def bridge_factory(args: argparse.Namespace) -> Callable[[], Any]:
    """Make the WiFi bridge when the lobby opens. :raises LicenceError: not activated (shown in the lobby)."""

    def make() -> Any:
        import engine.api as engine
        from net import vendor_key
        from net.bridge import BridgeConfig, NetBridge
        from net.identity import load_or_create
        from net.licence import verify_peer_token
        from net.session import NetConfig
        from net.transport import Timeouts
        from wec_p2p.cmd_net import _own_token
        from wec_p2p.paths import data_dir

        directory = data_dir()
        identity = load_or_create(directory)
        token = _own_token(directory, identity)

        def check_peer(peer_token: bytes, peer_pub: bytes) -> object:
            return verify_peer_token(peer_token, peer_pub, vendor_public_key=vendor_key.VENDOR_PUBLIC_KEY)

        name = (getattr(args, "name", None) or socket.gethostname() or f"wec-{identity.fingerprint[:6]}")[:40]
        cfg = NetConfig(identity=identity, data_dir=directory, engine=engine, name=name,
                        timeouts=Timeouts(confirm=120.0), licence_token=token, licence_check=check_peer)
        interface = getattr(args, "interface", None)
        return NetBridge(BridgeConfig(cfg, interfaces=[interface] if interface else None,
                                      port=getattr(args, "port", 0) or 0))

    return make


def run(args: argparse.Namespace) -> int:
    """Open the window on the home screen; 0 on a normal quit."""
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from engine import api
    from ui.layout import LAYOUT
    from ui.net_shell import NetShell
    from ui.session import Session
    from wec_p2p.paths import data_dir

    autosave = data_dir() / "unfinished.wec"        # 04/U9: File > Continue after a crash
    pygame.display.init()
    if not args.headless and pygame.display.get_driver() in NO_SCREEN_DRIVERS:
        pygame.quit()
        print("wec: no display to open a window on (DISPLAY / WAYLAND_DISPLAY not set?); "
              "for a terminal game use `wec host` / `wec join`")
        return 2
    try:
        pygame.display.set_caption("WEC — Weaponized Chess")
        try:
            surface = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
        except pygame.error as exc:
            print(f"wec: cannot open a window ({exc})")
            return 2
        shell = NetShell(Session(api.new_game(), save_path=autosave), surface, autosave=autosave,
                         bridge_factory=bridge_factory(args), activation=ClientActivation())
        if args.control:
            from wec_p2p.window_control import run_controlled
            return run_controlled(shell)
        return shell.run()
    finally:
        pygame.quit()
