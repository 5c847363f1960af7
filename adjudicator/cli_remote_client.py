"""The client half of `arbitro remote` (docs/http-api.md): one server and one token, the server's refusals read back as
the local CLI's errors with the exit status of their kind (errors.exit_status), its answers read in the shape they
must have (else the server is not arbitro's), and the options every remote command takes. The token is sent only
as the Authorization header: never printed, not even in a refusal."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

import click
import httpx
import msgspec

from arbitro.adjudicator.cli_common import printable, scrubbed
from arbitro.adjudicator.errors import ArbitroError, BadInput, ChainBroken, exit_status
from arbitro.events.store import StoreError

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
LISTED = list[dict[str, Any]]  # the shape of /legal's, /events' and /notes' answers
UNREACHABLE_EXIT = 4  # its own status: neither the game's answer (1-3) nor a usage error (click's 2)
TIMEOUT = 60.0
SEAT_NAME = re.compile(r"[A-Za-z0-9_-]+")  # a seat as every ruleset names it (france, red, umpire)


class Answered(ArbitroError):
    """An error the server answered: its body (code, words, rule) as it came, under the exit status of its kind."""

    def __init__(self, payload: dict[str, Any], status: int) -> None:
        rule = f" [{payload['rule']}]" if payload.get("rule") else ""  # as a Rejected reads locally
        super().__init__(printable(f"{payload.get('message', '')}{rule}"))  # a server's words, whoever wrote them
        self.payload = payload
        self.code = str(payload.get("error", "arbitro/error"))
        self.exit_status = status

    def to_dict(self) -> dict[str, Any]:
        return self.payload


class Unreachable(ArbitroError):
    """The server could not be asked (refused connection, no such host, a timeout) or answered what is not arbitro's."""

    code = "remote/unreachable"
    exit_status = UNREACHABLE_EXIT


def _error_kinds(kind: type[Exception]) -> Iterator[type[Exception]]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _error_kinds(sub)


def error_kind(code: str) -> type[Exception] | None:
    """The error class the server named by CODE, None for a code this client does not know (a newer server's)."""
    for kind in (ArbitroError, StoreError, ChainBroken, *_error_kinds(ArbitroError), *_error_kinds(StoreError),
                 *_error_kinds(ChainBroken)):
        if vars(kind).get("code") == code:
            return kind
    return None


def exit_for(code: str, http: int) -> int:
    """The local CLI's exit status for the error the server named by CODE (its class's own, through the one
    mapping, errors.exit_status); an unknown code (a newer server's) by its HTTP status's family."""
    kind = error_kind(code)
    if kind is not None:
        return exit_status(kind.__new__(kind))  # the class decides; its instance's words are not needed
    return 3 if http == 404 else 1 if http in (403, 409, 422) else 2


