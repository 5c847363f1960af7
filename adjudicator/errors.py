"""The error tree. Every error has a stable machine-readable `code` and the CLI exit status it maps to:
1 rejected by the rules (or failed verification), 2 bad input or usage, 3 not found. Status 2 is every BadInput's
and click's usage error's too (`arbitro new x --no-such-flag`): the `code` (e.g. `input/bad-position`), not the
status, tells a bad position file from a mistyped command line (rev-j R-j-6): a usage error carries none (click prints
its own `Usage:`/`Error:` lines, no JSON even under --json). The mapping of every error
the library raises (its own, the store's, a broken chain) to its JSON payload, exit status and HTTP status is
here too, at the end: the CLI and the HTTP server share it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbitro.events.store import (
    BrokenChain, CorruptStore, DuplicateKey, GameExists, GameNotFound, NoDatabase, ReadOnlyStore, StaleSequence,
    StoreError,
)
from arbitro.projections.fold import ChainBroken


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


class FileUnusable(BadFile):
    """A file named on the command line that is there but cannot be read (a directory, a pipe where a file is read
    twice, no permission) or cannot be written (its folder missing, no permission): its name and the system's reason,
    never a traceback (rev-q, nineteenth session)."""

    code = "input/file-unusable"


def unusable(path: object, e: OSError, doing: str) -> FileUnusable:
    """`path` refused for the OSError `e` met while `doing` it ("read", "written"), in the system's words."""
    return FileUnusable(f"{path}: cannot be {doing} ({e.strerror or e})")


def too_deep(where: str) -> BadFile:
    """JSON nested deeper than its decoder goes (a RecursionError, not a decode error: every JSON reader of what
    someone hands arbitro catches both), refused in one wording (rev-q: it was a traceback, or HTTP 500)."""
    return BadFile(f"{where}: JSON nested too deeply to read (arrays or objects within each other about a thousand "
                   "times or more); no command, record or data file is that deep")


def too_long_number(where: str) -> BadFile:
    """JSON holding an integer of more digits than Python converts (4,300: json.loads' ValueError, which is no
    JSONDecodeError), refused in words for the sender, not Python's advice to a programmer (rev-q)."""
    return BadFile(f"{where}: a number in it is too long to read (over 4,300 digits)")


class JsonUnreadable(Exception):
    """Why JSON someone hands arbitro could not be read (`read_outside_json`), for each reader to word in its own
    error type: `kind` is NOT_JSON (a decode error: the decoder's `msg` at `line`, `column`), TOO_DEEP or
    TOO_LONG. Neither a ValueError nor an ArbitroError: a reader wraps it, never lets it through."""

    NOT_JSON, TOO_DEEP, TOO_LONG = "not-json", "too-deep", "too-long"

    def __init__(self, kind: str, msg: str = "", line: int = 0, column: int = 0) -> None:
        super().__init__(kind)
        self.kind, self.msg, self.line, self.column = kind, msg, line, column

    def bad_file(self, where: str, not_json: str) -> BadFile:
        """As a BadFile naming `where` (a command, a mailed file), a decode error worded "{where} {not_json}: ..."."""
        if self.kind == self.TOO_DEEP:
            return too_deep(where)
        if self.kind == self.TOO_LONG:
            return too_long_number(where)
        return BadFile(f"{where} {not_json}: {self.msg} at line {self.line} column {self.column}")


def read_outside_json(text: str) -> Any:
    """`text` decoded as JSON (json.loads), its three failures one JsonUnreadable: every reader of JSON someone hands
    arbitro (a command, a mailed file, a data file) catches the same three, RecursionError and an overlong integer
    being no JSONDecodeError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonUnreadable(JsonUnreadable.NOT_JSON, e.msg, e.lineno, e.colno) from None
    except RecursionError:
        raise JsonUnreadable(JsonUnreadable.TOO_DEEP) from None
    except ValueError:  # after JSONDecodeError, which is one: json.loads' other ValueError is an overlong integer
        raise JsonUnreadable(JsonUnreadable.TOO_LONG) from None


def not_utf8_text(e: UnicodeDecodeError, fix: str = "save it as UTF-8") -> str:
    """The one wording for bytes that are not UTF-8: the byte and where it is, and what to do, rather than the
    codec's words (rev-o O6); a data file's problem (datafiles.read_text) says it without the file's name."""
    return f"not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start}); {fix}"


def not_utf8(where: str, e: UnicodeDecodeError, fix: str = "save it as UTF-8") -> BadFile:
    """A file (or a line of one, or a request body: `where`) whose bytes are not UTF-8, refused in those words."""
    return BadFile(f"{where}: {not_utf8_text(e, fix)}")


