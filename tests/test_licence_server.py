"""The reference endpoint as a real process on 127.0.0.1 with a real sqlite file
(DESIGN §5; issue 5 item 4; anchors J1-J3, J5, J6)."""
from __future__ import annotations

import base64
import http.client
import json
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from licence_fixtures import (
    Endpoint, Vendor, endpoint, fresh_endpoint, installation, json_headers, raw_post, vendor,
)
from net.identity import fingerprint
from net.licence import LicenceError, verify_token
from net.licence_client import post_json
from net.licence_request import build_request, dumps

__all__ = ["endpoint", "fresh_endpoint", "vendor"]  # fixtures used by name


def _activate(ep: Endpoint, key: str, root: Path, name: str) -> tuple[int, dict[str, str]]:
    """POST one activation for installation ``name``; returns (status, JSON)."""
    ident = installation(root, name)[1]
    body = dumps(build_request(key, ident))
    status, data = raw_post(ep, body, json_headers(body))
    return status, json.loads(data)


def test_activation_and_reactivation(endpoint: Endpoint, vendor: Vendor, tmp_path: Path) -> None:
    """Item 4: activation issues a token bound to the device; re-activating gives the same token, no new seat."""
    key = endpoint.add_key(seats=2, edition="deluxe", features=("network", "editor"))
    d, ident = installation(tmp_path, "a")
    body1 = dumps(build_request(key, ident))
    status, data = raw_post(endpoint, body1, json_headers(body1))
    assert status == 200
    resp = json.loads(data)
    assert sorted(resp) == ["nonce", "token", "v"]
    assert resp["nonce"] == json.loads(body1)["nonce"]
    token = base64.b64decode(resp["token"])
    tok = verify_token(token, ident.public_bytes, vendor_public_key=vendor.public)
    assert (tok.device, tok.edition, tok.features, tok.expires_at) == (
        fingerprint(ident.public_bytes), "deluxe", ("editor", "network"), None)
    assert abs(tok.issued_at - time.time()) < 60
    again = post_json(endpoint.url, build_request(key.lower(), ident))  # key as typed, lower case
    assert base64.b64decode(again["token"]) == token
    info = {k.licence_id: k for k in endpoint.store.keys()}[tok.licence_id]
    assert (info.used, info.seats) == (1, 2)


