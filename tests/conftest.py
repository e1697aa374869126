"""Shared pytest fixtures. Keep this file small: put helpers in their own modules."""
from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from leaks import leftovers, open_sockets
from netns import NetnsPair, NetnsUnavailable, check_available, netns_pair as _netns_pair


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked ``slow``) run first, the rest keep their order: with README's
    ``-n 2 --maxschedchunk 1`` each xdist worker takes the next test when it is free, so the long
    ones spread over both workers and the short ones fill in, and neither worker is left alone with
    a long test at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def netns_pair() -> Iterator[NetnsPair]:
    """Two fresh network namespaces joined by a veth pair (tests/netns.py); skips unless root + iproute2."""
    try:
        check_available()
        with _netns_pair() as pair:
            yield pair
    except NetnsUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(autouse=True)
def no_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Network tests (test_net_*, test_discovery) must end every thread and close every socket they open."""
    if not request.module.__name__.startswith(("test_net_", "test_discovery")):
        yield
        return
    threads, sockets = set(threading.enumerate()), open_sockets()
    yield
    left = leftovers(threads, sockets)
    if left:
        pytest.fail("the test left behind: " + "; ".join(left), pytrace=False)
