"""``wec window --control``: the real window driven through stdin, for tests and scripts.

Each stdin line is one JSON input, turned into real pygame events posted to the window's own
event queue: ``{"click": [x, y], "button": 1}``, ``{"key": "z"}`` (a pygame key name),
``{"text": "12"}`` (typed characters) or ``{"shot": PATH}`` (save the screen as a PNG). After
each frame whose screen changed, stdout gets one JSON line of what the screen shows: every
visible button (its words, centre, enabled), the text fields, and the model of the screen
shown (lobby, setup, or the board with the moves a player can click). Nothing here decides
anything for the player; it reads and clicks.
"""
from __future__ import annotations

import json
import queue
import sys
import threading
import time
from typing import Any, TextIO

import pygame
from pygame_gui.elements import UIButton, UITextEntryLine

from engine.actions import EndTurn, Move
from engine.notation import format_action
from engine.view import view_key
from ui import choices
from ui.home_screen import HomeScreen
from ui.layout import cell_rect
from ui.lobby_screen import LobbyScreen
from ui.net_shell import NetShell
from ui.net_session import NetGameScene
from ui.panel_view import end_button
from ui.scenes import GameScene
from ui.session import Session
from ui.setup_screen import SetupScreen

__all__ = ["run_controlled", "screen_model", "MODEL_EVERY_S"]

#: the screen's model is read after every input and every frame that drew; besides, this often
#: (a change that drew nothing is still reported), so an idle window costs what it costs a person
MODEL_EVERY_S = 2.0


def _read(stdin: TextIO, inbox: "queue.SimpleQueue[Any]") -> None:
    for line in stdin:
        line = line.strip()
        if line:
            inbox.put(json.loads(line))
    inbox.put(None)


def _events(item: dict[str, Any]) -> list[pygame.event.Event]:
    if "click" in item:
        pos, button = tuple(item["click"]), int(item.get("button", 1))
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)]
    if "key" in item:
        k = pygame.key.key_code(item["key"])
        return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""),
                pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="")]
    if "text" in item:
        return [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in item["text"]]
    return []


def run_controlled(shell: NetShell, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    """The frame loop with inputs from ``stdin`` and the screen's model on ``out``."""
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_read, args=(stdin, inbox), name="wec-control", daemon=True).start()
    clock = pygame.time.Clock()
    shell.background = True               # a person's window: the computer thinks aside
    last = ""
    read_at = 0.0
    try:
        while shell.running:
            try:
                item = inbox.get(timeout=0.02)
            except queue.Empty:
                item = {}
            if item is None:
                break
            if "shot" in item:
                shell.dirty = True
                shell.pump([], clock.tick() / 1000)
                pygame.image.save(shell.surface, item["shot"])
            for e in _events(item):
                pygame.event.post(e)
            shell.drew = False
            shell.pump(None, clock.tick() / 1000)       # the window's own queue, as a person's input
            shell.pump(None, clock.tick() / 1000)       # the widgets' answers to it
            now = time.monotonic()
            if not (item or shell.drew or now - read_at >= MODEL_EVERY_S):
                continue                                # nothing new on screen: an idle frame stays idle
            read_at = now
            text = json.dumps(screen_model(shell), sort_keys=True, default=str)
            if text != last or "shot" in item:
                last = text
                print(text, file=out, flush=True)
    finally:
        shell.close_bridge()
    return 0


