"""Token format and offline verification (DESIGN §5; issue 5 items 1, 2, 5; anchors I1-I5, I8)."""
from __future__ import annotations

import time
from pathlib import Path

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from licence_fixtures import installation
from net import vendor_key
from net.identity import fingerprint, load_or_create
from net.licence import (
    TOKEN_CONTEXT, VENDOR_PUBLIC_KEY, LicenceError, check_public_key, sign_token, vendor_key_id,
    verify_peer_token, verify_token,
)
from net.licence_request import b64d, build_request, parse_request

IAT = 1_767_225_600  # 2026-01-01


def _pub(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


@pytest.fixture
def vkey() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def device(tmp_path: Path) -> bytes:
    return installation(tmp_path, "a")[1].public_bytes


def _token(vkey: Ed25519PrivateKey, device: bytes, **kw: object) -> bytes:
    fields: dict[str, object] = dict(licence_id="lic0123456789abc", device_fingerprint=fingerprint(device),
                                     issued_at=IAT, edition="standard", features=("network",))
    fields.update(kw)
    return sign_token(vkey, **fields)  # type: ignore[arg-type]


def _resign(vkey: Ed25519PrivateKey, payload: bytes) -> bytes:
    return msgpack.packb([payload, vkey.sign(TOKEN_CONTEXT + payload)], use_bin_type=True)


def test_round_trip_exact_fields(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 1: the token carries key id, installation fingerprint, issue time, edition/features."""
    raw = _token(vkey, device, features=["network", "editor"])
    tok = verify_token(raw, device, vendor_public_key=_pub(vkey))
    assert (tok.vendor_key_id, tok.licence_id, tok.device, tok.issued_at, tok.edition,
            tok.features, tok.expires_at, tok.raw) == (
        vendor_key_id(_pub(vkey)), "lic0123456789abc", fingerprint(device), IAT, "standard",
        ("editor", "network"), None, raw)
    payload = msgpack.unpackb(msgpack.unpackb(raw)[0])
    assert list(payload) == ["dev", "ed", "exp", "feat", "iat", "kid", "lic", "v"]


def test_every_flipped_byte_is_refused(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 5 / I1: a token edited by one byte (anywhere, two ways) is refused with a reason."""
    raw = _token(vkey, device)
    codes = set()
    for i in range(len(raw)):
        for mask in (0x01, 0xFF):
            bad = raw[:i] + bytes([raw[i] ^ mask]) + raw[i + 1:]
            with pytest.raises(LicenceError) as err:
                verify_token(bad, device, vendor_public_key=_pub(vkey))
            codes.add(err.value.code)
    assert codes <= {"malformed", "bad_signature", "unknown_vendor_key"}
    assert "bad_signature" in codes


def test_reencoded_payload_is_refused(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """I2: the same fields re-serialised (other key order) keep no signature."""
    payload, sig = msgpack.unpackb(_token(vkey, device))
    fields = msgpack.unpackb(payload)
    reordered = msgpack.packb(dict(reversed(list(fields.items()))), use_bin_type=True)
    with pytest.raises(LicenceError) as err:
        verify_token(msgpack.packb([reordered, sig], use_bin_type=True), device,
                     vendor_public_key=_pub(vkey))
    assert err.value.code == "bad_signature"
    with pytest.raises(LicenceError) as err:  # even correctly signed, non-canonical order is refused
        verify_token(_resign(vkey, reordered), device, vendor_public_key=_pub(vkey))
    assert err.value.code == "malformed"


def test_signed_by_another_key(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 5 / I3: signed by another key, whether it names its own key id or ours."""
    attacker = Ed25519PrivateKey.generate()
    with pytest.raises(LicenceError) as err:
        verify_token(_token(attacker, device), device, vendor_public_key=_pub(vkey))
    assert err.value.code == "unknown_vendor_key"
    payload, _ = msgpack.unpackb(_token(vkey, device))
    with pytest.raises(LicenceError) as err:  # claims our kid, attacker's signature
        verify_token(_resign(attacker, payload), device, vendor_public_key=_pub(vkey))
    assert err.value.code == "bad_signature"


def test_default_trust_anchor_is_the_built_in_key(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 1: without an injected key, only the built-in vendor key (net/vendor_key.py) is trusted."""
    assert VENDOR_PUBLIC_KEY == vendor_key.VENDOR_PUBLIC_KEY and len(VENDOR_PUBLIC_KEY) == 32
    check_public_key(VENDOR_PUBLIC_KEY)
    with pytest.raises(LicenceError) as err:
        verify_token(_token(vkey, device), device)
    assert err.value.code == "unknown_vendor_key"


def test_bound_to_another_installation(vkey: Ed25519PrivateKey, tmp_path: Path) -> None:
    """Item 5 / I5: a token for installation A does not verify for installation B."""
    a = installation(tmp_path, "a")[1].public_bytes
    b = installation(tmp_path, "b")[1].public_bytes
    raw = _token(vkey, a)
    with pytest.raises(LicenceError) as err:
        verify_token(raw, b, vendor_public_key=_pub(vkey))
    assert err.value.code == "wrong_device"


def test_peer_token_bound_to_peer_identity(vkey: Ed25519PrivateKey, tmp_path: Path) -> None:
    """Item 2: verify_peer_token accepts the peer's own token and refuses one bound to someone else."""
    a = installation(tmp_path, "a")[1].public_bytes
    b = installation(tmp_path, "b")[1].public_bytes
    tok = verify_peer_token(_token(vkey, a), a, vendor_public_key=_pub(vkey))
    assert tok.device == fingerprint(a)
    with pytest.raises(LicenceError) as err:
        verify_peer_token(_token(vkey, a), b, vendor_public_key=_pub(vkey))
    assert err.value.code == "wrong_device" and err.value.detail.startswith("peer licence refused")
    with pytest.raises(LicenceError) as err:
        verify_peer_token(_token(vkey, a, features=["hotseat"]), a, vendor_public_key=_pub(vkey))
    assert err.value.code == "feature_missing"
    with pytest.raises(LicenceError) as err:
        verify_peer_token(b"\x00" * 10, a, vendor_public_key=_pub(vkey))
    assert err.value.code == "malformed"


def test_clock_set_back_keeps_token_valid(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 5: a clock set back (years before issue) does not break a non-expiring token."""
    raw = _token(vkey, device)
    for now in (0.0, IAT - 3 * 86400, IAT - 3600, IAT + 50 * 365 * 86400):
        assert verify_token(raw, device, vendor_public_key=_pub(vkey), now=now).issued_at == IAT


def test_expiry_only_when_edition_says_so(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 5: an expiring edition is refused after its expiry, accepted before."""
    raw = _token(vkey, device, expires_at=IAT + 86400)
    assert verify_token(raw, device, vendor_public_key=_pub(vkey), now=IAT + 86399).expires_at == IAT + 86400
    with pytest.raises(LicenceError) as err:
        verify_token(raw, device, vendor_public_key=_pub(vkey), now=IAT + 86400)
    assert err.value.code == "expired"


def test_unknown_version_and_fields(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """I4: unknown version, missing or extra fields are refused with a specific reason, even if signed."""
    payload, _ = msgpack.unpackb(_token(vkey, device))
    fields = msgpack.unpackb(payload)
    cases = {"unsupported_version": {**fields, "v": 3},
             "malformed": {k: v for k, v in fields.items() if k != "exp"}}
    cases_extra = dict(sorted({**fields, "zz": 1}.items()))
    for code, f in [*cases.items(), ("malformed", cases_extra)]:
        with pytest.raises(LicenceError) as err:
            verify_token(_resign(vkey, msgpack.packb(f, use_bin_type=True)), device,
                         vendor_public_key=_pub(vkey))
        assert err.value.code == code, f


@pytest.mark.parametrize("raw", [
    bytes(32), bytes.fromhex("01" + "00" * 31),
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    b"\xff" * 31 + b"\x7f", b"short"])
def test_weak_keys_refused(raw: bytes, vkey: Ed25519PrivateKey, device: bytes) -> None:
    """anchors §3.4: small-order, non-canonical or wrong-size keys are refused as device or vendor key."""
    with pytest.raises(LicenceError) as err:
        verify_peer_token(_token(vkey, device), raw, vendor_public_key=_pub(vkey))
    assert err.value.code == "weak_key"
    with pytest.raises(LicenceError) as err:
        verify_token(_token(vkey, device), device, vendor_public_key=raw)
    assert err.value.code == "weak_key"


def test_request_proof_and_canonical_base64(tmp_path: Path) -> None:
    """Item 4 / J6, I8: a request proves possession of the device key; non-canonical base64 is refused."""
    ident = load_or_create(tmp_path)
    req = build_request("wec-abcd-efgh-jkmn-pqrs", ident, nonce=bytes(16))
    parsed = parse_request(req)
    assert (parsed.licence_key, parsed.device_pub, parsed.nonce) == (
        "WEC-ABCD-EFGH-JKMN-PQRS", ident.public_bytes, bytes(16))
    other = load_or_create(tmp_path / "other")
    with pytest.raises(LicenceError) as err:
        parse_request({**req, "device_pub": build_request("WEC-ABCD-EFGH", other)["device_pub"]})
    assert err.value.code == "bad_proof"
    with pytest.raises(LicenceError) as err:
        b64d("QR==", "x", None)
    assert err.value.code == "malformed"
    assert b64d("QQ==", "x", None) == b"A"


def test_verification_is_fast(vkey: Ed25519PrivateKey, device: bytes) -> None:
    """Item 1: verifying at every start is cheap (sanity bound, not a benchmark). Counted in this
    process's CPU time, which other processes do not inflate (issue 10 item 7: no wall-clock margins)."""
    raw = _token(vkey, device)
    t0 = time.process_time()
    for _ in range(200):
        verify_token(raw, device, vendor_public_key=_pub(vkey))
    assert time.process_time() - t0 < 2.0
