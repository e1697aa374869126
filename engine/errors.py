"""Errors the engine raises for bad input; each names the rule or limit broken."""
from __future__ import annotations


class RuleError(ValueError):
    """An action that the rules do not allow; ``rule`` is the rule id it broke (e.g. ``03/M0.10``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class GameOverError(RuleError):
    """No action is allowed once the game has ended (RUL-2)."""


class SaveError(ValueError):
    """A save or position file that cannot be read; the message names the file and the place."""