class Remote:
    """One server and the token that speaks to it (sent only as the Authorization header, never printed). Its answers
    are read for text (`as_json` false: every string in them made printable, cli_common.scrubbed, before a renderer
    reads it) or for --json (as they came: the JSON printed escapes a control character itself)."""

    def __init__(self, server: str, token: str, *, as_json: bool = False) -> None:
        if not (token.isascii() and token.isprintable()) or " " in token:  # else httpx's refusal quotes the header
            raise BadInput("the token (--token or $ARBITRO_TOKEN) holds a space, a line end or a character no token "
                           "has (a token file saved with Windows line ends?): give it exactly as it was printed")
        self.server = server.rstrip("/")
        self.as_json = as_json
        self.client = httpx.Client(base_url=self.server, headers={"Authorization": f"Bearer {token}"},
                                   timeout=TIMEOUT)

    def call(self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None) -> httpx.Response:
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self.client.request(method, path, params=query, json=body)
        except httpx.HTTPError as error:  # the URL and why, never the token
            raise Unreachable(f"cannot reach the arbitro server at {self.server}: {describe(error)}") from None
        self.answered(response, path)
        return response

    def answered(self, response: httpx.Response, path: str) -> None:
        """Raise unless RESPONSE is a success: a redirect (not followed), the server's refusal, or a status none of
        arbitro's routes gives."""
        if response.is_redirect:  # not followed: the token is sent to --server alone, never where a 30x points
            where = printable(response.headers.get("Location", "(nowhere)"))  # the server's words
            raise Unreachable(f"{self.server}{path} answered HTTP {response.status_code}, a redirect to {where}, not "
                              "followed (the token goes to --server alone): give the server's own address as --server")
        if response.status_code >= 400:
            raise self.refused(response)
        if not response.is_success:  # 1xx/204-like answers none of arbitro's routes gives
            raise Unreachable(f"{self.server}{path} answered HTTP {response.status_code} (is it an arbitro server?)")

    def json(self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None,
             shape: type[T] = dict[str, Any]) -> T:  # type: ignore[assignment]
        """The answer to a request, read as SHAPE (a dict by default, a list, a result's Struct): an answer of
        another shape is the server's fault, not the user's input (msgspec's ValidationError is a ValueError, which
        the CLI reports as input/bad)."""
        response = self.call(method, path, params, body)
        try:
            answer = response.json()
        except ValueError:
            raise Unreachable(f"{self.server}{path} answered what is not JSON (is it an arbitro server?)") from None
        return shaped(self.read(answer), shape, f"{self.server}{path}")

    def read(self, answer: Any) -> Any:
        """A decoded answer as the command prints it: for text, every string in it printable (a hostile server's
        words cannot command the terminal or start a line of their own); for --json, as it came."""
        return answer if self.as_json else scrubbed(answer)

    def export(self, path: str, params: dict[str, Any]) -> list[str]:
        """An export's lines (docs/exchange-format.md), which open with the game's record: anything else is not
        written to the user's file as if it were the game."""
        lines = self.call("GET", path, params).text.splitlines()
        try:
            opening = msgspec.json.decode(lines[0]) if lines else None
        except msgspec.DecodeError:
            opening = None
        if not isinstance(opening, dict) or opening.get("record") != "game":
            raise Unreachable(f"{self.server}{path} answered what is not an export: its first line is not the game's "
                              "record (is it an arbitro server?)")
        return lines

    def messages(self, path: str, params: dict[str, Any] | None = None) -> Iterator[tuple[str, str, str]]:
        """A Server-Sent Events stream's messages as they come, each (event, id, data); its keep-alive comments
        skipped. A refusal before the stream starts is the server's error, as `call` answers it."""
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            with self.client.stream("GET", path, params=query, timeout=httpx.Timeout(TIMEOUT, read=None)) as response:
                if not response.is_success:
                    response.read()  # a refusal's body, read whole before it is quoted
                self.answered(response, path)
                if not response.headers.get("content-type", "").startswith("text/event-stream"):
                    raise Unreachable(f"{self.server}{path} answered what is not an event stream (is it an arbitro "
                                      "server?)")
                yield from sse_messages(response.iter_lines())
        except httpx.HTTPError as error:
            raise Unreachable(f"lost the arbitro server at {self.server}: {describe(error)}") from None

    def refused(self, response: httpx.Response) -> ArbitroError:
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if not is_error_body(payload):
            return Unreachable(f"{self.server} answered HTTP {response.status_code} without arbitro's error body "
                               f"(is it an arbitro server?)")
        if response.status_code in (401, 403) and str(payload["error"]).startswith("auth/"):
            payload = {**payload, "message": f"the token was refused by {self.server}: {payload.get('message', '')}"}
        return Answered(payload, exit_for(str(payload["error"]), response.status_code))


