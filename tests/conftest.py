"""Shared pytest fixtures. Keep this file small: put helpers in their own modules."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from netns import NetnsPair, NetnsUnavailable, check_available, netns_pair as _netns_pair


@pytest.fixture
def netns_pair() -> Iterator[NetnsPair]:
    """Two fresh network namespaces joined by a veth pair (tests/netns.py); skips unless root + iproute2."""
    try:
        check_available()
        with _netns_pair() as pair:
            yield pair
    except NetnsUnavailable as exc:
        pytest.skip(str(exc))
