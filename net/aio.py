"""Small asyncio helpers that keep a task's own cancellation intact.

Awaiting a task we cancelled with ``except BaseException: pass`` swallows the caller's own
cancellation too, when it arrives meanwhile: it comes as the same ``CancelledError``. And
``asyncio.wait_for`` (Python 3.11) returns the result, dropping the cancellation, when the
awaited thing completes in the same loop turn as the cancel. A task that swallowed its
cancellation goes on as if nothing happened (a cancelled ``join`` went on into the game).
"""
from __future__ import annotations

import asyncio
from typing import Any


async def reap(*tasks: "asyncio.Future[Any] | None") -> bool:
    """Cancel ``tasks`` (None skipped) and wait until each has ended, whatever it raises.

    Returns True if the calling task was itself cancelled meanwhile: the caller then raises
    ``asyncio.CancelledError`` once it has cleaned up (``raise_if``)."""
    me = asyncio.current_task()
    before = me.cancelling() if me is not None else 0
    for task in tasks:
        if task is None:
            continue
        task.cancel()
        try:
            await task
        except BaseException:
            pass
    return me is not None and me.cancelling() > before


def raise_if(cancelled: bool) -> None:
    """Re-raise a cancellation of the current task that ``reap`` (or a cleanup) took in."""
    if cancelled:
        raise asyncio.CancelledError()
