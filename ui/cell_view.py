"""One square read in full (issue 12 item 2: "a crowded cell can be read in full").

``cell_lines(view, row, col)`` words everything the viewer may know of a square, level by level:
own pieces with hand, carried articles, stun (04/U44), reloading weapons (RUL-6) and trips
(RUL-31); enemy pieces it sees (RUL-18: nothing hidden is ever listed, the renderer gets only a
``PlayerView``); articles on the ground; projectiles in flight with their heading (RUL-15);
a reinforcement waiting there (04/U25). ``draw_cell_zoom`` draws those lines in a box.
"""
from __future__ import annotations

import pygame

from engine.view import PlayerView

from . import theme
from .words import article_name, kind_name

__all__ = ["cell_lines", "draw_cell_zoom"]

_LEVELS = (("A", "Air"), ("G", "Ground"), ("S", "Sub"))
_SIDE = {"B": "Black", "W": "White"}
_HAND = {"<": " (left)", ">": " (right)"}
_HEADING = {(1, 0): "towards row 10", (-1, 0): "towards row 1", (0, 1): "towards column 10",
            (0, -1): "towards column 1"}


def cell_lines(view: PlayerView, row: int, col: int) -> list[str]:
    """What ``view.player`` may know of square (row, col), one line per thing, Air first."""
    lines = [f"Square ({row},{col})"]
    for level, name in _LEVELS:
        here = [_own(p, view.ply) for p in view.own if (p.row, p.col, p.level) == (row, col, level)]
        here += [_seen(s) for s in view.seen if (s.row, s.col, s.level) == (row, col, level)]
        here += [_projectile(p) for p in view.projectiles if (p.row, p.col, p.level) == (row, col, level)]
        if level == "G":
            here += [f"article {article_name(g.code)} ({g.code})" + (f", reloading until ply {g.ready}" if g.ready else "")
                     for g in view.ground if (g.row, g.col) == (row, col)]
        if here:
            lines.append(f"{name}:")
            lines += ["  " + h for h in here]
    for r in view.reinforcements:
        if (r.row, r.col) == (row, col):
            lines.append(f"{_SIDE[r.side]} reinforcement waiting: {kind_name(r.kind)}{_HAND.get(r.hand, '')}")
    if len(lines) == 1:
        lines.append("nothing you can see")
    return lines


def draw_cell_zoom(surface: pygame.Surface, lines: list[str], near: pygame.Rect) -> pygame.Rect:
    """Draw ``lines`` in a box beside ``near`` (kept on screen); returns the box."""
    imgs = [theme.text(16, line, theme.TEXT) for line in lines]
    w = max(i.get_width() for i in imgs) + 16
    h = len(imgs) * 18 + 10
    box = pygame.Rect(near.right + 6, near.top, w, h)
    if box.right > surface.get_width():
        box.right = near.left - 6
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, theme.BAR, box, border_radius=6)
    pygame.draw.rect(surface, theme.HIGHLIGHT, box, 1, border_radius=6)
    for j, img in enumerate(imgs):
        surface.blit(img, (box.x + 8, box.y + 5 + j * 18))
    return box


def _own(p, ply: int) -> str:  # type: ignore[no-untyped-def]
    text = f"your {kind_name(p.kind)}{_HAND.get(p.hand, '')}"
    if p.codes:
        text += ", carries " + ", ".join(f"{article_name(c)} ({c})" for c in p.codes)
    if p.stun:
        text += f", stunned for {p.stun}"
    waits = [f"{article_name(w)} in {r - ply}" for w, r in p.ready if r > ply]
    waits += [f"{article_name(c)} in {r - ply}" for c, r in zip(p.codes, p.art_ready) if r > ply]
    if waits:
        text += ", reloading: " + ", ".join(waits)
    if p.trip:
        text += ", on a trip"
    if p.stealthy:
        text += ", hidden from the enemy" if not p.exposed else ", stealthy but seen"
    return text


def _seen(s) -> str:  # type: ignore[no-untyped-def]
    text = f"{_SIDE[s.side]} {kind_name(s.kind)}{_HAND.get(s.hand, '')}"
    if s.codes:
        text += ", carries " + ", ".join(f"{article_name(c)} ({c})" for c in s.codes)
    if s.stun:
        text += f", stunned for {s.stun}"
    if s.travelling:
        text += ", on a trip"
    return text


def _projectile(p) -> str:  # type: ignore[no-untyped-def]
    kind = {"R": "Rocket", "T": "Torpedo", "S": "SAM"}.get(p.kind, p.kind)
    heading = "homing" if p.homing else _HEADING.get((p.dr, p.dc), f"heading ({p.dr},{p.dc})")
    return f"{_SIDE.get(p.side, '')} {kind} in flight, {heading}, strength {p.strength}"
