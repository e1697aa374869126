"""``wec activate`` and ``wec licence-server``: the licence commands (DESIGN §5, issue 5).

Exit codes: 0 done, 1 refused or invalid (the reason is printed), 3 endpoint unreachable.
The vendor public key is built in (``net/vendor_key.py``); it is deliberately not an option.
Tests call the ``run_*`` functions with their own ``vendor_public_key``.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding, NoEncryption, PrivateFormat, PublicFormat,
)

from net import licence_client as client
from net.atomic import write_atomic
from net.licence import VENDOR_PUBLIC_KEY, LicenceError, LicenceToken, vendor_key_id
from net.licence_request import dumps, loads_strict
from wec_p2p.paths import data_dir

EXIT_OK, EXIT_REFUSED, EXIT_OFFLINE = 0, 1, 3
VENDOR_MODULE = Path(__file__).resolve().parent.parent / "net" / "vendor_key.py"


def register(subparsers: Any) -> None:
    """Add ``activate`` and ``licence-server`` (serve, add-key, revoke, list, respond, keygen)."""
    p = subparsers.add_parser("activate", help="activate this installation's licence (once)")
    p.add_argument("key", nargs="?", help="the licence key, e.g. WEC-7K2Q-M9XD-4RTA-PLW3")
    p.add_argument("--endpoint", default=client.DEFAULT_ENDPOINT,
                   help="activation URL (https://, or http:// to a loopback address)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--status", action="store_true", help="check the stored licence, offline")
    p.add_argument("--new-installation", action="store_true",
                   help="this data directory was copied from another machine: set its installation "
                        "files aside and activate it as an installation of its own (a seat of its own)")
    mode.add_argument("--request", metavar="FILE", type=Path,
                      help="no internet here: write a request file to take to a connected machine")
    mode.add_argument("--response", metavar="FILE", type=Path, help="install a response file")
    mode.add_argument("--relay", nargs=2, metavar=("REQUEST", "RESPONSE"), type=Path,
                      help="on a connected machine: send a request file, write the response file")
    p.set_defaults(func=run_activate)

    srv = subparsers.add_parser("licence-server", help="the vendor's reference licence endpoint")
    sub = srv.add_subparsers(dest="licence_command", required=True)
    s = sub.add_parser("serve", help="run the HTTP endpoint")
    _db(s)
    _vendor(s)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8470, help="0 picks a free port")
    s.add_argument("--verbose", action="store_true", help="log every request to stderr")
    s.add_argument("--handler-timeout", type=float, default=10.0, metavar="S",
                   help="seconds a request may take to arrive before 408 and its slot freed (default 10)")
    s.set_defaults(func=run_serve)
    a = sub.add_parser("add-key", help="issue a licence key (printed once)")
    _db(a)
    a.add_argument("--seats", type=int, default=1)
    a.add_argument("--edition", default="standard")
    a.add_argument("--feature", action="append", dest="features",
                   help="feature in tokens (repeatable; default: network)")
    a.add_argument("--valid-days", type=int, help="tokens expire this many days after activation")
    a.set_defaults(func=run_add_key)
    r = sub.add_parser("revoke", help="refuse future activations of a key")
    _db(r)
    r.add_argument("key", help="the licence key or its licence id")
    r.set_defaults(func=run_revoke)
    ls = sub.add_parser("list", help="list keys and seats used")
    _db(ls)
    ls.set_defaults(func=run_list)
    rs = sub.add_parser("respond", help="turn a request file into a response file, without HTTP")
    _db(rs)
    _vendor(rs)
    rs.add_argument("request", type=Path)
    rs.add_argument("response", type=Path)
    rs.set_defaults(func=run_respond)
    k = sub.add_parser("keygen", help="generate the vendor key pair")
    k.add_argument("--out", type=Path, required=True, help="private key file to create (PEM, 0600)")
    k.add_argument("--write-module", nargs="?", const=VENDOR_MODULE, type=Path, metavar="PATH",
                   help=f"also build the public key into the program (default {VENDOR_MODULE})")
    k.set_defaults(func=run_keygen)


def run_activate(args: argparse.Namespace, vendor_public_key: bytes = VENDOR_PUBLIC_KEY) -> int:
    """``wec activate``: online, offline request/response, relay, or status."""
    try:
        if args.status:
            return _print_token(client.check_installation(vendor_public_key=vendor_public_key))
        if args.response:
            return _print_token(client.install_response(args.response, vendor_public_key=vendor_public_key))
        if args.relay:
            client.relay(args.relay[0], args.relay[1], endpoint=args.endpoint)
            print(f"wrote {args.relay[1]}: take it back and run `wec activate --response FILE`")
            return EXIT_OK
        if not args.key:
            print("wec activate: a licence key is required", file=sys.stderr)
            return EXIT_REFUSED
        if getattr(args, "new_installation", False):
            aside = client.set_aside_installation(data_dir())
            if aside is not None:
                print(f"set the copied installation's files aside in {aside}; activating a new installation")
        if args.request:
            client.write_request(args.key, args.request)
            print(f"wrote {args.request}: take it to a connected machine and run "
                  f"`wec activate --relay {args.request.name} response.json`")
            return EXIT_OK
        return _print_token(client.activate(args.key, endpoint=args.endpoint,
                                            vendor_public_key=vendor_public_key))
    except LicenceError as exc:
        print(f"licence: {exc.code}: {exc.detail}", file=sys.stderr)
        return EXIT_OFFLINE if exc.code == "offline" else EXIT_REFUSED
    except OSError as exc:
        print(f"licence: cannot read or write a file: {exc}", file=sys.stderr)
        return EXIT_REFUSED


def run_serve(args: argparse.Namespace) -> int:
    """``wec licence-server serve``."""
    from wec_p2p.licence_server import serve

    return serve(args.db, args.vendor_key, args.host, args.port, quiet=not args.verbose,
                 handler_timeout=args.handler_timeout)


def run_add_key(args: argparse.Namespace) -> int:
    """``wec licence-server add-key``: prints the new key on stdout."""
    from wec_p2p.licence_store import LicenceStore

    features = tuple(args.features) if args.features else ("network",)
    print(LicenceStore(args.db).add_key(seats=args.seats, edition=args.edition, features=features,
                                        valid_days=args.valid_days))
    return EXIT_OK


def run_revoke(args: argparse.Namespace) -> int:
    """``wec licence-server revoke``."""
    from wec_p2p.licence_store import LicenceStore

    if LicenceStore(args.db).revoke(args.key):
        print("revoked: future activations of this key are refused")
        return EXIT_OK
    print("no such key, or already revoked", file=sys.stderr)
    return EXIT_REFUSED


def run_list(args: argparse.Namespace) -> int:
    """``wec licence-server list``."""
    from wec_p2p.licence_store import LicenceStore

    for k in LicenceStore(args.db).keys():
        print(f"{k.licence_id}  seats {k.used}/{k.seats}  {k.edition} {','.join(k.features)}"
              f"{'  REVOKED' if k.revoked else ''}")
    return EXIT_OK


def run_respond(args: argparse.Namespace) -> int:
    """``wec licence-server respond REQUEST RESPONSE``: the endpoint's answer, as a file."""
    from wec_p2p.licence_server import load_vendor_key, respond
    from wec_p2p.licence_store import LicenceStore

    status, obj = respond(LicenceStore(args.db), load_vendor_key(args.vendor_key),
                          args.request.read_bytes())
    if status != 200:
        print(f"refused: {obj['error']}: {obj['detail']}", file=sys.stderr)
        return EXIT_REFUSED
    write_atomic(args.response, dumps(obj) + b"\n")
    loads_strict(args.response.read_bytes())
    print(f"wrote {args.response}")
    return EXIT_OK