def test_seat_exhaustion(endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 4: a 2-seat key activates two installations; the third gets 409 seat_limit; the first may repeat."""
    key = endpoint.add_key(seats=2)
    assert _activate(endpoint, key, tmp_path, "a")[0] == 200
    assert _activate(endpoint, key, tmp_path, "b")[0] == 200
    status, err = _activate(endpoint, key, tmp_path, "c")
    assert (status, err["error"]) == (409, "seat_limit") and "2 seat" in err["detail"]
    assert _activate(endpoint, key, tmp_path, "a")[0] == 200


def test_unknown_and_revoked_key(endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 4: unknown key is 404 unknown_key; a revoked key refuses new and repeat activations (403 revoked)."""
    status, err = _activate(endpoint, "WEC-0000-0000-0000-0000", tmp_path, "a")
    assert (status, err["error"]) == (404, "unknown_key")
    key = endpoint.add_key(seats=5)
    assert _activate(endpoint, key, tmp_path, "a")[0] == 200
    assert endpoint.store.revoke(key) is True
    assert endpoint.store.revoke(key) is False
    for name in ("a", "b"):
        status, err = _activate(endpoint, key, tmp_path, name)
        assert (status, err["error"]) == (403, "revoked")


def test_bad_proof(endpoint: Endpoint, tmp_path: Path) -> None:
    """J6: a request whose proof is not the device key's signature gets 400 bad_proof and no seat."""
    key = endpoint.add_key(seats=1)
    a, b = installation(tmp_path, "a")[1], installation(tmp_path, "b")[1]
    req = {**build_request(key, a), "device_pub": build_request(key, b)["device_pub"]}
    body = dumps(req)
    status, data = raw_post(endpoint, body, json_headers(body))
    assert (status, json.loads(data)["error"]) == (400, "bad_proof")
    assert _activate(endpoint, key, tmp_path, "c")[0] == 200  # the seat was not used


MALFORMED = {
    "empty": b"",
    "truncated": b'{"v": 1, "licence_key": "WEC-',
    "not an object": b"[1, 2, 3]",
    "duplicate keys": b'{"v": 1, "v": 1}',
    "NaN": b'{"v": NaN}',
    "deep nesting": b"[" * 5000,
    "5000-digit integer": b'{"v": ' + b"9" * 5000 + b"}",
    "invalid UTF-8": b'{"v": "\xff\xfe"}',
    "wrong types": None,
    "unknown field": None,
    "bad key format": None,
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_json(case: str, endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 4 / J2: each malformed body gets 400 {"error": "malformed", "detail"}, then a valid request succeeds."""
    ident = installation(tmp_path, "x")[1]
    good = build_request(endpoint.add_key(seats=1), ident)
    body = MALFORMED[case]
    if case == "wrong types":
        body = dumps({**good, "v": "1"})
    elif case == "unknown field":
        body = dumps({**good, "extra": 1})
    elif case == "bad key format":
        body = dumps({**good, "licence_key": "x y"})
    assert body is not None
    status, data = raw_post(endpoint, body, json_headers(body))
    err = json.loads(data)
    assert (status, sorted(err), err["error"]) == (400, ["detail", "error"], "malformed")
    assert "Traceback" not in err["detail"]
    assert post_json(endpoint.url, good)["nonce"] == good["nonce"]


def test_too_large_without_reading_body(endpoint: Endpoint) -> None:
    """Item 4 / J3: Content-Length 10 MB gets 413 too_large at once, without the body being sent."""
    # "at once": answered although the body never comes (waiting for it would end in a 408 after
    # the 10 s handler timeout, or the client's own timeout); no wall-clock margin (issue 10 item 7)
    status, data = raw_post(endpoint, b"", {"Content-Type": "application/json",
                                            "Content-Length": str(10 * 1024 * 1024)}, send_body=False)
    assert (status, json.loads(data)["error"]) == (413, "too_large")
    big = b'{"v": "' + b"a" * 9000 + b'"}'
    status, data = raw_post(endpoint, big, json_headers(big))
    assert (status, json.loads(data)["error"]) == (413, "too_large")


@pytest.mark.parametrize("headers,status,code", [
    ({"Content-Type": "application/json"}, 411, "length_required"),
    ({"Content-Type": "application/json", "Transfer-Encoding": "chunked"}, 411, "length_required"),
    ({"Content-Type": "text/plain", "Content-Length": "2"}, 415, "unsupported_media_type"),
])
def test_framing_errors(headers: dict[str, str], status: int, code: str, endpoint: Endpoint) -> None:
    """J3: missing length, chunked and wrong content type get stable JSON errors."""
    got, data = raw_post(endpoint, b"{}", headers, send_body=False)
    assert (got, json.loads(data)["error"]) == (status, code)


def test_unknown_path_and_method(endpoint: Endpoint) -> None:
    """Item 4: other paths and methods answer JSON errors too."""
    status, data = raw_post(endpoint, b"{}", json_headers(b"{}"), path="/admin")
    assert (status, json.loads(data)["error"]) == (404, "not_found")
    with pytest.raises(LicenceError) as err:
        post_json(endpoint.url.replace("/v1/activate", "/nope"), {})
    assert err.value.code == "not_found"


def test_50_concurrent_activations_hold_seat_limit(endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 4 / J1: 50 concurrent activations of 50 installations on a 7-seat key: exactly 7 succeed, 43 seat_limit."""
    key = endpoint.add_key(seats=7)
    bodies = [dumps(build_request(key, installation(tmp_path, f"d{i}")[1])) for i in range(50)]
    results: list[tuple[int, str]] = []
    barrier = threading.Barrier(50)

    def one(body: bytes) -> None:
        barrier.wait()
        status, data = raw_post(endpoint, body, json_headers(body))
        results.append((status, json.loads(data).get("error", "ok")))

    threads = [threading.Thread(target=one, args=(b,)) for b in bodies]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    elapsed = time.perf_counter() - t0
    print(f"\n50 concurrent activations: {elapsed:.3f} s")
    assert sorted(results) == [(200, "ok")] * 7 + [(409, "seat_limit")] * 43
    lic = [k for k in endpoint.store.keys() if k.seats == 7 and k.used == 7]
    assert len(lic) == 1


def test_repeats_are_idempotent_under_concurrency(endpoint: Endpoint, tmp_path: Path) -> None:
    """J1: 10 installations x 5 concurrent requests on a 3-seat key: 3 installations activated, each with one token."""
    key = endpoint.add_key(seats=3)
    idents = [installation(tmp_path, f"r{i}")[1] for i in range(10)]
    bodies = [(i, dumps(build_request(key, idents[i]))) for i in range(10) for _ in range(5)]
    results: list[tuple[int, int, str]] = []
    barrier = threading.Barrier(len(bodies))

    def one(i: int, body: bytes) -> None:
        barrier.wait()
        status, data = raw_post(endpoint, body, json_headers(body))
        obj = json.loads(data)
        results.append((i, status, obj.get("token") or obj["error"]))

    threads = [threading.Thread(target=one, args=b) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 50 and all(s in (200, 409) for _, s, _ in results)
    winners = {i for i, s, _ in results if s == 200}
    assert len(winners) == 3
    for i in range(10):
        mine = {(s, v) for j, s, v in results if j == i}
        assert len(mine) == 1, mine  # all 5 answers identical: one token, or seat_limit
        status, value = mine.pop()
        assert (status == 200) == (i in winners) and (value == "seat_limit") == (i not in winners)


def test_sqlite_settings(endpoint: Endpoint) -> None:
    """Item 4 / anchors §3.6: the file is in WAL mode and connections use synchronous=FULL."""
    with sqlite3.connect(endpoint.db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with endpoint.store._connect() as con:
        assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_acknowledged_activations_survive_kill_9(fresh_endpoint: Endpoint, tmp_path: Path) -> None:
    """Item 4 / J5: kill -9 the endpoint under load; every acknowledged activation is in the file after."""
    key = fresh_endpoint.add_key(seats=10_000)
    acked: list[str] = []
    stop = threading.Event()

    def load(n: int) -> None:
        i = 0
        while not stop.is_set():
            ident = installation(tmp_path, f"k{n}-{i}")[1]
            i += 1
            body = dumps(build_request(key, ident))
            try:
                status, _ = raw_post(fresh_endpoint, body, json_headers(body))
            except (OSError, http.client.HTTPException):  # the server died mid-request
                return
            if status == 200:
                acked.append(fingerprint(ident.public_bytes))

    threads = [threading.Thread(target=load, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60   # a hang guard: the loop ends at the 40th activation
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.02)
    fresh_endpoint.kill()
    stop.set()
    for t in threads:
        t.join(10)
    assert len(acked) >= 40
    with sqlite3.connect(fresh_endpoint.db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {r[0] for r in con.execute("SELECT device_fp FROM activations")}
    assert set(acked) <= stored
    restarted = Endpoint(fresh_endpoint.db, fresh_endpoint.vendor, tmp_path / "restart.log")
    try:
        again = post_json(restarted.url, build_request(key, installation(tmp_path, "k0-0")[1]))
        assert again["token"]
    finally:
        restarted.stop()


def _waiting(sock: socket.socket) -> bool:
    """True if the server holds ``sock`` open without having answered (no byte, no close)."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)   # a byte (an answer) or b"" (closed): not waiting
    except BlockingIOError:
        return True
    finally:
        sock.setblocking(True)
    return False


def test_stalled_clients_do_not_block_and_cap_gives_503(vendor: Vendor, tmp_path: Path) -> None:
    """Item 4 / J4, anchors §3.3: stalled clients don't block others; past 64 in-flight requests, 503 busy.
    The handler timeout is injected long (600 s instead of 10 s), so that on a busy machine no
    stalled handler times out and frees its slot before the cap is reached (issue 10 item 7)."""
    fresh_endpoint = Endpoint(tmp_path / "licences.sqlite", vendor, tmp_path / "server.log",
                              "--handler-timeout", "600")
    try:
        _stalled_clients(fresh_endpoint, tmp_path)
    finally:
        fresh_endpoint.stop()


def _stalled_clients(fresh_endpoint: Endpoint, tmp_path: Path) -> None:
    key = fresh_endpoint.add_key(seats=5)
    stalled = []
    for _ in range(20):  # headers never finished
        s = socket.create_connection((fresh_endpoint.host, fresh_endpoint.port))
        s.sendall(b"POST /v1/activate HTTP/1.1\r\nHost: x\r\n")
        stalled.append(s)
    assert _activate(fresh_endpoint, key, tmp_path, "a")[0] == 200
    # not served after them: the server still waits for every stalled client's headers (it drops
    # one only after its handler timeout, with a 408), so the activation did not wait for any
    # of them; no wall-clock margin (issue 10 item 7)
    assert [_waiting(s) for s in stalled] == [True] * 20
    for _ in range(64):  # headers done, body never sent: each holds a handler slot
        s = socket.create_connection((fresh_endpoint.host, fresh_endpoint.port))
        s.sendall(b"POST /v1/activate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{")
        stalled.append(s)
    deadline = time.monotonic() + 30   # a hang guard: the loop ends at the first 503
    while True:
        status, data = _activate(fresh_endpoint, key, tmp_path, "b")
        if status == 503 or time.monotonic() > deadline:
            break
        time.sleep(0.05)  # the last stalled handlers may not have taken their slot yet
    assert (status, data["error"]) == (503, "busy")
    for s in stalled:
        s.close()
    deadline = time.monotonic() + 30   # a hang guard: the loop ends at the first 200
    while (status := _activate(fresh_endpoint, key, tmp_path, "b")[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert status == 200
