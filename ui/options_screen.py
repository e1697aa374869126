"""The options screen (04/U6, U15, RUL-38): every pre-game option in words, the standard
game's value marked, in a scrolling list; Start begins a game with them.

A value the engine refuses (``Options`` validation, e.g. Sub/Jet combat without its movement
type) is said in words on the screen, with the rule id in a details line; nothing starts.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UIScrollingContainer, UITextEntryLine

from engine.options import Options

from .option_words import GROUPS, bounds, choices, describe_option, is_default, value_words

__all__ = ["OptionsScreen", "StartGame", "Cancelled"]

_ROW, _LABEL_W, _CONTROL_W = 34, 330, 330


class StartGame(NamedTuple):
    """The player chose Start with these options."""

    options: Options


class Cancelled(NamedTuple):
    """The player left the screen without starting."""


class OptionsScreen:
    """Every option as a labelled control; ``values`` holds the current choice of each."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, options: Options,
                 title: str = "New game: the rules", start_label: str = "Start") -> None:
        self.manager, self.rect = manager, rect
        self.values: dict[str, Any] = options.to_dict()
        self.controls: dict[str, UIDropDownMenu | UITextEntryLine] = {}
        self._value_of: dict[str, dict[str, Any]] = {}
        self.title = UILabel(pygame.Rect(rect.x, rect.y, rect.width, 30), title, manager,
                             object_id="#options_title")
        body = pygame.Rect(rect.x, rect.y + 36, rect.width, rect.height - 36 - 90)
        self.scroll = UIScrollingContainer(body, manager, allow_scroll_x=False)
        y = 0
        for group, names in GROUPS:
            UILabel(pygame.Rect(0, y, _LABEL_W, _ROW), group, manager, container=self.scroll,
                    object_id="#options_group")
            y += _ROW
            for name in names:
                self._row(name, y)
                y += _ROW
        self.scroll.set_scrollable_area_dimensions((body.width - 24, y))
        foot = rect.y + rect.height - 84
        self.message = UILabel(pygame.Rect(rect.x, foot, rect.width, 26), "(standard) marks the standard "
                               "game's value (RUL-38)", manager)
        self.details = UILabel(pygame.Rect(rect.x, foot + 24, rect.width, 22), "", manager)
        self.start = UIButton(pygame.Rect(rect.x, foot + 50, 160, 32), start_label, manager)
        self.standard = UIButton(pygame.Rect(rect.x + 170, foot + 50, 200, 32), "Standard game", manager)
        self.cancel = UIButton(pygame.Rect(rect.x + 380, foot + 50, 160, 32), "Cancel", manager)

    def _row(self, name: str, y: int) -> None:
        words = describe_option(name)
        label = UILabel(pygame.Rect(0, y, _LABEL_W, _ROW - 4), words.label, self.manager,
                        container=self.scroll, object_id="#option_label")
        label.set_tooltip(f"{words.help} ({words.rule})")
        UILabel(pygame.Rect(_LABEL_W + _CONTROL_W + 20, y, self.rect.width - _LABEL_W - _CONTROL_W - 60, _ROW - 4),
                words.help, self.manager, container=self.scroll, object_id="#option_help")
        rect = pygame.Rect(_LABEL_W + 8, y, _CONTROL_W, _ROW - 4)
        values = choices(name)
        if values is None:
            entry = UITextEntryLine(rect, self.manager, container=self.scroll)
            entry.set_text(str(self.values[name]))
            self.controls[name] = entry
            return
        texts = {self._text(name, v): v for v in values}
        self._value_of[name] = texts
        self.controls[name] = UIDropDownMenu(list(texts), self._text(name, self.values[name]), rect,
                                             self.manager, container=self.scroll,
                                             expansion_height_limit=200)

    @staticmethod
    def _text(name: str, value: Any) -> str:
        text = value_words(name, value)
        return text + " (standard)" if is_default(name, value) else text

    def choose(self, name: str, value: Any) -> None:
        """Set option ``name`` as its control would (tests and the Standard button use it)."""
        self.values[name] = value
        control = self.controls[name]
        if isinstance(control, UITextEntryLine):
            control.set_text(str(value))
            return
        rect, container = control.relative_rect, self.scroll
        texts = self._value_of[name]
        control.kill()
        self.controls[name] = UIDropDownMenu(list(texts), self._text(name, value), rect, self.manager,
                                             container=container, expansion_height_limit=200)

    def ui_event(self, e: pygame.event.Event) -> StartGame | Cancelled | None:
        """A pygame-gui event in; Start (with valid options) or Cancel out."""
        if e.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for name, control in self.controls.items():
                if control is e.ui_element:
                    self.values[name] = self._value_of[name][e.text]
        elif e.type in (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED):
            for name, control in self.controls.items():
                if control is e.ui_element:
                    self.values[name] = e.text
        elif e.type == pygame_gui.UI_BUTTON_PRESSED:
            if e.ui_element is self.cancel:
                return Cancelled()
            if e.ui_element is self.standard:
                for name, value in Options().to_dict().items():
                    if self.values[name] != value:
                        self.choose(name, value)
                return None
            if e.ui_element is self.start:
                return self.try_start()
        return None

    def try_start(self) -> StartGame | None:
        """The options as chosen, or None with the reason shown."""
        values = dict(self.values)
        for name, value in values.items():
            if isinstance(value, str) and bounds(name) is not None:
                lo, hi = bounds(name) or (0, 0)
                if not value.strip().isdigit() or not lo <= int(value) <= hi:
                    self.say(f"{describe_option(name).label} must be a whole number from {lo} to {hi}",
                             describe_option(name).rule)
                    return None
                values[name] = int(value)
        try:
            return StartGame(Options.from_dict(values))
        except ValueError as exc:
            self.say("These rules do not go together: " + str(exc).split(" (")[0], str(exc))
            return None

    def say(self, text: str, details: str) -> None:
        """Show why Start did nothing, the rule id in the details line."""
        self.message.set_text(text)
        self.details.set_text(f"details: {details}")

    def kill(self) -> None:
        """Remove every element of the screen."""
        for element in (self.title, self.scroll, self.message, self.details, self.start, self.standard,
                        self.cancel):
            element.kill()