def run_keygen(args: argparse.Namespace) -> int:
    """``wec licence-server keygen``: a new vendor private key file, and optionally the built-in module."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)   # never overwrite a key
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    pub = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    print(f"vendor private key: {args.out} (keep it secret, keep a backup)")
    print(f"vendor public key:  {pub.hex()}  (key id {vendor_key_id(pub)})")
    if args.write_module:
        write_atomic(args.write_module, vendor_module_source(pub).encode())
        print(f"built into the program: {args.write_module} (reinstall/rebuild to ship it)")
    return EXIT_OK


def vendor_module_source(public_key: bytes) -> str:
    """The text of ``net/vendor_key.py`` for a vendor public key."""
    return (
        '"""The vendor\'s Ed25519 public key, built into the program '
        '(generated by `wec licence-server keygen`).\n\n'
        "This is the only key that licence tokens are verified against. It is not a user setting:\n"
        "a self-hosting vendor regenerates this file at build time with\n"
        "``wec licence-server keygen --out vendor.key --write-module`` and keeps vendor.key private.\n"
        '"""\n'
        f'VENDOR_PUBLIC_KEY = bytes.fromhex("{public_key.hex()}")\n'
    )


def _print_token(token: LicenceToken) -> int:
    """Print what a valid licence allows."""
    expiry = "never expires" if token.expires_at is None else f"expires at {token.expires_at}"
    print(f"licence valid: edition {token.edition}, features {', '.join(token.features) or '-'}, "
          f"licence {token.licence_id}, {expiry}")
    return EXIT_OK


def _db(p: argparse.ArgumentParser) -> None:
    """Add ``--db``."""
    p.add_argument("--db", type=Path, required=True, help="sqlite file (created if missing)")


def _vendor(p: argparse.ArgumentParser) -> None:
    """Add ``--vendor-key`` (the private signing key file, vendor side only)."""
    p.add_argument("--vendor-key", type=Path, required=True, help="vendor private key (PEM)")
