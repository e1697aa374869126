"""One peer of ``wec demo``: activate against the demo's endpoint, then ``wec host``/``wec join``.

Started only by ``wec demo`` (``python -m wec_p2p.demo_peer``), with the job on stdin as one
JSON line: ``{"vendor_public_key": hex, "licence_key", "endpoint", "argv"}``. The demo's
throwaway vendor public key is set through the Python API (``net.vendor_key``) inside this
process only; the ``wec`` command itself has no variable or flag for it (docs/licence.md).
Tokens signed with that key are worthless to any normal installation, which checks the
peer's token against the built-in key; and this launcher only runs loopback bot games.
"""
from __future__ import annotations

import json
import sys

LOOPBACK = "127.0.0.1"


class DemoJobError(ValueError):
    """The job on stdin is not a loopback bot game of the demo."""


def check_argv(argv: list[str]) -> None:
    """Accept only ``host``/``join`` bot games bound to 127.0.0.1. :raises DemoJobError:"""
    if not argv or argv[0] not in ("host", "join"):
        raise DemoJobError("the demo peer only runs `host` or `join`")
    if "--bot" not in argv or "--auto-confirm" not in argv:
        raise DemoJobError("the demo peer only plays bot games with --auto-confirm")
    pairs = list(zip(argv, argv[1:]))
    if ("--interface", LOOPBACK) not in pairs or sum(a == "--interface" for a in argv) != 1:
        raise DemoJobError(f"the demo peer only uses --interface {LOOPBACK}")


def main() -> int:
    """Read the job, activate, then run the command; returns its exit code."""
    try:
        job = json.loads(sys.stdin.readline())
        argv = [str(a) for a in job["argv"]]
        check_argv(argv)
        vendor_public_key = bytes.fromhex(job["vendor_public_key"])
    except (ValueError, KeyError, TypeError) as exc:
        print(f"wec demo peer: bad job: {exc}", file=sys.stderr)
        return 2
    import net.vendor_key
    from net import licence_client
    from net.licence import LicenceError
    from wec_p2p.cli import main as wec_main

    net.vendor_key.VENDOR_PUBLIC_KEY = vendor_public_key  # this process only: the demo's own key
    try:
        token = licence_client.activate(job["licence_key"], endpoint=job["endpoint"],
                                        vendor_public_key=vendor_public_key)
    except LicenceError as exc:
        print(f"licence: {exc.code}: {exc.detail}", file=sys.stderr)
        return 2
    print(f"activated: licence {token.licence_id[:12]}, edition {token.edition}, "
          f"features {','.join(token.features)}", flush=True)
    return wec_main(argv)


if __name__ == "__main__":
    sys.exit(main())
