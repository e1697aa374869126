"""Setting up a WiFi game (04/U60-U61, U21; issue 9 item 4): colours, the secret government, rules.

Fed with ``net.frontend`` setup events (``on_event``) and pygame-gui events (``ui_event``,
which returns the bridge commands to post). Asking for a colour settles a clash with the fair
coin (``ColourToss``); the government is secret and needs no approval (04/U21); every other
rule option (in words, ``ui.option_words``) is a request the other player approves or rejects
in a dialog (04/U61). Finish WiFi Setup starts the game once both finished on the same rules.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UIPanel, UITextBox, UITextEntryLine

from engine.options import Options
from engine.pieces import GOVERNMENTS
from net import frontend as fe
from net.negotiation import NET_OPTIONS

from . import option_words
from .option_words import GROUPS, OptionWords

__all__ = ["SetupScreen", "change_words", "NEGOTIATED", "NET_WORDS", "describe_option", "value_words",
           "bounds", "choices", "standard_value"]

#: the network game's own options (net.negotiation.NET_OPTIONS), negotiated like the engine's
NET_WORDS: dict[str, OptionWords] = {
    "move_time_limit": OptionWords("Move time limit", "seconds each action of the player to move may take; "
                                   "when they run out the waiting side claims the game (0: no limit)", "N-4"),
    "hidden_psi": OptionWords("Private questions about hidden pieces", "questions whose plain form would show "
                              "the other laptop where your own hidden pieces are go through a private "
                              "set intersection (slower, leaks less)", "P-6"),
}
#: the options a request may change, in the options screen's order (governments are each side's
#: own), with the network game's after the turn limit (``wec host --request move_time_limit=60``)
NEGOTIATED = tuple(m for _, names in GROUPS for n in names if not n.startswith("gov_")
                   for m in ((n, *NET_OPTIONS) if n == "ply_limit" else (n,)))


def describe_option(name: str) -> OptionWords:
    """The words for an engine or network option. :raises KeyError: neither."""
    return NET_WORDS[name] if name in NET_OPTIONS else option_words.describe_option(name)


def value_words(name: str, value: Any) -> str:
    """One value in words; a move time limit in seconds ("no limit" for 0); private questions on/off."""
    if name == "hidden_psi":
        return "on" if value else "off"
    if name in NET_OPTIONS:
        return "no limit" if value == 0 else f"{value} s"
    return option_words.value_words(name, value)


def bounds(name: str) -> tuple[int, int] | None:
    """The (lowest, highest) of a number option."""
    if name in NET_OPTIONS:
        return NET_OPTIONS[name][1], NET_OPTIONS[name][2]
    return option_words.bounds(name)


def choices(name: str) -> tuple[Any, ...] | None:
    """The values to pick from, or None for a number typed in."""
    if name == "hidden_psi":
        return (1, 0)
    return None if name in NET_OPTIONS else option_words.choices(name)


def standard_value(name: str) -> Any:
    """The standard game's value of an engine or network option."""
    return NET_OPTIONS[name][0] if name in NET_OPTIONS else getattr(Options(), name)


def change_words(changes: tuple[tuple[str, Any], ...]) -> str:
    """A request in words: "Turn limit: 12 (standard: no limit)"."""
    return "; ".join(f"{describe_option(k).label}: {value_words(k, v)} (standard: "
                     f"{value_words(k, standard_value(k))})" for k, v in changes)


