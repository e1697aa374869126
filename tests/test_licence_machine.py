"""The licence token is bound to the machine as well as to the installation key (issue 10 item 5).

A data directory copied to another machine carries the identity key and the token, but not the
machine id (``/etc/machine-id``, or the file ``WEC_MACHINE_ID_FILE`` names: here each "machine"
is a file of its own). Against a real endpoint process on 127.0.0.1: the copy is refused at
start-up, by ``wec activate --status`` and by ``wec host``, with the way to activate it on its
own; that way takes a seat of its own and leaves the original working. A token from before
machine binding asks for one re-activation, which keeps its seat.
"""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from licence_fixtures import REPO, Endpoint, Vendor, fresh_endpoint, installation, vendor
from net import licence_client as client
from net.identity import load_or_create
from net.licence import LicenceError, sign_token
from net.machine import MACHINE_ID_ENV, machine_fingerprint
from wec_p2p import cmd_licence
from wec_p2p.cli import build_parser
from wec_p2p.licence_store import LicenceStore

__all__ = ["fresh_endpoint", "vendor"]  # fixtures used by name

LAUNCH = ("import sys, net.vendor_key as v; v.VENDOR_PUBLIC_KEY = bytes.fromhex(sys.argv[1]); "
          "from wec_p2p.cli import main; sys.exit(main(sys.argv[2:]))")


def _machine(tmp: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Be on machine ``name`` from now on (its machine id is a file of its own)."""
    path = tmp / f"{name}.machine-id"
    if not path.exists():
        path.write_text(f"{name}-0123456789abcdef\n")
    monkeypatch.setenv(MACHINE_ID_ENV, str(path))
    return path


def _activate(argv: list[str], vendor: Vendor, data: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setenv("WEC_DATA_DIR", str(data))
    return cmd_licence.run_activate(build_parser().parse_args(argv), vendor_public_key=vendor.public)


def _wec_host(vendor: Vendor, data: Path, machine: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "WEC_DATA_DIR": str(data), MACHINE_ID_ENV: str(machine), "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-c", LAUNCH, vendor.public.hex(), "host", "--bot", "random",
                           "--interface", "127.0.0.1", "--no-discovery"], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=60)


def test_cloned_data_directory_is_refused_and_can_be_activated_on_its_own(
        fresh_endpoint: Endpoint, vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 10 item 5: copy an activated data directory to "machine B": the start-up check, `wec
    activate --status` and `wec host` refuse it as ``wrong_machine`` and say how to activate it on
    its own; a plain re-activation of the copy is refused (the key is in use on machine A); with
    ``--new-installation`` the copy gets its own key and seat, and machine A keeps working."""
    original, _ = installation(tmp_path, "original")
    machine_a = _machine(tmp_path, "A", monkeypatch)
    key = fresh_endpoint.add_key(seats=2)
    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url], vendor, original, monkeypatch) == 0
    token = client.check_installation(original, vendor_public_key=vendor.public)
    assert token.machine == machine_fingerprint(load_or_create(original).public_bytes, machine_a.read_bytes())

    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    machine_b = _machine(tmp_path, "B", monkeypatch)
    with pytest.raises(LicenceError) as err:
        client.check_installation(copy, vendor_public_key=vendor.public)
    assert err.value.code == "wrong_machine"
    assert "copied from another machine" in err.value.detail and "wec activate KEY --new-installation" in err.value.detail
    capsys.readouterr()
    assert _activate(["activate", "--status"], vendor, copy, monkeypatch) == 1
    assert "licence: wrong_machine: the licence token was activated on another machine" in capsys.readouterr().err
    hosted = _wec_host(vendor, copy, machine_b)
    assert hosted.returncode == 2 and "on port" not in hosted.stdout
    assert "wec: wrong_machine: this installation's licence is not valid here" in hosted.stderr
    assert "--new-installation" in hosted.stderr

    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url], vendor, copy, monkeypatch) == 1
    assert "licence: copied_installation: this installation key is already activated on another machine" \
        in capsys.readouterr().err
    assert [k.used for k in fresh_endpoint.store.keys()] == [1]

    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url, "--new-installation"], vendor, copy,
                     monkeypatch) == 0
    assert "set the copied installation's files aside" in capsys.readouterr().out
    own = client.check_installation(copy, vendor_public_key=vendor.public)
    assert own.device != token.device and own.machine != token.machine
    assert (copy / "copied-installation-1" / "identity.key").exists()
    assert [k.used for k in fresh_endpoint.store.keys()] == [2]     # a seat of its own
    _machine(tmp_path, "A", monkeypatch)
    assert client.check_installation(original, vendor_public_key=vendor.public).raw == token.raw


