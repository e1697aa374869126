"""The ``wec`` command: one argparse parser, sub-commands registered by feature modules.

Each module in ``COMMAND_MODULES`` has ``register(subparsers)``, which adds its
sub-commands and sets ``func`` (called with the parsed args, returns an exit code).
"""
from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = (
    "wec_p2p.cmd_engine",   # legal, selfplay, replay
    "wec_p2p.cmd_licence",  # activate, licence-server
    "wec_p2p.cmd_net",      # peers, host, join, demo
    "wec_p2p.cmd_net_peers",  # peers (discovery)
    "wec_p2p.cmd_demo",     # demo: two peers over 127.0.0.1, endpoint, full game
    "wec_p2p.cmd_play",
    "wec_p2p.cmd_window",   # window: what `wec` alone opens (issue 9)
    "wec_p2p.cmd_audit",    # audit: re-check a finished game's audit offline (issue 8)
)


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every feature module's sub-commands."""
    parser = argparse.ArgumentParser(prog="wec", description="Weaponized Chess over WiFi")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # feature not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``wec``; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv or ["window"])   # `wec` alone opens the window (issue 9)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
