"""The licence client and CLI against a real endpoint process (DESIGN §5; issue 5 items 1, 3, 5).

"No network call after activation": the engine cannot play a game yet, so the start-up check
(``check_installation`` and ``wec activate --status``) stands in for "start the game", run
with the endpoint process killed and every socket call audited (PEP 578 audit hooks).
"""
from __future__ import annotations

import base64
import json
import runpy
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_private_key

from licence_fixtures import (
    Endpoint, Vendor, closed_port, endpoint, fresh_endpoint, installation, record_network, vendor, wec,
)
from net import licence_client as client
from net.identity import fingerprint
from net.licence import LicenceError
from wec_p2p import cmd_licence
from wec_p2p.cli import build_parser

__all__ = ["endpoint", "fresh_endpoint", "vendor"]  # fixtures used by name


def _run(argv: list[str], vendor: Vendor) -> int:
    """Run ``wec activate ...`` in-process with the test vendor key injected through the Python API."""
    return cmd_licence.run_activate(build_parser().parse_args(argv), vendor_public_key=vendor.public)


def test_activate_then_start_with_endpoint_stopped(fresh_endpoint: Endpoint, vendor: Vendor,
                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Item 1: after activation no network call ever happens; the start-up check passes with the endpoint dead."""
    d, ident = installation(tmp_path, "a")
    monkeypatch.setenv("WEC_DATA_DIR", str(d))
    key = fresh_endpoint.add_key(seats=1)
    assert _run(["activate", key, "--endpoint", fresh_endpoint.url], vendor) == 0
    assert (d / client.TOKEN_FILE).exists()
    fresh_endpoint.kill()
    with record_network() as events:
        tok = client.check_installation(vendor_public_key=vendor.public)
        status_rc = _run(["activate", "--status"], vendor)
    assert events == []
    assert status_rc == 0 and tok.device == fingerprint(ident.public_bytes)
    assert "licence valid: edition standard, features network" in capsys.readouterr().out
    with record_network() as events:  # the audit hook does see real traffic
        with pytest.raises(LicenceError):
            client.activate(key, endpoint=fresh_endpoint.url, directory=d, vendor_public_key=vendor.public)
    assert [e for e, _ in events if e == "socket.connect"]


def test_copied_token_file_is_refused(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 5: a licence.token copied from another machine fails the start-up check as wrong_device."""
    a, _ = installation(tmp_path, "a")
    b, _ = installation(tmp_path, "b")
    client.activate(endpoint.add_key(), endpoint=endpoint.url, directory=a, vendor_public_key=vendor.public)
    shutil.copy(a / client.TOKEN_FILE, b / client.TOKEN_FILE)
    with pytest.raises(LicenceError) as err:
        client.check_installation(b, vendor_public_key=vendor.public)
    assert err.value.code == "wrong_device"
    raw = bytearray((a / client.TOKEN_FILE).read_bytes())
    raw[-1] ^= 1
    (a / client.TOKEN_FILE).write_bytes(bytes(raw))
    with pytest.raises(LicenceError) as err:
        client.check_installation(a, vendor_public_key=vendor.public)
    assert err.value.code == "bad_signature"


def test_not_activated(tmp_path: Path, vendor: Vendor) -> None:
    """Item 2: without a token the start-up check says so (hotseat and the computer need no licence)."""
    with pytest.raises(LicenceError) as err:
        client.check_installation(tmp_path, vendor_public_key=vendor.public)
    assert err.value.code == "not_activated" and "hotseat" in err.value.detail


def test_refusals_store_nothing(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 4: server codes reach the client as LicenceError codes; no token is stored."""
    key = endpoint.add_key(seats=1)
    client.activate(key, endpoint=endpoint.url, directory=installation(tmp_path, "a")[0],
                    vendor_public_key=vendor.public)
    cases = {"seat_limit": key, "unknown_key": "WEC-ZZZZ-ZZZZ-ZZZZ-ZZZZ"}
    for code, k in cases.items():
        d, _ = installation(tmp_path, code)
        with pytest.raises(LicenceError) as err:
            client.activate(k, endpoint=endpoint.url, directory=d, vendor_public_key=vendor.public)
        assert err.value.code == code
        assert not (d / client.TOKEN_FILE).exists()


def test_token_from_another_vendor_is_not_stored(endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 1: the client verifies the token before storing it (here: against the built-in vendor key)."""
    d, _ = installation(tmp_path, "a")
    with pytest.raises(LicenceError) as err:
        client.activate(endpoint.add_key(), endpoint=endpoint.url, directory=d)
    assert err.value.code == "unknown_vendor_key"
    assert not (d / client.TOKEN_FILE).exists()


def test_no_internet_gives_clear_message(tmp_path: Path) -> None:
    """Item 3: endpoint unreachable at first start: exit code 3 and the offline route explained."""
    url = f"http://127.0.0.1:{closed_port()}/v1/activate"
    done = wec("activate", "WEC-ABCD-ABCD-ABCD-ABCD", "--endpoint", url, data_dir=tmp_path)
    assert done.returncode == 3
    assert done.stderr.startswith("licence: offline: could not reach the licence endpoint")
    assert "wec activate KEY --request request.json" in done.stderr
    assert "wec activate --response response.json" in done.stderr


@pytest.mark.parametrize("url", ["http://192.0.2.1/v1/activate", "http://localhost.example/x",
                                 "ftp://127.0.0.1/x", "https:///nohost", "file:///etc/passwd"])
def test_insecure_endpoint_refused_before_any_traffic(url: str, tmp_path: Path) -> None:
    """Item 1: plain HTTP only to loopback; anything else is refused with no network call."""
    with record_network() as events:
        with pytest.raises(LicenceError) as err:
            client.activate("WEC-ABCD-ABCD-ABCD-ABCD", endpoint=url, directory=tmp_path)
    assert err.value.code == "insecure_endpoint" and events == []
    assert client.check_endpoint("https://licence.example.com/v1/activate")
    assert client.check_endpoint("http://[::1]:8470/v1/activate")


def test_offline_route_via_endpoint(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 3: --request writes a file, `wec activate --relay` on a connected machine gets the response, --response installs it."""
    d, ident = installation(tmp_path, "offline")
    key = endpoint.add_key()
    req, resp = tmp_path / "request.json", tmp_path / "response.json"
    with record_network() as events:
        client.write_request(key, req, directory=d)
    assert events == [] and sorted(json.loads(req.read_text())) == [
        "device_pub", "licence_key", "machine", "nonce", "proof", "v"]
    done = wec("activate", "--relay", str(req), str(resp), "--endpoint", endpoint.url,
               data_dir=tmp_path / "connected")             # on "any connected machine"
    assert done.returncode == 0, done.stderr
    with record_network() as events:
        tok = client.install_response(resp, directory=d, vendor_public_key=vendor.public)
    assert events == [] and tok.device == fingerprint(ident.public_bytes)
    assert not (d / client.PENDING_FILE).exists()
    assert client.check_installation(d, vendor_public_key=vendor.public).raw == tok.raw


def test_offline_route_via_cli_respond(endpoint: Endpoint, vendor: Vendor, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 3: `wec activate KEY --request`, `wec licence-server respond`, `wec activate --response`."""
    d, _ = installation(tmp_path, "offline")
    key = endpoint.add_key()
    req, resp = tmp_path / "req.json", tmp_path / "resp.json"
    done = wec("activate", key, "--request", str(req), data_dir=d)
    assert done.returncode == 0 and "wrote" in done.stdout
    done = wec("licence-server", "respond", "--db", str(endpoint.db), "--vendor-key",
               str(vendor.pem_path), str(req), str(resp))
    assert done.returncode == 0, done.stderr
    monkeypatch.setenv("WEC_DATA_DIR", str(d))
    assert _run(["activate", "--response", str(resp)], vendor) == 0
    assert _run(["activate", "--status"], vendor) == 0
    done = wec("licence-server", "respond", "--db", str(endpoint.db), "--vendor-key",
               str(vendor.pem_path), str(req), str(tmp_path / "again.json"))
    assert done.returncode == 0  # re-activation of the same installation: same token, no new seat
    assert json.loads((tmp_path / "again.json").read_text())["token"] == json.loads(resp.read_text())["token"]


def test_response_for_another_request_or_tampered(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 5 / I7: a response to a different request, or an edited response, is refused; nothing installed."""
    d, _ = installation(tmp_path, "a")
    key = endpoint.add_key(seats=3)
    client.write_request(key, tmp_path / "r1.json", directory=d)
    client.relay(tmp_path / "r1.json", tmp_path / "s1.json", endpoint=endpoint.url)
    client.write_request(key, tmp_path / "r2.json", directory=d)      # a newer request replaces it
    with pytest.raises(LicenceError) as err:
        client.install_response(tmp_path / "s1.json", directory=d, vendor_public_key=vendor.public)
    assert err.value.code == "nonce_mismatch"
    client.relay(tmp_path / "r2.json", tmp_path / "s2.json", endpoint=endpoint.url)
    s2 = json.loads((tmp_path / "s2.json").read_text())
    token = bytearray(base64.b64decode(s2["token"]))
    token[40] ^= 0x20
    (tmp_path / "bad.json").write_text(json.dumps({**s2, "token": base64.b64encode(token).decode()}))
    with pytest.raises(LicenceError) as err:
        client.install_response(tmp_path / "bad.json", directory=d, vendor_public_key=vendor.public)
    assert err.value.code == "bad_signature"
    assert not (d / client.TOKEN_FILE).exists()
    other, _ = installation(tmp_path, "b")
    with pytest.raises(LicenceError) as err:
        client.install_response(tmp_path / "s2.json", directory=other, vendor_public_key=vendor.public)
    assert err.value.code == "no_pending_request"
    assert client.install_response(tmp_path / "s2.json", directory=d, vendor_public_key=vendor.public)


def test_status_uses_only_the_built_in_key(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 1: the real `wec` has no way to trust another vendor key: a test-vendor token fails --status."""
    d, _ = installation(tmp_path, "a")
    client.activate(endpoint.add_key(), endpoint=endpoint.url, directory=d, vendor_public_key=vendor.public)
    done = wec("activate", "--status", data_dir=d)
    assert done.returncode == 1
    assert done.stderr.strip() == ("licence: unknown_vendor_key: token was signed by a key this "
                                   "program does not trust")
    done = wec("activate", "--status", data_dir=tmp_path / "fresh")
    assert done.returncode == 1 and "licence: not_activated" in done.stderr


def test_vendor_cli_keygen_add_list_revoke(tmp_path: Path) -> None:
    """Item 4: keygen writes a private key and a vendor_key module; add-key, list and revoke work."""
    key_file, module = tmp_path / "vendor.key", tmp_path / "vendor_key.py"
    done = wec("licence-server", "keygen", "--out", str(key_file), "--write-module", str(module))
    assert done.returncode == 0, done.stderr
    priv = load_pem_private_key(key_file.read_bytes(), None)
    pub = priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert runpy.run_path(str(module))["VENDOR_PUBLIC_KEY"] == pub
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert wec("licence-server", "keygen", "--out", str(key_file)).returncode != 0  # never overwrites
    db = str(tmp_path / "l.sqlite")
    done = wec("licence-server", "add-key", "--db", db, "--seats", "3", "--edition", "pro")
    key = done.stdout.strip()
    assert done.returncode == 0 and len(key) == 23 and key.startswith("WEC-")
    listed = wec("licence-server", "list", "--db", db).stdout
    assert "seats 0/3  pro network" in listed and "REVOKED" not in listed
    assert wec("licence-server", "revoke", "--db", db, key).returncode == 0
    assert "REVOKED" in wec("licence-server", "list", "--db", db).stdout
    assert wec("licence-server", "revoke", "--db", db, key).returncode == 1
