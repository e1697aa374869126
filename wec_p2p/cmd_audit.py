"""``wec audit LOG``: re-check a finished hidden game's audit offline (issue 8 item 5)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import api
from net.audit_log import audit_log


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("audit", help="re-check the end-of-game audit of a finished game's log")
    p.add_argument("log", type=Path, help="games/<chain>.finished.wal (or its .save)")
    p.set_defaults(func=run)


def run(args: Any) -> int:
    """Print the verdict; exit 0 if the audit passed, 1 if it failed, 2 if there is none."""
    try:
        result = audit_log(api, args.log)
    except ValueError as exc:
        print(f"wec audit: {exc}")
        return 2
    print(f"{'AUDIT PASSED' if result.ok else 'AUDIT FAILED' if result.ok is False else 'NO AUDIT'}: "
          f"{result.report} ({result.actions} actions)")
    return 0 if result.ok else 1 if result.ok is False else 2
