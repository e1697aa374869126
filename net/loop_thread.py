"""An asyncio loop on a thread of its own, for the thin sync shells over the async core
(STYLE "Async boundaries": ``net.discovery.Discovery`` and ``net.bridge.NetBridge``)."""
from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger("wec.net")

__all__ = ["start_loop_thread", "stop_loop_thread"]


def start_loop_thread(name: str) -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    """A new event loop running forever on a new daemon thread called ``name``."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()
    return loop, thread


def stop_loop_thread(loop: asyncio.AbstractEventLoop, thread: threading.Thread,
                     closing: Callable[[], Coroutine[Any, Any, Any]], timeout: float, what: str) -> None:
    """Run ``closing()`` in the loop, then stop the loop, join the thread and close the loop.
    A failing or slow ``closing`` is logged: stopping always finishes."""
    try:
        asyncio.run_coroutine_threadsafe(closing(), loop).result(timeout)
    except Exception as exc:  # noqa: BLE001 - closing must finish
        log.warning("%s close: %r", what, exc)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        if not thread.is_alive():
            loop.close()