class SetupScreen:
    """Colour, government, rule requests and answers, the agreed options and Finish."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, peer: str) -> None:
        self.manager, self.rect, self.peer = manager, rect, peer
        x, y, w = rect.x, rect.y, rect.width
        self.elements: list[Any] = []
        self.title = self._add(UILabel(pygame.Rect(x, y, w, 30), f"Setting up the game with {peer} "
                                       "(04/U60-U61): every rule change is approved by the other player", manager))
        self._add(UILabel(pygame.Rect(x, y + 40, 160, 30), "Your colour:", manager))
        self.white = self._add(UIButton(pygame.Rect(x + 170, y + 40, 150, 30), "Ask for White", manager))
        self.black = self._add(UIButton(pygame.Rect(x + 330, y + 40, 150, 30), "Ask for Black", manager))
        self.colour_label = self._add(UILabel(pygame.Rect(x + 490, y + 40, w - 490, 30),
                                              "a clash is settled by a fair coin (04/U60)", manager))
        self._add(UILabel(pygame.Rect(x, y + 80, 160, 30), "Your government:", manager))
        self.gov_words = {value_words("gov_black", g): g for g in GOVERNMENTS}
        self.gov = self._add(UIDropDownMenu(list(self.gov_words), value_words("gov_black", "monarchy"),
                                            pygame.Rect(x + 170, y + 80, 310, 30), manager))
        self.gov_button = self._add(UIButton(pygame.Rect(x + 490, y + 80, 150, 30), "Choose", manager))
        self.gov_label = self._add(UILabel(pygame.Rect(x + 650, y + 80, w - 650, 30),
                                           "secret until both chose; needs no approval (04/U21)", manager))
        self._add(UILabel(pygame.Rect(x, y + 120, 160, 30), "Ask for a rule:", manager))
        self.option_words = {describe_option(n).label: n for n in NEGOTIATED}
        self.option = self._add(UIDropDownMenu(list(self.option_words), describe_option(NEGOTIATED[0]).label,
                                               pygame.Rect(x + 170, y + 120, 310, 30), manager,
                                               expansion_height_limit=420))
        self.value_rect = pygame.Rect(x + 490, y + 120, 250, 30)
        self.value: UIDropDownMenu | UITextEntryLine | None = None
        self.value_of: dict[str, Any] = {}
        self.option_name = NEGOTIATED[0]
        self._value_control()
        self.request = self._add(UIButton(pygame.Rect(x + 750, y + 120, 180, 30), "Request change", manager))
        self._add(UILabel(pygame.Rect(x, y + 164, w // 2 - 10, 26), "Requests", manager, object_id="#options_group"))
        self.requests = self._add(UITextBox("none yet", pygame.Rect(x, y + 192, w // 2 - 10, 250), manager))
        self._add(UILabel(pygame.Rect(x + w // 2 + 10, y + 164, w // 2 - 10, 26), "Agreed rules that differ from "
                          "the standard game", manager, object_id="#options_group"))
        self.agreed = self._add(UITextBox("none: the standard game", pygame.Rect(x + w // 2 + 10, y + 192,
                                                                                 w // 2 - 10, 250), manager))
        self.finish = self._add(UIButton(pygame.Rect(x, y + 460, 260, 40), "Finish WiFi Setup", manager))
        self.finish.disable()
        self.finish_label = self._add(UILabel(pygame.Rect(x + 270, y + 460, w - 270, 40),
                                              "choose a colour and a government first", manager))
        self.message = self._add(UILabel(pygame.Rect(x, y + 510, w, 30), "", manager))
        self.setup: fe.SetupChanged | None = None
        self.toss: fe.ColourToss | None = None
        self.asked: list[fe.RuleChangeRequested] = []       # the peer's requests waiting for our answer
        self.dialog: UIPanel | None = None
        self.approve: UIButton | None = None
        self.reject: UIButton | None = None
        self.dialog_text: UITextBox | None = None
        self.answers: list[fe.RuleChangeAnswered] = []

    def _add(self, element: Any) -> Any:
        self.elements.append(element)
        return element

    def _value_control(self) -> None:
        if self.value is not None:
            self.value.kill()
        name = self.option_name
        values = choices(name)
        current = standard_value(name)
        if values is None:
            entry = UITextEntryLine(self.value_rect, self.manager)
            entry.set_text(str(current))
            lo, hi = bounds(name) or (0, 0)
            entry.set_tooltip(f"a whole number from {lo} to {hi}")
            self.value, self.value_of = entry, {}
            return
        self.value_of = {value_words(name, v): v for v in values}
        self.value = UIDropDownMenu(list(self.value_of), value_words(name, current), self.value_rect, self.manager,
                                    expansion_height_limit=300)

    def choose_rule(self, name: str) -> None:
        """Show ``name``'s values (what picking it in the option list does)."""
        self.option_name = name
        self._value_control()

    def chosen_value(self) -> Any:
        """The value in the value control. :raises ValueError: not a number in range."""
        name = self.option_name
        if isinstance(self.value, UITextEntryLine):
            text = self.value.get_text().strip()
            lo, hi = bounds(name) or (0, 0)
            if not text.isdigit() or not lo <= int(text) <= hi:
                raise ValueError(f"{describe_option(name).label} must be a whole number from {lo} to {hi}")
            return int(text)
        assert self.value is not None
        return self.value_of[self.value.selected_option[0]]

    # -- bridge events ------------------------------------------------------------------------

    def on_event(self, ev: Any) -> bool:
        """Take one setup event; True when it was one."""
        if isinstance(ev, fe.SetupChanged):
            self.setup = ev
            self._show_setup(ev)
        elif isinstance(ev, fe.ColourToss):
            self.toss = ev
            how = ("both asked for the same colour: the coin gave it to "
                   + ("you" if ev.toss_winner == "me" else self.peer)) if ev.toss_winner else "as asked"
            self.colour_label.set_text(f"you play {ev.mine.capitalize()} ({how})")
        elif isinstance(ev, fe.RuleChangeRequested):
            self.asked.append(ev)
            if self.dialog is None:
                self._ask()
        elif isinstance(ev, fe.RuleChangeAnswered):
            self.answers.append(ev)
            who = "you" if ev.by == "me" else self.peer
            said = "approved" if ev.accepted else "rejected" + (f" ({ev.reason})" if ev.reason else "")
            self.say(f"{who} {said}: {change_words(ev.changes)}")
        elif isinstance(ev, fe.CommandRefused) and isinstance(ev.command, fe.GAME_COMMANDS):
            self.say(f"not done: {ev.reason}", error=True)
        elif isinstance(ev, fe.ConnectionLost):
            self.say("connection lost — waiting for the other laptop", error=True)
        elif isinstance(ev, fe.Resumed):
            self.say("the other laptop is back")
        else:
            return False
        return True

    def _show_setup(self, s: fe.SetupChanged) -> None:
        if s.colours is None and s.colour_asked:
            self.colour_label.set_text(f"you asked for {s.colour_asked.capitalize()}; waiting for {self.peer}")
        if s.gov_chosen:
            self.gov_label.set_text("your government is chosen (secret until both chose)")
        rows = []
        for r in s.requests:
            who = "You asked" if r.by == "me" else f"{self.peer} asked"
            rows.append(f"{who}: {change_words(r.changes)} — <b>{r.status}</b>")
        self.requests.set_text("<br>".join(rows) or "none yet")
        self.agreed.set_text("<br>".join(change_words(((k, v),)) for k, v in s.options)
                             or "none: the standard game")
        if s.ready:
            self.finish.enable()
        else:
            self.finish.disable()
        if "me" in s.finished and "peer" not in s.finished:
            text = f"you finished; waiting for {self.peer} to finish"
        elif "peer" in s.finished:
            text = f"{self.peer} finished with these rules: press Finish to start"
        elif s.ready:
            text = "ready: press Finish when you want no further changes (04/U61)"
        else:
            text = "choose a colour and a government, and answer every request, first"
        self.finish_label.set_text(text)

    def _ask(self) -> None:
        ev = self.asked[0]
        rect = pygame.Rect(self.rect.centerx - 280, self.rect.y + 150, 560, 240)
        self.dialog = UIPanel(rect, starting_height=10, manager=self.manager)
        self.dialog_text = UITextBox(f"<b>{self.peer} asks for a rule change</b> (04/U61):<br><br>"
                                     f"{change_words(ev.changes)}", pygame.Rect(10, 10, 536, 150), self.manager,
                                     container=self.dialog)
        self.approve = UIButton(pygame.Rect(10, 176, 260, 44), "Approve", self.manager, container=self.dialog)
        self.reject = UIButton(pygame.Rect(286, 176, 260, 44), "Reject", self.manager, container=self.dialog)

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog = self.approve = self.reject = self.dialog_text = None

    def say(self, text: str, error: bool = False) -> None:
        """The message line."""
        self.message.set_text(("Problem: " if error else "") + text)

    # -- pygame-gui events ----------------------------------------------------------------------

    def ui_event(self, e: pygame.event.Event) -> list[Any]:
        """A widget event in; the bridge commands it means out."""
        if e.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and e.ui_element is self.option:
            self.choose_rule(self.option_words[e.text])
            return []
        if e.type != pygame_gui.UI_BUTTON_PRESSED:
            return []
        if self.dialog is not None and e.ui_element in (self.approve, self.reject):
            ev = self.asked.pop(0)
            yes = e.ui_element is self.approve
            self._close_dialog()
            if self.asked:
                self._ask()
            return [fe.AnswerRuleChange(ev.rid, yes, "" if yes else "rejected on the other laptop")]
        if e.ui_element is self.white:
            return [fe.ChooseColour("white")]
        if e.ui_element is self.black:
            return [fe.ChooseColour("black")]
        if e.ui_element is self.gov_button:
            self.gov_button.disable()
            return [fe.ChooseGovernment(self.gov_words[self.gov.selected_option[0]])]
        if e.ui_element is self.request:
            try:
                value = self.chosen_value()
            except ValueError as exc:
                self.say(str(exc), error=True)
                return []
            self.say(f"asked {self.peer}: {change_words(((self.option_name, value),))}")
            return [fe.RequestRuleChange(self.option_name, value)]
        if e.ui_element is self.finish:
            return [fe.FinishSetup()]
        return []

    def kill(self) -> None:
        """Remove every element."""
        self._close_dialog()
        if self.value is not None:
            self.value.kill()
        for element in self.elements:
            element.kill()