def screen_model(shell: NetShell) -> dict[str, Any]:
    """What the window shows now, as plain values."""
    buttons = [[b.text, b.rect.centerx, b.rect.centery, bool(b.is_enabled)]
               for b in shell.manager.get_sprite_group().sprites()
               if isinstance(b, UIButton) and b.visible and b.alive()]
    model: dict[str, Any] = {"buttons": sorted(buttons), "events": [type(e).__name__ for e in shell.seen if type(e).__name__ != "PeersChanged"][-40:]}
    screen = shell.screen
    if isinstance(screen, HomeScreen):
        model["screen"] = "home"
    elif isinstance(screen, LobbyScreen):
        model["screen"] = "lobby"
        model["lobby"] = {
            "peers": [[p.name, p.fingerprint, p.state, p.hosting] for p in screen.peers],
            "me": None if screen.me is None else [screen.me.name, screen.me.fingerprint, list(screen.me.addresses),
                                                 screen.me.port],
            "code": None if screen.code is None else [screen.code.code, screen.code.peer_name],
            "dialog": screen.dialog_kind, "message": screen.message.text,
            "dialog_text": screen.dialog_text.html_text if screen.dialog_text else "",
            "address": _centre(screen.address), "paired": [p.fingerprint for p in screen.paired]}
    elif isinstance(screen, SetupScreen):
        s = screen.setup
        model["screen"] = "setup"
        model["setup"] = {
            "toss": None if screen.toss is None else [screen.toss.mine, screen.toss.toss_winner],
            "answers": [[list(map(list, a.changes)), a.accepted, a.by] for a in screen.answers],
            "ready": bool(s and s.ready), "requests": screen.requests.html_text, "agreed": screen.agreed.html_text,
            "dialog_text": screen.dialog_text.html_text if screen.dialog_text else "",
            "colour": screen.colour_label.text, "value": _centre(screen.value)
            if isinstance(screen.value, UITextEntryLine) else None,
            "value_text": screen.value.get_text() if isinstance(screen.value, UITextEntryLine) else None,
            "message": screen.message.text}
    scene = shell.driver.scene
    session = shell.net_session
    if screen is None and isinstance(scene, NetGameScene) and session is not None:
        model["screen"] = "game"
        v = scene.view
        moves = _moves(scene.actions, v.player)
        model["game"] = {
            "colour": session.colour, "ply": v.ply, "to_move": v.side_to_move, "result": v.result,
            "banner": scene.banner, "status": scene.status, "last_words": scene.last_words,
            "last": session.last[0] if session.last else None, "last_cells": [list(c) for c in scene.last_cells],
            "moves": moves, "can_end": any(isinstance(a, EndTurn) for a in scene.actions),
            "end": list(end_button().center), "turn_actions": len(v.turn.actions) if v.turn else 0,
            "selection": list(scene.selection) if scene.selection else None,
            "turns": len(session.turns), "view_key": view_key(v), "lost": session.lost,
            "sent": session.sent, "undo_asked": shell.question == "undo", "question": shell.question,
            "over": None if session.over is None else [session.over.result, session.over.reason,
                                                       session.over.state_hash],
            "audit": scene.audit, "audit_passed": None if session.audit is None else session.audit.passed,
            "title": scene._title()}
    if screen is None and isinstance(scene, GameScene) and not isinstance(scene, NetGameScene) \
            and isinstance(shell.session, Session):
        local = shell.session
        v = scene.view
        model["screen"] = "local"
        model["local"] = {
            "ply": local.state.ply, "to_move": local.state.side_to_move,
            "computer": local.computer, "thinking": local.thinking, "status": scene.status,
            "history": len(local.state.history), "moves": _moves(scene.actions, v.player),
            "words": shell.driver.prefs["words"],
            "inputs_while_thinking": shell.inputs_while_thinking}
    model["notice"] = shell.notice.text_block.html_text if shell.notice is not None and shell.notice.alive() else ""
    return model


def _moves(actions: Any, player: str) -> list[list[Any]]:
    """The Moves one click on a piece and one on a square make: notation, both centres."""
    moves = []
    for a in actions:
        if isinstance(a, Move):
            src, dst = choices.source_cell(a), choices.target_cell(a)
            if choices.actions_to(choices.actions_from(actions, src, False), dst) == [a]:
                moves.append([format_action(a), list(cell_rect(*src, player).center),
                              list(cell_rect(*dst, player).center)])
    return moves


def _centre(element: Any) -> list[int] | None:
    return None if element is None else [element.rect.centerx, element.rect.centery]
