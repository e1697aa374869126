"""Self-signed Ed25519 certificates for the identity key, and pinned TLS 1.3 contexts.

The certificate is deterministic for a given identity key (serial from the key hash, fixed
validity 2000-01-01..9999-12-31 so laptop clock skew never matters; Ed25519 signing is
deterministic), so peers can pin its SHA-256 and it never needs to be stored. Peers are
trusted by pinning only: the pinned certificates are the only trust anchors, and after
every handshake the peer certificate's key is compared with the pinned identity.
"""
from __future__ import annotations

import datetime
import functools
import hashlib
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from net.errors import ProtocolError
from net.identity import Identity, fingerprint

ALPN = "wec/1"
NOT_BEFORE = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class CertPair:
    """PEM certificate and PEM private key for one identity."""

    cert_pem: bytes
    key_pem: bytes

    @property
    def der(self) -> bytes:
        """The certificate in DER form."""
        return x509.load_pem_x509_certificate(self.cert_pem).public_bytes(serialization.Encoding.DER)


def make_cert(identity: Identity) -> CertPair:
    """The identity's self-signed certificate (RFC 5280 profile, anchors-reliability §3.2)."""
    pub = identity.private_key.public_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"wec-{identity.fingerprint[:16]}")])
    serial = int.from_bytes(hashlib.sha256(b"wec/cert-serial/v1" + identity.public_bytes).digest()[:16], "big") >> 1
    cert = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(pub).serial_number(serial or 1)
        .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                       critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(pub), critical=False)
        .sign(identity.private_key, None)
    )
    key_pem = identity.private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return CertPair(cert.public_bytes(serialization.Encoding.PEM), key_pem)


def pin(der: bytes) -> str:
    """The pin of a certificate: SHA-256 hex of its DER bytes."""
    return hashlib.sha256(der).hexdigest()


def cert_public_key(der: bytes) -> bytes:
    """Raw Ed25519 public key of a DER certificate. :raises ProtocolError: not an Ed25519 certificate."""
    try:
        key = x509.load_der_x509_certificate(der).public_key()
    except ValueError as exc:
        raise ProtocolError(f"peer certificate unreadable: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise ProtocolError("peer certificate key is not Ed25519")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def der_to_pem(der: bytes) -> str:
    """PEM text of a DER certificate."""
    return x509.load_der_x509_certificate(der).public_bytes(serialization.Encoding.PEM).decode()


def server_context(certs: CertPair, pinned_pems: list[str]) -> ssl.SSLContext:
    """Server context: TLS 1.3 only, ALPN wec/1, no tickets; a client certificate is optional
    (none = pairing-only session) but, if sent, must be one of the pinned ones."""
    ctx = _base(ssl.PROTOCOL_TLS_SERVER)
    _load_chain(ctx, certs)
    ctx.num_tickets = 0
    ctx.verify_mode = ssl.CERT_OPTIONAL
    if pinned_pems:
        ctx.load_verify_locations(cadata="".join(pinned_pems))
    return ctx


@functools.lru_cache(maxsize=16)
def client_context(certs: CertPair | None, pinned_pem: str | None) -> ssl.SSLContext:
    """Client context: with ``pinned_pem`` the server must present exactly that certificate and we
    present ours; without it (pairing) we present none and read the server certificate unverified.

    Cached per (certificate, pin): building one writes the key to a temporary file and loads it,
    which cost ~10 ms of every reconnection (a context is never changed after it is built)."""
    ctx = _base(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    if pinned_pem is None:
        ctx.verify_mode = ssl.CERT_NONE
        return ctx
    if certs is None:
        raise ValueError("a pinned client context needs our certificate")
    _load_chain(ctx, certs)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=pinned_pem)
    return ctx


def check_session(ssl_object: ssl.SSLObject | ssl.SSLSocket) -> bytes | None:
    """Check TLS 1.3 and ALPN after a handshake; return the peer certificate DER (None if none sent).

    :raises ProtocolError: wrong TLS version or ALPN ("version mismatch").
    """
    if ssl_object.version() != "TLSv1.3":
        raise ProtocolError(f"version mismatch: TLS {ssl_object.version()} (need TLSv1.3)")
    alpn = ssl_object.selected_alpn_protocol()
    if alpn != ALPN:
        raise ProtocolError(f"version mismatch: peer does not speak {ALPN} (ALPN {alpn!r})")
    return ssl_object.getpeercert(binary_form=True)


def peer_fingerprint(der: bytes) -> str:
    """Identity fingerprint (SHA-256 of the raw public key) of a peer certificate."""
    return fingerprint(cert_public_key(der))


def _base(protocol: int) -> ssl.SSLContext:
    ctx = ssl.SSLContext(protocol)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.set_alpn_protocols([ALPN])
    return ctx


def _load_chain(ctx: ssl.SSLContext, certs: CertPair) -> None:
    # load_cert_chain only reads files: write them to a private temporary directory
    with tempfile.TemporaryDirectory() as tmp:
        cert_path, key_path = Path(tmp) / "cert.pem", Path(tmp) / "key.pem"
        cert_path.write_bytes(certs.cert_pem)
        key_path.touch(mode=0o600)
        key_path.write_bytes(certs.key_pem)
        ctx.load_cert_chain(cert_path, key_path)
