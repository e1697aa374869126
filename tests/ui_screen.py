"""The headless 1366x768 window the in-process window tests draw on (SDL's dummy driver)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator

import pygame
import pytest

from ui.layout import LAYOUT


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    """A fresh display of the window's size, closed again after the test."""
    pygame.init()
    yield pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    pygame.quit()
