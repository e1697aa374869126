"""Outputs that the protocol machines return as values (they do no I/O themselves)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net.messages import Message


@dataclass(frozen=True)
class Send:
    """Send ``message``; ``secrets`` (commitment openings) are logged with it, never sent."""

    message: Message
    secrets: dict[str, Any] | None = None


@dataclass(frozen=True)
class Event:
    """Something the player (or bot) should know about: ``kind`` plus details."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Stop:
    """The machine is broken or finished for good; ``reason`` is shown to the player."""

    reason: str
    evidence: tuple[bytes, ...] = ()


Output = Send | Event | Stop
