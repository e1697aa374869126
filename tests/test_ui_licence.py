"""The licence screen (issue 9 item 6): WiFi play on an installation without a licence offers
the activation, online against a real endpoint process on 127.0.0.1 or by the offline
request/response route, then goes on to the lobby. Hotseat needs none (04/U17)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from licence_fixtures import endpoint, vendor  # noqa: F401 - fixtures used by name
from engine import api as engine_api
from net import licence_client
from net.bridge import BridgeConfig, NetBridge
from net_helpers import make_cfg
from net.licence import LicenceError
from net.machine import MACHINE_ID_ENV
from ui.licence_screen import LicenceScreen
from ui.lobby_screen import LobbyScreen
from ui.net_shell import NetShell
from ui.session import Session
from wec_p2p.cmd_window import ClientActivation


@pytest.fixture
def installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    machine = tmp_path / "machine-id"
    machine.write_text("machine-of-this-test\n")
    monkeypatch.setenv(MACHINE_ID_ENV, str(machine))
    d = tmp_path / "laptop"
    d.mkdir()
    return d


def _factory(directory: Path, public: bytes):  # type: ignore[no-untyped-def]
    """The window's bridge factory: the installation's licence is checked first (as
    ``wec_p2p.cmd_window`` does), then a real network core on 127.0.0.1."""
    def make() -> NetBridge:
        licence_client.check_installation(directory, vendor_public_key=public)   # raises LicenceError
        cfg = make_cfg(directory.parent, directory.name, engine_api)
        return NetBridge(BridgeConfig(cfg, interfaces=["127.0.0.1"]))
    return make


def press(shell: NetShell, element: object) -> None:
    pos = element.rect.center  # type: ignore[attr-defined]
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.05)
    shell.pump([], 0.05)


def type_into(shell: NetShell, field: object, text: str) -> None:
    """Click a text field, select what it holds (Ctrl+A), delete it and type ``text``."""
    press(shell, field)
    for k, mod in ((pygame.K_a, pygame.KMOD_CTRL), (pygame.K_BACKSPACE, 0)):
        shell.pump([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""),
                    pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="")], 0.05)
    shell.pump([pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text], 0.05)
    assert field.get_text() == text  # type: ignore[attr-defined]


def test_wifi_without_a_licence_offers_activation_online_then_opens_the_lobby(
        screen: pygame.Surface, installation: Path, endpoint, vendor) -> None:  # type: ignore[no-untyped-def]
    shell = NetShell(Session(api.new_game()), screen, bridge_factory=_factory(installation, vendor.public),
                     activation=ClientActivation(installation, vendor.public))
    press(shell, shell.screen.buttons["wifi"])  # type: ignore[union-attr]  # home: Play over WiFi
    lic = shell.screen
    assert isinstance(lic, LicenceScreen)
    assert "not activated" in lic.reason.html_text and lic.details.text == "details: not_activated"
    type_into(shell, lic.key, "WEC-NOT-A-REAL-KEY")
    type_into(shell, lic.endpoint, endpoint.url)
    press(shell, lic.online)
    assert isinstance(shell.screen, LicenceScreen)                    # refused: said, the screen stays
    assert shell.screen.message.text.startswith("Not done: ")
    assert not (installation / "licence.token").exists()
    type_into(shell, lic.key, endpoint.add_key(seats=1))
    press(shell, lic.online)
    assert isinstance(shell.screen, LobbyScreen)                      # activated: on to the lobby
    assert shell.bridge is not None
    shell.close_bridge()
    licence_client.check_installation(installation, vendor_public_key=vendor.public)


def test_the_offline_route_request_file_then_response_file(
        screen: pygame.Surface, installation: Path, tmp_path: Path, endpoint, vendor) -> None:  # type: ignore[no-untyped-def]
    shell = NetShell(Session(api.new_game()), screen, bridge_factory=_factory(installation, vendor.public),
                     activation=ClientActivation(installation, vendor.public))
    press(shell, shell.screen.buttons["wifi"])  # type: ignore[union-attr]  # home: Play over WiFi
    lic = shell.screen
    assert isinstance(lic, LicenceScreen)
    request, response = tmp_path / "request.json", tmp_path / "response.json"
    type_into(shell, lic.key, endpoint.add_key(seats=1))
    type_into(shell, lic.request_path, str(request))
    press(shell, lic.write)
    assert request.exists() and lic.message.text.startswith("Wrote ")
    licence_client.relay(request, response, endpoint=endpoint.url)    # on a connected machine
    type_into(shell, lic.response_path, str(response))
    press(shell, lic.read)
    assert isinstance(shell.screen, LobbyScreen)
    shell.close_bridge()
    licence_client.check_installation(installation, vendor_public_key=vendor.public)


def test_back_leaves_the_licence_screen_for_the_home_screen(
        screen: pygame.Surface, installation: Path, vendor) -> None:  # type: ignore[no-untyped-def]
    shell = NetShell(Session(api.new_game()), screen, bridge_factory=_factory(installation, vendor.public),
                     activation=ClientActivation(installation, vendor.public))
    press(shell, shell.screen.buttons["wifi"])  # type: ignore[union-attr]  # home: Play over WiFi
    assert isinstance(shell.screen, LicenceScreen)
    press(shell, shell.screen.back)
    assert type(shell.screen).__name__ == "HomeScreen"
    with pytest.raises(LicenceError):
        licence_client.check_installation(installation, vendor_public_key=vendor.public)
