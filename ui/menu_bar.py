"""The menu bar drawn with pygame-gui (04/U4, U5): a button per menu, a drop panel of items.

``MenuBar.ui_event(e)`` takes pygame-gui's events and returns the chosen item's command (or
None, or a ``Refusal`` for a greyed item). Greyed items look disabled but stay live widgets:
pygame-gui never hovers a disabled button, so its tooltip would never show; here the reason is
in the item's tooltip and a click on it says the reason (04/U5). The items come from
``ui.menus.menus`` so the bar, the shortcuts and the tests share one model.
"""
from __future__ import annotations

from typing import NamedTuple

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel

from .menus import MenuContext, MenuItem, menus

__all__ = ["MenuBar", "BAR_HEIGHT", "Refusal", "GREYED_ID"]

BAR_HEIGHT = 28
_TITLE_W, _ITEM_W, _ITEM_H = 110, 330, 28
GREYED_ID = "#menu_item_greyed"
#: a greyed item drawn with pygame-gui's own disabled colours in every state (hovered too)
_GREYED_THEME = {GREYED_ID: {"colours": {
    **{f"{state}_bg": "#25292e" for state in ("normal", "hovered", "selected", "active", "disabled")},
    **{f"{state}_text": "#808080" for state in ("normal", "hovered", "selected", "active", "disabled")}}}}


class Refusal(NamedTuple):
    """A greyed item was clicked: why it cannot be used now."""

    command: str
    why: str


class MenuBar:
    """Five menu buttons across the top; one drop panel open at a time."""

    def __init__(self, manager: pygame_gui.UIManager, ctx: MenuContext) -> None:
        self.manager, self.ctx = manager, ctx
        manager.get_theme().load_theme(_GREYED_THEME)
        self.titles: dict[UIButton, str] = {}
        for i, (title, _) in enumerate(menus(ctx)):
            button = UIButton(pygame.Rect(i * _TITLE_W, 0, _TITLE_W, BAR_HEIGHT), title, manager,
                              object_id="#menu_title")
            self.titles[button] = title
        self.panel: UIPanel | None = None
        self.items: dict[UIButton, MenuItem] = {}
        self.open_title: str | None = None

    def set_context(self, ctx: MenuContext) -> None:
        """New enabled states (takes effect the next time a menu opens)."""
        self.ctx = ctx
        if self.open_title is not None:
            self.open(self.open_title)

    def title_rect(self, title: str) -> pygame.Rect:
        """Where the menu ``title``'s button is (for tests that click it)."""
        return next(b.rect for b, t in self.titles.items() if t == title)

    def item_rect(self, command: str) -> pygame.Rect:
        """Where the open panel's item for ``command`` is. :raises KeyError: not shown."""
        for button, item in self.items.items():
            if item.command == command:
                return button.rect
        raise KeyError(command)

    def open(self, title: str) -> None:
        """Open menu ``title``'s drop panel (closing any other)."""
        self.close()
        index = [t for t, _ in menus(self.ctx)].index(title)
        entries = dict(menus(self.ctx))[title]
        rect = pygame.Rect(index * _TITLE_W, BAR_HEIGHT, _ITEM_W + 8, len(entries) * _ITEM_H + 8)
        self.panel = UIPanel(rect, starting_height=5, manager=self.manager)
        for j, item in enumerate(entries):
            text = f"{item.label}   {item.shortcut}" if item.shortcut else item.label
            button = UIButton(pygame.Rect(2, 2 + j * _ITEM_H, _ITEM_W, _ITEM_H), text, self.manager,
                              container=self.panel, tool_tip_text=None if item.enabled else item.why_not,
                              object_id="#menu_item" if item.enabled else GREYED_ID)
            self.items[button] = item
        self.open_title = title

    def close(self) -> None:
        """Close the open drop panel, if any."""
        if self.panel is not None:
            self.panel.kill()
        self.panel, self.items, self.open_title = None, {}, None

    def ui_event(self, e: pygame.event.Event) -> str | Refusal | None:
        """A pygame(-gui) event in; the command of a chosen item out (a greyed one: why not; or None)."""
        if e.type == pygame_gui.UI_BUTTON_PRESSED:
            if e.ui_element in self.titles:
                title = self.titles[e.ui_element]
                if self.open_title == title:
                    self.close()
                else:
                    self.open(title)
                return None
            if e.ui_element in self.items:
                item = self.items[e.ui_element]
                self.close()
                return item.command if item.enabled else Refusal(item.command, item.why_not)
        if e.type == pygame.MOUSEBUTTONDOWN and self.panel is not None:
            inside = self.panel.rect.collidepoint(e.pos) or any(b.rect.collidepoint(e.pos) for b in self.titles)
            if not inside:
                self.close()
        if e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE and self.panel is not None:
            self.close()
        return None
