"""The error tree. Every error has a stable machine-readable `code` and the CLI exit status it maps to:
1 rejected by the rules (or failed verification), 2 bad input or usage, 3 not found."""

from __future__ import annotations

from typing import Any


class ArbitroError(Exception):
    code = "arbitro/error"
    exit_status = 2

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.code, "message": str(self)}


class BadInput(ArbitroError):
    """Malformed input: a command that does not parse, a bad file, an unknown seat."""

    code = "input/bad"
    exit_status = 2


class MalformedCommand(BadInput):
    code = "input/malformed-command"

    def __init__(self, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "problems": self.problems}


class KeyReused(BadInput):
    """A seat sent a different command under an idempotency key it already used (a key names one command)."""

    code = "input/key-reused"


class UnknownSeat(BadInput):
    code = "input/unknown-seat"


class BadPosition(BadInput):
    code = "input/bad-position"


class BadFile(BadInput):
    code = "input/bad-file"


class NotFound(ArbitroError):
    code = "lookup/not-found"
    exit_status = 3


class NoSuchFile(NotFound):
    """A file named on the command line does not exist."""

    code = "lookup/no-such-file"


class UnknownRuleset(NotFound):
    code = "lookup/unknown-ruleset"


class UnknownScenario(NotFound):
    code = "lookup/unknown-scenario"


class Rejected(ArbitroError):
    """The command is well formed but the rules (or the turn order) do not allow it. Nothing is appended."""

    code = "rules/rejected"
    exit_status = 1

    def __init__(self, message: str, *, rule: str, allowed: list[Any] | None = None) -> None:
        super().__init__(f"{message} [{rule}]")
        self.message, self.rule, self.allowed = message, rule, allowed

    def to_dict(self) -> dict[str, Any]:
        out = {"error": self.code, "rule": self.rule, "message": self.message}
        if self.allowed is not None:
            out["allowed"] = self.allowed
        return out


class Declined(ArbitroError):
    """The user answered no to a confirmation: nothing was done."""

    code = "input/declined"
    exit_status = 1


class IllegalCommand(Rejected):
    code = "rules/illegal"


class NotYourTurn(Rejected):
    code = "turn/not-your-turn"


class NotYourDecision(Rejected):
    code = "turn/not-your-decision"


class NotUmpire(Rejected):
    """An act reserved to the umpire, asked by another seat (arbitro §A.1)."""

    code = "authority/umpire-only"


class Unsigned(Rejected):
    """A command in the name of a seat that registered a key, without that seat's valid signature (arbitro §L.6)."""

    code = "authority/unsigned"


class VersionPinned(Rejected):
    """The game was made with another version of its ruleset than this build's (arbitro §L.5)."""

    code = "log/version-pinned"


class GameOver(Rejected):
    code = "turn/game-over"
