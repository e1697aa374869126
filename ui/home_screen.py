"""The home screen ``wec`` opens on (issue 9 item 1): WiFi, hotseat, the computer, load, editor, quit.

Each button gives the command the window carries out (``ui.net_shell.NetShell``); the menu bar
stays above it, so everything here is also in the menus (04/U5, U11).
"""
from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel

__all__ = ["HomeScreen", "HOME_CHOICES"]

#: (command, words) in screen order
HOME_CHOICES = (
    ("wifi", "Play over WiFi with another laptop"),
    ("hotseat", "Hotseat: two people on this laptop"),
    ("vs_computer", "Play against the computer"),
    ("load", "Load a game…"),
    ("editor", "Board editor"),
    ("quit", "Quit"),
)


class HomeScreen:
    """One big button per way to play; ``buttons`` maps each command to its button."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.rect = rect
        self.title = UILabel(pygame.Rect(rect.centerx - 300, rect.y + 40, 600, 40),
                             "WEC — Weaponized Chess", manager, object_id="#options_title")
        self.buttons: dict[str, UIButton] = {}
        for i, (command, words) in enumerate(HOME_CHOICES):
            r = pygame.Rect(rect.centerx - 220, rect.y + 120 + i * 62, 440, 48)
            self.buttons[command] = UIButton(r, words, manager)

    def ui_event(self, e: pygame.event.Event) -> str | None:
        """The command of the pressed button, or None."""
        if e.type == pygame_gui.UI_BUTTON_PRESSED:
            for command, button in self.buttons.items():
                if e.ui_element is button:
                    return command
        return None

    def kill(self) -> None:
        """Remove every element."""
        self.title.kill()
        for b in self.buttons.values():
            b.kill()
