"""The frame loop: drains pygame events into the current scene and carries out its outputs.

STYLE "Async boundaries": each frame drains the event queue and posts commands; nothing here
waits on the engine or a network. ``Driver.pump()`` is one frame (``ui.shell.Shell.run`` is the loop), so tests post real pygame
events and pump without a window (SDL dummy driver). ``script_events`` turns a ``--script``
string into those same events.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame

from engine import api
from engine.notation import parse_action

from .board_view import DrawnToken
from .layout import LAYOUT, cell_rect
from .scenes import Apply, Dismiss, GameScene, PrivacyScene, Quit, Undo
from .session import Session

__all__ = ["Driver", "QUIET_EVENTS", "next_events", "script_events", "state_summary"]

# Events that change nothing on screen: no redraw for them (issue 12 item 7, idle < 2%).
QUIET_EVENTS = frozenset({pygame.MOUSEMOTION, pygame.ACTIVEEVENT, pygame.WINDOWENTER, pygame.WINDOWLEAVE,
                    pygame.AUDIODEVICEADDED, pygame.AUDIODEVICEREMOVED, pygame.NOEVENT})
#: View switches of a game scene and their defaults (04/U25 reinforcements, U26 words, U28 small boards).
VIEW_PREFS: dict[str, object] = {"words": True, "show_reinforcements": True, "small_boards": True,
                                 "piece_set": "simple", "show_last_seen": True}
IDLE_WAKE_MS = 250          # a blocked frame loop wakes this often at most (nothing to do)
POLL_S = 0.02               # without a real screen SDL's wait spins: sleep between polls instead


class Driver:
    """Runs scenes for a ``Session`` on ``surface``."""

    def __init__(self, session: Session, surface: pygame.Surface) -> None:
        self.session, self.surface = session, surface
        self.scene: GameScene | PrivacyScene = session.scene()
        self.scene.starting()
        self.running = True
        self.drawn: list[DrawnToken] = []
        self.dirty = True                  # the screen no longer shows the scene
        self.prefs = dict(VIEW_PREFS)      # View menu switches, kept across scenes
        #: set by the window for the next frame: the surface still holds the last game frame
        #: drawn, except inside these rectangles (None: unknown, draw it all; ``GameScene.draw``)
        self.damage: list[pygame.Rect] | None = None
        self._game_shown = False           # the last frame drawn was a game scene's

    def toggle(self, pref: str) -> object:
        """Flip a View switch (04/U24-U29) on the scene and for every later scene; its new value."""
        value = self.prefs[pref]
        self.prefs[pref] = ("detailed" if value == "simple" else "simple") if isinstance(value, str) else not value
        if isinstance(self.scene, GameScene):
            setattr(self.scene, pref, self.prefs[pref])
        self.dirty = True
        return self.prefs[pref]

    def refresh(self, status: str = "", error: bool = False) -> None:
        """Show the session's current state in a fresh scene (after undo, load, switch...)."""
        self._switch(self.session.scene(status, error))

    def say(self, status: str, error: bool = False) -> None:
        """Put ``status`` on the status line of the game scene."""
        if isinstance(self.scene, GameScene):
            self.scene.status, self.scene.error = status, error
        self.dirty = True

    def invalidate(self) -> None:
        """Draw again at the next frame (a window exposed, a benchmark)."""
        self.dirty = True

    def pump(self, events: list[pygame.event.Event] | None = None) -> bool:
        """One frame: handle queued events (or ``events``), draw only if anything changed;
        returns False once the player quit."""
        for e in pygame.event.get() if events is None else events:
            self.feed(e)
        if self.dirty:
            damage = self.damage if self._game_shown and isinstance(self.scene, GameScene) else None
            self.drawn = self.scene.draw(self.surface) if damage is None else self.scene.draw(self.surface, damage)
            self._game_shown, self.damage = isinstance(self.scene, GameScene), None
            self.dirty = False
        return self.running

    def feed(self, e: pygame.event.Event) -> None:
        """One event into the scene; marks the screen dirty unless it was plain mouse motion."""
        if e.type == pygame.USEREVENT and hasattr(e, "action"):
            self.handle(Apply(e.action))           # a scripted action (``act`` step)
        else:
            scene = self.scene
            for out in scene.event(e):
                self.handle(out)
            if isinstance(scene, GameScene):
                if scene is self.scene:
                    self.prefs["words"] = scene.words          # N switches it on the scene
                if scene.changed:
                    scene.changed, self.dirty = False, True
        if e.type not in QUIET_EVENTS:
            self.dirty = True

    def handle(self, out: Apply | Undo | Quit | Dismiss) -> None:
        """Carry out one scene output."""
        if isinstance(out, Quit):
            self.running = False
        elif isinstance(out, Dismiss):
            self._switch(self.session.scene())
        elif isinstance(out, Apply):
            self._after(self.session.apply(out.action))
        elif isinstance(out, Undo):
            self._after(self.session.undo())

    def _after(self, error: str | None) -> None:
        if error is not None:
            if not isinstance(self.scene, GameScene):     # e.g. a scripted step on the privacy screen
                self._switch(self.session.scene())
            self.scene.status, self.scene.error = error, True  # type: ignore[union-attr]
        elif self.session.privacy_pending:
            self.session.privacy_pending = False
            self._switch(PrivacyScene(self.session.state.side_to_move))
        else:
            self._switch(self.session.scene())

    def _switch(self, scene: GameScene | PrivacyScene) -> None:
        if isinstance(scene, GameScene):
            for name, value in self.prefs.items():
                setattr(scene, name, value)
        self.scene = scene
        scene.starting()
        self.dirty = True


def script_events(script: str, viewer: Callable[[], str]) -> Iterator[list[pygame.event.Event]]:
    """``--script`` steps separated by ``;``, one frame each: ``click R,C``, ``fire R,C``,
    ``key NAME`` (pygame key name), ``act NOTATION`` (a user event carrying the action) or
    ``wait``. :raises ValueError: a step that cannot be read."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        word, _, arg = step.partition(" ")
        if word in ("click", "fire"):
            r, c = (int(x) for x in arg.split(","))
            pos = cell_rect(r, c, viewer(), LAYOUT).center
            yield [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3 if word == "fire" else 1)]
        elif word == "key":
            yield [pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(arg), mod=0, unicode="")]
        elif word == "act":
            yield [pygame.event.Event(pygame.USEREVENT, action=parse_action(arg.strip()))]
        elif word == "wait":
            yield []
        else:
            raise ValueError(f"unknown script step {step!r}")


def next_events(blocking: bool) -> list[pygame.event.Event]:
    """The events that came since the last frame, sleeping until there is one (or a wake-up)."""
    if blocking:
        first = pygame.event.wait(IDLE_WAKE_MS)
        return ([first] if first.type != pygame.NOEVENT else []) + pygame.event.get()
    events = pygame.event.get()
    if not events:
        time.sleep(POLL_S)
    return events


def state_summary(session: Session) -> str:
    """One line for scripts and tests: ply, side to move, result and state hash."""
    s = session.state
    return f"RESULT ply={s.ply} to_move={s.side_to_move} result={api.outcome(s)} hash={api.state_hash(s)}"
