"""net.aio: cleaning up after a cancelled task never swallows the caller's own cancellation
(the cause of a cancelled ``join`` that went on into the game, issue 10)."""
from __future__ import annotations

import asyncio

import pytest

from net.aio import raise_if, reap


def test_reap_reports_a_cancellation_of_the_caller_that_arrives_while_it_waits() -> None:
    async def body() -> tuple[bool, bool]:
        slow_exit = asyncio.Event()

        async def stubborn() -> None:   # takes a moment to end once cancelled
            try:
                await asyncio.sleep(60)
            finally:
                await slow_exit.wait()

        inner = asyncio.ensure_future(stubborn())
        await asyncio.sleep(0)
        seen: list[bool] = []

        async def cleaner() -> None:
            seen.append(await reap(inner))
            raise_if(seen[-1])

        outer = asyncio.ensure_future(cleaner())
        await asyncio.sleep(0)
        outer.cancel()          # arrives while cleaner waits for the cancelled inner task
        await asyncio.sleep(0)
        slow_exit.set()
        with pytest.raises(asyncio.CancelledError):
            await outer
        return seen[0], inner.cancelled()

    assert asyncio.run(body()) == (True, True)


def test_reap_of_its_own_tasks_alone_is_no_cancellation_of_the_caller() -> None:
    async def body() -> tuple[bool, bool, bool]:
        failing = asyncio.ensure_future(asyncio.sleep(0))
        pending = asyncio.ensure_future(asyncio.sleep(60))
        await asyncio.sleep(0.01)
        cancelled = await reap(failing, None, pending)
        return cancelled, failing.done(), pending.cancelled()

    assert asyncio.run(body()) == (False, True, True)