def is_error_body(payload: Any) -> bool:
    """Whether PAYLOAD (a refusal's body, the live stream's "error") is arbitro's error body: a code and words, both
    strings. A code is a stable name (lookup/no-such-game), printed as it came by handle_errors ('error (CODE): '):
    one holding a control character (an ESC that would command the user's terminal) is no code of arbitro's."""
    return isinstance(payload, dict) and isinstance(payload.get("error"), str) and payload["error"].isprintable() \
        and isinstance(payload.get("message", ""), str)


def answers_read(fn: F) -> F:
    """A remote command whose renderer finds the server's answer lacking (a field missing or of another type, deep
    in a view or an event) exits as a server that is not arbitro's, not with a traceback. Below handle_errors."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (LookupError, TypeError, AttributeError) as error:
            raise Unreachable(f"{kwargs.get('server', 'the server')} answered what this client cannot read "
                              f"({type(error).__name__}: {error}; is it an arbitro server of this version?)") from None

    return wrapper  # type: ignore[return-value]


def shaped(answer: Any, shape: type[T], where: str) -> T:
    """ANSWER (from WHERE, a server's URL and path) read as SHAPE: another shape is the server's fault, not the
    user's input (msgspec's ValidationError is a ValueError, which the CLI reports as input/bad)."""
    try:
        return msgspec.convert(answer, shape)
    except msgspec.ValidationError as error:
        raise Unreachable(f"{where} answered what is not arbitro's answer ({error}; is it an arbitro server of this "
                          "version?)") from None


def sse_messages(lines: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """The messages of a text/event-stream's LINES (the WHATWG format sse-starlette writes): (event, id, data)."""
    event, event_id, data = "message", "", []
    for line in lines:
        if not line:
            if data:
                yield event, event_id, "\n".join(data)
            event, data = "message", []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "id":
            event_id = value
        elif field == "data":
            data.append(value)  # a line beginning ":" is a comment (the server's ping): no field of ours


def describe(error: httpx.HTTPError) -> str:
    """Why a request failed, in words: the connection's error, not httpx's class name alone."""
    if isinstance(error, httpx.TimeoutException):
        return f"no answer within {TIMEOUT:.0f} s"
    return str(error) or type(error).__name__


def remote_options(fn: F) -> F:
    fn = click.option("--token", envvar="ARBITRO_TOKEN", required=True, metavar="TOKEN",
                      help="Your token (a seat's or the umpire's, from `arbitro invite` or the game's creation); "
                           "default $ARBITRO_TOKEN. Never printed.")(fn)
    return click.option("--server", envvar="ARBITRO_SERVER", required=True, metavar="URL",
                        help="The server (`arbitro serve`), e.g. http://host:8000; default $ARBITRO_SERVER.")(fn)


def as_option(fn: F) -> F:
    return click.option("--as", "seat", metavar="SEAT",
                        help="Read as this seat (the umpire's token only; a seat's token reads as itself).")(fn)


def game_path(game: str, tail: str = "") -> str:
    return f"/games/{quote(game, safe='')}{tail}"  # an id with a slash names no game; it must not name a path


class Seated(msgspec.Struct):
    """GET /games/{id}/seat's answer: the role the token holds in the game."""

    game: str
    seat: str


def token_seat(api: Remote, game: str) -> str:
    """The seat the token speaks for in GAME (a seat's name, or umpire): asked of GET /games/{id}/seat, which reads
    nothing of the game (a whole seat view was computed and sent for this one name). Every ruleset's seats are plain
    names (letters, digits, '_', '-'), and one names a file here (`remote entropy`'s GAME.SEAT.entropy): a seat of
    another form is no seat of arbitro's (rev-s S4: "x/../../y" named a file outside the working directory)."""
    seat = api.json("GET", game_path(game, "/seat"), shape=Seated).seat
    if not SEAT_NAME.fullmatch(seat):
        raise Unreachable(f"{api.server}{game_path(game, '/seat')} answered a seat that is no plain name, "
                          f"{printable(repr(seat))} (is it an arbitro server?)")
    return seat
