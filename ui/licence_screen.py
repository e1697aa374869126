"""The licence screen (issue 9 item 6): WiFi play needs this installation's licence; hotseat and
the computer opponent do not.

Shown when WiFi play is chosen and the installation has no valid licence: the reason in words,
a licence key field and three ways to activate — online against the vendor's endpoint, or the
offline route (write a request file, take it to any connected machine, read its response file
back). The work itself is done by an ``Activation`` the application passes in
(``net.licence_client`` in ``wec_p2p.cmd_window``), so the screen holds no licence logic.
"""
from __future__ import annotations

from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox, UITextEntryLine

from .words import split_rule

__all__ = ["Activation", "LicenceScreen", "ACTIVATED", "BACK"]

ACTIVATED, BACK = "activated", "back"


class Activation(Protocol):
    """What the screen asks of the application; each returns a sentence for the player and
    raises an exception whose text says what went wrong."""

    endpoint: str

    def online(self, key: str, endpoint: str) -> str: ...

    def request(self, key: str, path: str) -> str: ...

    def response(self, path: str) -> str: ...


class LicenceScreen:
    """Key, endpoint and file fields with their buttons; ``ui_event`` says when it is done."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, reason: str,
                 activation: Activation) -> None:
        self.manager, self.activation = manager, activation
        x, y, w = rect.x, rect.y, rect.width
        words, _ = split_rule(reason)
        self.elements: list[object] = []
        self.title = self._add(UILabel(pygame.Rect(x, y, w, 30), "WiFi play needs this laptop's licence "
                                       "(hotseat and the computer opponent need none)", manager))
        self.reason = self._add(UITextBox(words, pygame.Rect(x, y + 36, w, 60), manager))
        self._add(UILabel(pygame.Rect(x, y + 110, 200, 30), "Licence key", manager))
        self.key = self._add(UITextEntryLine(pygame.Rect(x + 210, y + 110, 360, 32), manager,
                                             placeholder_text="WEC-XXXX-XXXX-XXXX-XXXX"))
        self._add(UILabel(pygame.Rect(x, y + 150, 200, 30), "Vendor's endpoint", manager))
        self.endpoint = self._add(UITextEntryLine(pygame.Rect(x + 210, y + 150, 560, 32), manager))
        self.endpoint.set_text(activation.endpoint)
        self.online = self._add(UIButton(pygame.Rect(x + 210, y + 192, 240, 34), "Activate online", manager))
        self._add(UILabel(pygame.Rect(x, y + 250, w, 26), "No internet here? Write a request file, take it to "
                          "any connected machine (wec activate --relay), and read the response back:", manager))
        self._add(UILabel(pygame.Rect(x, y + 284, 200, 30), "Request file", manager))
        self.request_path = self._add(UITextEntryLine(pygame.Rect(x + 210, y + 284, 420, 32), manager))
        self.request_path.set_text("wec-activation-request.json")
        self.write = self._add(UIButton(pygame.Rect(x + 640, y + 284, 220, 32), "Write the request", manager))
        self._add(UILabel(pygame.Rect(x, y + 324, 200, 30), "Response file", manager))
        self.response_path = self._add(UITextEntryLine(pygame.Rect(x + 210, y + 324, 420, 32), manager))
        self.response_path.set_text("wec-activation-response.json")
        self.read = self._add(UIButton(pygame.Rect(x + 640, y + 324, 220, 32), "Read the response", manager))
        self.message = self._add(UILabel(pygame.Rect(x, y + 380, w, 30), "", manager))
        self.details = self._add(UILabel(pygame.Rect(x, y + 410, w, 24), "", manager))
        self.back = self._add(UIButton(pygame.Rect(x, y + 450, 200, 34), "Back", manager))

    def _add(self, element):  # type: ignore[no-untyped-def]
        self.elements.append(element)
        return element

    def ui_event(self, e: pygame.event.Event) -> str | None:
        """A pygame-gui event in; ``ACTIVATED`` once a licence is installed, ``BACK`` to leave."""
        if e.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        if e.ui_element is self.back:
            return BACK
        key = self.key.get_text().strip()
        try:
            if e.ui_element is self.online:
                self.say(self.activation.online(key, self.endpoint.get_text().strip()))
                return ACTIVATED
            if e.ui_element is self.write:
                self.say(self.activation.request(key, self.request_path.get_text().strip()))
            elif e.ui_element is self.read:
                self.say(self.activation.response(self.response_path.get_text().strip()))
                return ACTIVATED
        except Exception as exc:  # noqa: BLE001 - any refusal is said, the screen stays
            detail, code = getattr(exc, "detail", None), getattr(exc, "code", None)
            if detail and code:
                self.say(str(detail), error=True)
                self.details.set_text(f"details: {code}")
            else:
                self.say(str(exc), error=True)
        return None

    def say(self, text: str, error: bool = False) -> None:
        """The outcome line in words, the rule or code in the details line."""
        words, rule = split_rule(text)
        self.message.set_text(("Not done: " if error else "") + words)
        self.details.set_text(f"details: {rule}" if rule else "")

    def on_event(self, ev: object) -> None:
        """Network events do not concern this screen."""

    def kill(self) -> None:
        """Remove every widget."""
        for element in self.elements:
            element.kill()  # type: ignore[attr-defined]