def read_utf8(path: Path, refused: Callable[[OSError | UnicodeDecodeError], Exception]) -> str:
    """The text of a file someone hands arbitro (a data file: datafiles.read_text; a file named on the command line:
    cli_common.read_text), its bytes decoded as UTF-8: one reader, each caller keeping its own error type, which
    `refused` makes of a file missing or unreadable or not UTF-8 (returning the error itself lets it through)."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise refused(e) from None


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


class NoSuchEvent(NotFound):
    """A position asked for after an event the game does not have (yet)."""

    code = "lookup/no-such-event"


def check_position(at: int, first: int, head: int, holder: str, unit: str = "event", then: str | None = None) -> None:
    """Refuse `at` unless `holder` (a game, a seat's copy) has it among its `unit`s #`first` to #`head`: a number
    naming an event (or command) the game does not have is one refusal at every door that takes one, NoSuchEvent
    (HTTP 404, exit 3: docs/http-api.md, "a position after an event the game does not have"), in the words
    "HOLDER has UNITs #FIRST to #HEAD; THEN" (`then` by default "there is no #AT"; "" ends at the head)."""
    if not first <= at <= head:
        tail = f"there is no #{at}" if then is None else then
        raise NoSuchEvent(f"{holder} has {unit}s #{first} to #{head}" + (f"; {tail}" if tail else ""))


class NotDrawn(ArbitroError):
    """A ruleset that draws no map picture: the request is understood, the server cannot fulfil it (HTTP 501)."""

    code = "render/no-picture"


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


class WorkerLost(ArbitroError):
    """A process verifying part of a log (`verify --jobs`) ended without its verdict (killed, out of memory): nothing
    is said of the log; verifying it again, or in one process, does."""

    code = "verify/worker-lost"


class Declined(ArbitroError):
    """The user answered no to a confirmation: nothing was done."""

    code = "input/declined"
    exit_status = 1


class IllegalCommand(Rejected):
    code = "rules/illegal"


class RulesetDefect(Rejected):
    """The ruleset accepted a command and gave it no event (arbitro §L.8): a defect of the ruleset, not of the
    command. Its words never depend on the game's state, since whether a command causes events may hang on a hidden
    fact the submitter must not learn."""

    code = "rules/defect"


class Unsettled(Rejected):
    """A command set going more automatic steps than a game ever needs without reaching any seat's choice (the
    Para Bellum kernel's `act.settle`): refused, nothing recorded, rather than a server hanging on it."""

    code = "rules/unsettled"


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


# --- the HTTP server's boundary (issue 12): who is asking, and how much ----------------------------------------
class NotAuthenticated(ArbitroError):
    """A request without a bearer token, or with one this server never issued."""

    code = "auth/unauthenticated"


class Forbidden(ArbitroError):
    """A token that does not grant this: another game's, or a seat acting for another seat."""

    code = "auth/forbidden"


class TooLarge(BadInput):
    code = "limit/body-too-large"


class TooMany(ArbitroError):
    """A limit of the server: commands per seat per second, games made per token."""

    code = "limit/too-many"


# --- one mapping of errors, for the CLI and the HTTP server ---------------------------------------------------
#: What the CLI and the server report as an error (anything else is a bug, and surfaces as one).
REPORTED = (ArbitroError, StoreError, ChainBroken, ValueError)


def error_payload(error: Exception) -> dict[str, Any]:
    """The error as JSON: its stable `code` under "error", the message, and the citation where a rule refused."""
    if isinstance(error, ArbitroError):
        return error.to_dict()
    payload: dict[str, Any] = {"error": getattr(error, "code", "input/bad"), "message": str(error)}
    if isinstance(error, StaleSequence):  # what a client resubmits against
        payload["head"] = error.head
    return payload


def exit_status(error: Exception) -> int:
    """The CLI's exit status: 1 rejected (or a broken chain), 2 bad input, 3 not found."""
    if isinstance(error, ArbitroError):
        return error.exit_status
    if isinstance(error, (GameNotFound, NoDatabase)):
        return 3
    if isinstance(error, (ChainBroken, BrokenChain)):
        return 1
    return 2


def http_status(error: Exception) -> int:
    """The HTTP status: 400 bad input, 401 no valid token, 403 an act the caller's role may not do, 404 not
    found (an event after the head too), 409 a conflict with the log (a stale head, a used key, an id taken), 413 a
    body too large, 422 rejected by the rules, 429 a limit reached, 500 a store altered outside arbitro or a ruleset's
    defect, 501 a map
    picture of a ruleset that draws none, 503 a store that cannot be written."""
    for kinds, status in _HTTP_STATUSES:
        if isinstance(error, kinds):
            return status
    return 400


_HTTP_STATUSES: tuple[tuple[type[Exception] | tuple[type[Exception], ...], int], ...] = (
    (NotAuthenticated, 401),
    ((NotUmpire, Unsigned, Forbidden), 403),
    (TooLarge, 413),
    (TooMany, 429),
    ((StaleSequence, DuplicateKey, KeyReused, GameExists), 409),
    (RulesetDefect, 500),
    (Rejected, 422),
    ((NotFound, GameNotFound, NoDatabase), 404),
    (NotDrawn, 501),
    (ReadOnlyStore, 503),
    ((ChainBroken, CorruptStore), 500),
)
