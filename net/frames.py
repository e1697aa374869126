"""Length-prefixed msgpack frames and the strict decoder (anchors-reliability §3.1).

Wire format: ``uint32 big-endian length || body``; the length is checked against
``MAX_FRAME`` before the body is read. Each body is decoded on its own with ``unpackb``
(a fresh decoder per frame, so no Unpacker is ever reused after an error) with explicit
limits, no ext types, no duplicate keys, and a canonical-bytes check.
"""
from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from net.errors import PeerTimeout, ProtocolError

MAX_FRAME = 64 * 1024
MAX_STR = 1024
MAX_ARRAY = 4096
MAX_MAP = 64
MAX_DEPTH = 8
INT_MIN, INT_MAX = -(2**63), 2**64 - 1
_HEADER = struct.Struct(">I")


def pack(obj: Any) -> bytes:
    """Canonical msgpack bytes of ``obj`` (our packer's output is the canonical form)."""
    return bytes(msgpack.packb(obj, use_bin_type=True))


def unpack_strict(body: bytes, *, max_bin: int = MAX_FRAME, max_array: int = MAX_ARRAY) -> Any:
    """Decode one msgpack object with every limit on.

    :raises ProtocolError: naming the limit or format rule broken.
    """
    limit = max(MAX_FRAME, max_bin)
    if len(body) > limit:
        raise ProtocolError(f"frame of {len(body)} bytes exceeds MAX_FRAME ({limit})")
    try:
        obj = msgpack.unpackb(
            body, raw=False, strict_map_key=True, use_list=True, timestamp=0,
            ext_hook=_no_ext, object_pairs_hook=_pairs,
            max_str_len=MAX_STR, max_bin_len=max_bin, max_array_len=max_array,
            max_map_len=MAX_MAP, max_ext_len=0,
        )
    except Exception as exc:  # OutOfData/BufferFull are not ValueError: contain everything here
        raise ProtocolError(f"undecodable msgpack ({type(exc).__name__}: {exc})") from None
    _check_values(obj, 0)
    if pack(obj) != body:
        raise ProtocolError("non-canonical msgpack encoding")
    return obj


def encode_frame(body: bytes) -> bytes:
    """Prefix ``body`` with its length. :raises ProtocolError: body larger than MAX_FRAME."""
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"outgoing frame of {len(body)} bytes exceeds MAX_FRAME ({MAX_FRAME})")
    return _HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader, idle_timeout: float, frame_timeout: float) -> bytes:
    """Read one frame body: wait up to ``idle_timeout`` for its first byte, then ``frame_timeout`` in total.

    :raises asyncio.TimeoutError: nothing arrived within ``idle_timeout`` (the link is idle).
    :raises PeerTimeout: a frame was started but not finished by its deadline (a stalled peer).
    :raises ProtocolError: declared length over MAX_FRAME (checked before reading the body).
    :raises asyncio.IncompleteReadError: the peer closed the connection.
    """
    # asyncio.timeout, not wait_for: wait_for wraps each read in a new task (three per frame)
    async with asyncio.timeout(idle_timeout):
        header = await reader.readexactly(1)
    try:
        async with asyncio.timeout(frame_timeout):
            header += await reader.readexactly(3)
            (length,) = _HEADER.unpack(header)
            if length > MAX_FRAME:
                raise ProtocolError(f"declared frame length {length} exceeds MAX_FRAME ({MAX_FRAME})")
            if length == 0:
                raise ProtocolError("empty frame")
            return await reader.readexactly(length)
    except TimeoutError:
        raise PeerTimeout(f"frame not completed within {frame_timeout:g} s (stalled peer)") from None


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack ext type {code} not allowed")


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate map key")
    return d


def _check_values(obj: Any, depth: int) -> None:
    """Allow only None, bool, int (64-bit), str, bytes, list and str-keyed dict, depth <= MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise ProtocolError(f"nesting deeper than MAX_DEPTH ({MAX_DEPTH})")
    if obj is None or isinstance(obj, (bool, str, bytes)):
        return
    if isinstance(obj, int):
        if not INT_MIN <= obj <= INT_MAX:
            raise ProtocolError("integer out of 64-bit range")
        return
    if isinstance(obj, list):
        flat = depth < MAX_DEPTH        # items one level down may be checked here
        for item in obj:
            if flat:                    # the common leaves (hashes, salts, numbers), without a call each
                kind = type(item)
                if kind is bytes or kind is str or item is None or kind is bool:
                    continue
                if kind is int:
                    if not INT_MIN <= item <= INT_MAX:
                        raise ProtocolError("integer out of 64-bit range")
                    continue
            _check_values(item, depth + 1)
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise ProtocolError("map keys must be strings")
            _check_values(value, depth + 1)
        return
    raise ProtocolError(f"value of type {type(obj).__name__} not allowed (no floats or ext types)")