def test_seat_limit_still_holds_for_a_copy_activated_on_its_own(
        fresh_endpoint: Endpoint, vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 10 item 5: with one seat, the copy cannot get a seat of its own (``seat_limit``)."""
    original, _ = installation(tmp_path, "original")
    _machine(tmp_path, "A", monkeypatch)
    key = fresh_endpoint.add_key(seats=1)
    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url], vendor, original, monkeypatch) == 0
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    _machine(tmp_path, "B", monkeypatch)
    capsys.readouterr()
    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url, "--new-installation"], vendor, copy,
                     monkeypatch) == 1
    assert "licence: seat_limit:" in capsys.readouterr().err


def test_token_from_before_machine_binding_asks_for_one_reactivation_that_keeps_its_seat(
        fresh_endpoint: Endpoint, vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 10 item 5 (docs/licence.md, "Tokens from before machine binding"): a version 1 token
    (no machine) is refused at start-up as ``not_machine_bound`` with the way out; the seat it was
    issued on, recorded without a machine, is bound by the re-activation, and no seat is added."""
    d, ident = installation(tmp_path, "old")
    _machine(tmp_path, "A", monkeypatch)
    key = fresh_endpoint.add_key(seats=1)
    private = load_pem_private_key(vendor.pem_path.read_bytes(), None)
    with sqlite3.connect(fresh_endpoint.db) as con:   # the seat as the endpoint recorded it before the change
        key_id, licence_id = con.execute("SELECT id, licence_id FROM keys").fetchone()
        legacy = sign_token(private, licence_id=licence_id, device_fingerprint=ident.fingerprint,  # type: ignore[arg-type]
                            issued_at=1_700_000_000, edition="standard", features=["network"])
        con.execute("INSERT INTO activations (key_id, device_fp, token, activated_at, machine_fp) "
                    "VALUES (?, ?, ?, ?, NULL)", (key_id, ident.fingerprint, legacy, 1_700_000_000))
    (d / client.TOKEN_FILE).write_bytes(legacy)
    with pytest.raises(LicenceError) as err:
        client.check_installation(d, vendor_public_key=vendor.public)
    assert err.value.code == "not_machine_bound" and "wec activate KEY" in err.value.detail
    assert "keeps its seat" in err.value.detail
    assert _activate(["activate", key, "--endpoint", fresh_endpoint.url], vendor, d, monkeypatch) == 0
    assert client.check_installation(d, vendor_public_key=vendor.public).machine is not None
    assert [(k.used, k.seats) for k in fresh_endpoint.store.keys()] == [(1, 1)]


def test_endpoint_database_from_before_machine_binding_is_migrated(tmp_path: Path) -> None:
    """Issue 10 item 5: opening a database without ``machine_fp`` adds the column; its rows stay."""
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as con:
        con.executescript("""
            CREATE TABLE keys (id INTEGER PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, licence_id TEXT NOT NULL
                UNIQUE, seats INTEGER NOT NULL CHECK (seats >= 1), edition TEXT NOT NULL, features TEXT NOT NULL,
                valid_days INTEGER, revoked_at INTEGER, created_at INTEGER NOT NULL);
            CREATE TABLE activations (id INTEGER PRIMARY KEY, key_id INTEGER NOT NULL REFERENCES keys(id),
                device_fp TEXT NOT NULL, token BLOB NOT NULL, activated_at INTEGER NOT NULL,
                UNIQUE (key_id, device_fp));
            INSERT INTO keys VALUES (1, 'h', 'lic', 2, 'standard', '["network"]', NULL, NULL, 0);
            INSERT INTO activations VALUES (1, 1, 'dev', x'00', 0);
        """)
    store = LicenceStore(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT device_fp, machine_fp FROM activations").fetchall() == [("dev", None)]
    assert [(k.used, k.seats) for k in store.keys()] == [(1, 2)]


def test_machine_id_file_that_is_missing_or_empty_is_a_clear_error(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 10 item 5: ``WEC_MACHINE_ID_FILE`` naming nothing usable is refused, not guessed around."""
    d, _ = installation(tmp_path, "a")
    (d / client.TOKEN_FILE).write_bytes(b"x")
    for target in (tmp_path / "absent", tmp_path / "empty"):
        if target.name == "empty":
            target.write_text("\n")
        monkeypatch.setenv(MACHINE_ID_ENV, str(target))
        with pytest.raises(LicenceError) as err:
            client.check_installation(d)
        assert err.value.code == "machine_id" and str(target) in err.value.detail
