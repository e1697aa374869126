"""The WiFi lobby (04/U59; issue 9 items 2-3): PEERS and ME live, a host:port field, first contact.

Fed with ``net.frontend`` events (``on_event``) and pygame-gui events (``ui_event``, which
returns the bridge commands to post). PEERS lists each game found with its name, short
fingerprint and "paired" / "new" / "in a game"; clicking one selects it and Connect joins it
(04/U59 steps 4-5). The lobby hosts by itself, so the other laptop can connect to this one;
connecting leaves hosting first (``Quit`` then ``Join``). An empty lobby explains why after a
few seconds, with this laptop's addresses (``NothingFound``). First contact shows the code both
screens must show, with Yes / No; a remembered laptop with another identity is refused, with
Forget to pair it again.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox, UITextEntryLine

from net import frontend as fe

__all__ = ["LobbyScreen", "peer_words", "LEAVE", "AFRESH"]

#: what ``ui_event`` returns for the Back button: leave WiFi play (no hosting, no discovery)
LEAVE = "leave"
#: ... and for "Set the unfinished game aside": the next connection starts a new game (--new-game)
AFRESH = "afresh"


_ROW = 40
_SHOWN = 6          # PEERS rows that fit above the buttons


def peer_words(p: fe.LobbyPeer) -> str:
    """One PEERS row: name, short fingerprint, state, whether it waits for a guest, and the name
    warnings of issue 10 item 3 (names are claims: compare the fingerprint with the other screen)."""
    return (f"{p.name}   {p.short_fp}   {p.state}" + ("   · waiting for a guest" if p.hosting else "")
            + ("   · name used twice" if p.same_name else "")
            + (f"   · NOT your paired {p.name}" if p.not_pinned_as else ""))


class LobbyScreen:
    """PEERS on the left, ME on the right, the address field and the messages below."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.manager, self.rect = manager, rect
        x, y, w = rect.x, rect.y, rect.width
        self.title = UILabel(pygame.Rect(x, y, w, 30), "Play over WiFi: both laptops open this screen; "
                             "click the other one under PEERS, then Connect on one of them (04/U59)", manager)
        self.labels = [UILabel(pygame.Rect(x, y + 36, 200, 26), "PEERS", manager, object_id="#options_group")]
        self.peers: tuple[fe.LobbyPeer, ...] = ()
        self.peer_buttons: dict[str, UIButton] = {}
        self.selected: str | None = None
        self.me: fe.Me | None = None
        half = w // 2
        self.labels.append(UILabel(pygame.Rect(x + half + 20, y + 36, 200, 26), "ME", manager,
                                   object_id="#options_group"))
        self.me_box = UITextBox("looking for this laptop's addresses…", pygame.Rect(x + half + 20, y + 64, half - 20, 130),
                                manager)
        self.empty = UILabel(pygame.Rect(x, y + 64, half - 10, 26), "looking for other laptops…", manager)
        self.more = UILabel(pygame.Rect(x, y + 64 + _SHOWN * _ROW - 2, half - 10, 24), "", manager)
        self.connect = UIButton(pygame.Rect(x, y + 330, 200, 34), "Connect", manager)
        self.connect.disable()
        self.rescan = UIButton(pygame.Rect(x + 210, y + 330, 200, 34), "Discover again", manager)
        self.back = UIButton(pygame.Rect(x + 420, y + 330, 240, 34), "Back to the home screen", manager,
                             tool_tip_text="stop waiting for a guest and leave the network")
        self.labels.append(UILabel(pygame.Rect(x + half + 20, y + 206, half - 20, 26),
                                   "Or type the other laptop's address (host:port):", manager))
        self.address = UITextEntryLine(pygame.Rect(x + half + 20, y + 236, 300, 34), manager)
        self.address.set_text("")
        self.connect_address = UIButton(pygame.Rect(x + half + 330, y + 236, 200, 34), "Connect to address", manager)
        self.message = UILabel(pygame.Rect(x, y + 376, w, 26), "", manager)
        self.afresh = UIButton(pygame.Rect(x + 670, y + 330, 330, 34), "Set the unfinished game aside", manager,
                               tool_tip_text="the next connection with the other laptop starts a new game; "
                               "the unfinished one is kept aside, not played on (wec host --new-game)",
                               visible=0)
        self.diagnosis = UITextBox("", pygame.Rect(x, y + 408, w, 230), manager, visible=0)
        self.diagnosed: fe.Diagnosis | None = None
        self.dialog: UIPanel | None = None
        self.dialog_kind = ""               # "code" or "identity"
        self.dialog_buttons: dict[str, UIButton] = {}
        self.dialog_text: UITextBox | None = None
        self.code: fe.PairingCode | None = None
        self.warning: fe.IdentityWarning | None = None
        self.paired: list[fe.PeerRemembered] = []

    # -- bridge events ------------------------------------------------------------------------

    def on_event(self, ev: Any) -> bool:
        """Take one lobby event; True when it was one."""
        if isinstance(ev, fe.PeersChanged):
            self._peers(ev.peers)
            self._me(ev.me)
        elif isinstance(ev, fe.NothingFound):
            self.diagnosed = ev.diagnosis
            if not self.peers:
                self.diagnosis.set_text("<br>".join(_escape(line) for line in ev.diagnosis.lines()))
                self.diagnosis.show()
        elif isinstance(ev, fe.Hosting):
            self.say(f"this laptop waits for the other one on port {ev.port}")
        elif isinstance(ev, fe.PairingCode):
            self.code = ev
            self._dialog("code", f"First contact with <b>{_escape(ev.peer_name)}</b>.<br>Does the other laptop "
                         f"show the same code?<br><br><font size=6><b>{_escape(ev.code)}</b></font>",
                         [("yes", "Yes, the same code"), ("no", "No")])
        elif isinstance(ev, fe.PeerRemembered):
            self.paired.append(ev)
            self.close_dialog()
            self.say(f"{ev.name} ({ev.fingerprint[:16]}) is remembered: it will not be asked again")
        elif isinstance(ev, fe.PairingFailed):
            self.close_dialog()
            self.say(f"not paired: {ev.reason}", error=True)
        elif isinstance(ev, fe.IdentityWarning):
            self.warning = ev
            self._dialog("identity", "<b>Warning: this laptop presents another identity</b><br>"
                         f"{_escape(ev.message)}<br><br>It was refused. If the other laptop was reinstalled, "
                         f"forget it and connect again (or run {_escape(ev.forget)}).",
                         [("forget", "Forget it"), ("close", "Close")])
        elif isinstance(ev, fe.Problem):
            self.say(ev.message, error=True)
            self._offer_afresh(ev.message)
        elif isinstance(ev, fe.SessionEnded) and ev.status != "finished":
            self.say(f"not connected: {ev.reason or ev.status}", error=True)   # e.g. refused by the other laptop
            self._offer_afresh(ev.reason)
        elif isinstance(ev, fe.CommandRefused) and isinstance(ev.command, (fe.Join, fe.Host, fe.ConfirmCode,
                                                                          fe.ForgetPeer)):
            self.say(ev.reason, error=True)
        else:
            return False
        return True

    def _offer_afresh(self, reason: str) -> None:
        """An unfinished game stands in the way (net.session tells a terminal player to start with
        ``--new-game``): offer the window's way to set it aside (04/U62)."""
        if "--new-game" in reason:
            self.message.set_text(self.message.text.replace("start with --new-game",
                                                            "press Set the unfinished game aside"))
            self.afresh.show()

    def say(self, text: str, error: bool = False) -> None:
        """The message line under the lists."""
        self.message.set_text(("Problem: " if error else "") + text)

    def _peers(self, peers: tuple[fe.LobbyPeer, ...]) -> None:
        if peers == self.peers:
            return
        self.peers = peers
        for b in self.peer_buttons.values():
            b.kill()
        self.peer_buttons = {}
        x, y = self.rect.x, self.rect.y + 64
        for i, p in enumerate(peers[:_SHOWN]):
            button = UIButton(pygame.Rect(x, y + i * _ROW, self.rect.width // 2 - 10, _ROW - 4), peer_words(p),
                              self.manager, tool_tip_text=f"fingerprint {p.fingerprint}<br>address {p.address}" + _warning(p))
            if p.key == self.selected:
                button.select()
            self.peer_buttons[p.key] = button
        if self.selected not in self.peer_buttons:
            self.selected = None
        self.empty.set_text("" if peers else "looking for other laptops…")
        hidden = len(peers) - _SHOWN
        self.more.set_text(f"… and {hidden} more: type the address of the one you want (shown under ME on "
                           "its screen)" if hidden > 0 else "")
        if peers:
            self.diagnosis.hide()
        self._connectable()

    def _me(self, me: fe.Me) -> None:
        if me == self.me:
            return
        self.me = me
        addresses = ", ".join(f"{a}:{me.port}" if me.port else a for a in me.addresses) or "no network"
        self.me_box.set_text(f"<b>{_escape(me.name)}</b><br>fingerprint {me.fingerprint[:16]}<br>"
                             f"address {_escape(addresses)}<br>{_escape(me.status)}")

    def _connectable(self) -> None:
        peer = self.peer(self.selected) if self.selected else None
        if peer is not None and peer.hosting and peer.state != "in a game":
            self.connect.enable()
        else:
            self.connect.disable()

    def peer(self, key: str | None) -> fe.LobbyPeer | None:
        """The PEERS entry ``key`` (None: not shown)."""
        return next((p for p in self.peers if p.key == key), None)

    # -- the dialog (pairing code, identity warning) --------------------------------------------

    def _dialog(self, kind: str, html: str, buttons: list[tuple[str, str]]) -> None:
        self.close_dialog()
        rect = pygame.Rect(self.rect.centerx - 260, self.rect.y + 120, 520, 280)
        self.dialog = UIPanel(rect, starting_height=10, manager=self.manager)
        self.dialog_text = UITextBox(html, pygame.Rect(10, 10, 496, 190), self.manager, container=self.dialog)
        self.dialog_buttons = {}
        for i, (name, words) in enumerate(buttons):
            self.dialog_buttons[name] = UIButton(pygame.Rect(10 + i * 250, 214, 240, 44), words, self.manager,
                                                 container=self.dialog)
        self.dialog_kind = kind

    def close_dialog(self) -> None:
        """Remove the pairing / warning dialog, if any."""
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog, self.dialog_kind, self.dialog_buttons, self.dialog_text = None, "", {}, None

    # -- pygame-gui events ----------------------------------------------------------------------

    def ui_event(self, e: pygame.event.Event) -> list[Any]:
        """A widget event in; the bridge commands it means out (in order), or ``[LEAVE]``."""
        if e.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and e.ui_element is self.address:
            return self._join_address()
        if e.type != pygame_gui.UI_BUTTON_PRESSED:
            return []
        for name, button in self.dialog_buttons.items():
            if e.ui_element is button:
                return self._answer(name)
        for key, button in self.peer_buttons.items():
            if e.ui_element is button:
                if self.selected in self.peer_buttons:
                    self.peer_buttons[self.selected].unselect()
                self.selected = key
                button.select()
                self._connectable()
                peer = self.peer(key)
                if peer is not None and not peer.hosting:
                    self.say(f"{peer.name} is not waiting for a guest: press Connect on that laptop instead")
                return []
        if e.ui_element is self.connect and self.selected is not None:
            peer = self.peer(self.selected)
            self.say(f"connecting to {peer.name if peer else self.selected}…")
            return [fe.Quit(), fe.Join(self.selected)]
        if e.ui_element is self.connect_address:
            return self._join_address()
        if e.ui_element is self.rescan:
            return [fe.Rescan()]
        if e.ui_element is self.back:
            return [LEAVE]
        if e.ui_element is self.afresh:
            self.afresh.hide()
            self.say("the next connection with the other laptop starts a new game: connect again")
            return [AFRESH]
        return []

    def _join_address(self) -> list[Any]:
        text = self.address.get_text().strip()
        if not text:
            self.say("type the other laptop's address as host:port, e.g. 192.168.1.20:41000", error=True)
            return []
        self.say(f"connecting to {text}…")
        return [fe.Quit(), fe.Join(text)]

    def _answer(self, name: str) -> list[Any]:
        kind = self.dialog_kind
        self.close_dialog()
        if kind == "code":
            self.say("waiting for the other laptop's answer…" if name == "yes" else "refused: not paired")
            return [fe.ConfirmCode(name == "yes")]
        if kind == "identity" and name == "forget" and self.warning is not None:
            fp = self.warning.fingerprint
            self.say(f"forgot {fp[:16]}: connect again to pair with the new identity")
            return [fe.ForgetPeer(fp)]
        return []

    def kill(self) -> None:
        """Remove every element."""
        self.close_dialog()
        for b in self.peer_buttons.values():
            b.kill()
        for element in (self.title, self.me_box, self.empty, self.more, self.connect, self.rescan, self.back,
                        self.afresh, self.address,
                        self.connect_address, self.message, self.diagnosis, *self.labels):
            element.kill()


def _warning(p: fe.LobbyPeer) -> str:
    """The name warnings in full, for the row's tooltip."""
    out = ""
    if p.same_name:
        out += "<br>another laptop advertises the same name: compare the fingerprint with its screen"
    if p.not_pinned_as:
        out += (f"<br>the {_escape(p.name)} you paired with has fingerprint {p.not_pinned_as[:16]}; this one has "
                f"another identity: possible impostor")
    return out


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
