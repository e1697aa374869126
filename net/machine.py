"""This machine, for the licence (issue 10 item 5): a fingerprint a copied data directory does not carry.

The licence token is bound to the installation key (``identity.key``, in the data directory)
*and* to this machine. The machine is named by its OS machine id, read from (first found):

1. the file named by ``WEC_MACHINE_ID_FILE`` (tests point it at a file of their own to play
   "another machine"; an administrator can point it at a stable id of their choosing);
2. ``/etc/machine-id``, then ``/var/lib/dbus/machine-id`` (Linux, systemd/dbus);
3. ``IOPlatformUUID`` from ``ioreg`` (macOS); ``MachineGuid`` from the registry (Windows);
4. else a random id created once in the user's config directory (``$XDG_CONFIG_HOME/wec/
   machine-id`` or ``~/.config/wec/machine-id``), which is outside the data directory, so
   copying the data directory does not copy it.

The fingerprint is ``SHA-256("wec/machine/v1\\0" || installation public key || "\\0" || id)``:
it differs per installation, so the raw machine id never leaves the machine and the vendor
cannot link two installations on one machine.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
from pathlib import Path

MACHINE_ID_ENV = "WEC_MACHINE_ID_FILE"
LINUX_SOURCES = (Path("/etc/machine-id"), Path("/var/lib/dbus/machine-id"))
MAX_ID_BYTES = 256


class MachineIdError(Exception):
    """The machine id source named by ``WEC_MACHINE_ID_FILE`` is unreadable or empty."""


def machine_id() -> bytes:
    """The raw machine id (stripped). :raises MachineIdError: the configured file is unusable."""
    configured = os.environ.get(MACHINE_ID_ENV)
    if configured:
        value = _read(Path(configured))
        if value is None:
            raise MachineIdError(f"{MACHINE_ID_ENV}={configured}: not a readable, non-empty file")
        return value
    for path in LINUX_SOURCES:
        value = _read(path)
        if value is not None:
            return value
    value = _platform_id()
    return value if value is not None else _user_fallback()


def machine_fingerprint(device_public_key: bytes, raw_id: bytes | None = None) -> str:
    """This machine's (or the machine with id ``raw_id``'s) fingerprint for the installation
    with this public key (hex SHA-256)."""
    raw = machine_id() if raw_id is None else raw_id.strip()
    return hashlib.sha256(b"wec/machine/v1\x00" + device_public_key + b"\x00" + raw).hexdigest()


def _read(path: Path) -> bytes | None:
    try:
        value = path.read_bytes()[:MAX_ID_BYTES].strip()
    except OSError:
        return None
    return value or None


def _platform_id() -> bytes | None:
    try:
        if sys.platform == "darwin":
            out = subprocess.run(["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"], capture_output=True,
                                 text=True, timeout=5).stdout
            for line in out.splitlines():
                if "IOPlatformUUID" in line:
                    return line.split("=", 1)[1].strip().strip('"').encode() or None
        if sys.platform == "win32":
            import winreg  # type: ignore[import-not-found]
            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, r"SOFTWARE\Microsoft\Cryptography") as key:
                return str(winreg.QueryValueEx(key, "MachineGuid")[0]).encode() or None
    except Exception:
        return None
    return None


def _user_fallback() -> bytes:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    path = Path(base) / "wec" / "machine-id"
    value = _read(path)
    if value is None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_text(secrets.token_hex(16) + "\n")
        value = _read(path) or b""
    return value
