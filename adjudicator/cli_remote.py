"""`arbitro remote`: the CLI as a client of `arbitro serve` (docs/http-api.md), for a seat or an umpire who holds
only a token, not the database. Each command makes the HTTP calls its local namesake makes library calls, and
renders the answer with the local command's renderer (cli_tables, cli_play), so the two read the same; a server's
error is shown as the local CLI shows that error, with the exit status of its kind (errors.exit_status).
Loaded lazily by cli.py (cli.LAZY_COMMANDS): httpx is imported only when a remote command runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

import functools

import click
import httpx
import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.cli_audit import exported, registered_text
from arbitro.adjudicator.cli_common import CONTEXT, handle_errors, json_option, out, printable, read_json_arg
from arbitro.adjudicator.cli_play import END_WORD, end_of, signed, submit_text
from arbitro.adjudicator.cli_tables import (
    clock_line, data_records, filter_commands, legal_text, log_text, logged, status_text, view_text,
)
from arbitro.adjudicator.errors import ArbitroError, BadInput, ChainBroken, exit_status
from arbitro.adjudicator.results import Status, SubmitResult
from arbitro.events.store import StoreError

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
LISTED = list[dict[str, Any]]  # the shape of /legal's, /events' and /notes' answers
UNREACHABLE_EXIT = 4  # its own status: neither the game's answer (1-3) nor a usage error (click's 2)
TIMEOUT = 60.0


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


def exit_for(code: str, http: int) -> int:
    """The local CLI's exit status for the error the server named by CODE (its class's own, through the one
    mapping, errors.exit_status); an unknown code (a newer server's) by its HTTP status's family."""
    for kind in (ArbitroError, StoreError, ChainBroken, *_error_kinds(ArbitroError), *_error_kinds(StoreError),
                 *_error_kinds(ChainBroken)):
        if vars(kind).get("code") == code:
            return exit_status(kind.__new__(kind))  # the class decides; its instance's words are not needed
    return 3 if http == 404 else 1 if http in (403, 409, 422) else 2


class Remote:
    """One server and the token that speaks to it (sent only as the Authorization header, never printed)."""

    def __init__(self, server: str, token: str) -> None:
        if not (token.isascii() and token.isprintable()) or " " in token:  # else httpx's refusal quotes the header
            raise BadInput("the token (--token or $ARBITRO_TOKEN) holds a space, a line end or a character no token "
                           "has (a token file saved with Windows line ends?): give it exactly as it was printed")
        self.server = server.rstrip("/")
        self.client = httpx.Client(base_url=self.server, headers={"Authorization": f"Bearer {token}"},
                                   timeout=TIMEOUT)

    def call(self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None) -> httpx.Response:
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self.client.request(method, path, params=query, json=body)
        except httpx.HTTPError as error:  # the URL and why, never the token
            raise Unreachable(f"cannot reach the arbitro server at {self.server}: {describe(error)}") from None
        if response.is_redirect:  # not followed: the token is sent to --server alone, never where a 30x points
            raise Unreachable(f"{self.server}{path} answered HTTP {response.status_code}, a redirect to "
                              f"{response.headers.get('Location', '(nowhere)')}, not followed (the token goes to "
                              "--server alone): give the server's own address as --server")
        if response.status_code >= 400:
            raise self.refused(response)
        if not response.is_success:  # 1xx/204-like answers none of arbitro's routes gives
            raise Unreachable(f"{self.server}{path} answered HTTP {response.status_code} (is it an arbitro server?)")
        return response

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
        try:
            return msgspec.convert(answer, shape)
        except msgspec.ValidationError as error:
            raise Unreachable(f"{self.server}{path} answered what is not arbitro's answer ({error}; is it an arbitro "
                              "server of this version?)") from None

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

    def refused(self, response: httpx.Response) -> ArbitroError:
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if not isinstance(payload, dict) or not isinstance(payload.get("error"), str) \
                or not isinstance(payload.get("message", ""), str):
            return Unreachable(f"{self.server} answered HTTP {response.status_code} without arbitro's error body "
                               f"(is it an arbitro server?)")
        if response.status_code in (401, 403) and str(payload["error"]).startswith("auth/"):
            payload = {**payload, "message": f"the token was refused by {self.server}: {payload.get('message', '')}"}
        return Answered(payload, exit_for(str(payload["error"]), response.status_code))


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


@click.group(context_settings=CONTEXT)
def remote() -> None:
    """Play a game served by `arbitro serve` from the command line, holding only a token: each command reads and
    prints as its local namesake does. Give the server and the token with --server and --token, or in
    $ARBITRO_SERVER and $ARBITRO_TOKEN (keep the token out of your shell history). A server that cannot be
    reached exits with status 4.

    \b
    Example:
        export ARBITRO_SERVER=http://arbitro.example:8000 ARBITRO_TOKEN=...
        arbitro remote status marengo-1a2b
    """


@remote.command()
@click.argument("game")
@click.option("--provisional", "list_provisional", is_flag=True, help="List every provisional data item.")
@remote_options
@json_option
@handle_errors
@answers_read
def status(game: str, list_provisional: bool, server: str, token: str, as_json: bool) -> None:
    """Show a served game's status as your token's seat reads it (`arbitro status`; the server's status is
    always the token's own: no --as).

    \b
    Example:
        arbitro remote status marengo-1a2b --server http://localhost:8000
    """
    api = Remote(server, token)
    answer = api.json("GET", game_path(game), shape=Status)
    out(answer, as_json, lambda s: status_text(
        s, clock_line(api.json("GET", game_path(game, "/view"))["state"]), list_provisional))


@remote.command()
@click.argument("game")
@as_option
@remote_options
@json_option
@handle_errors
@answers_read
def view(game: str, seat: str | None, server: str, token: str, as_json: bool) -> None:
    """Show the game as your token's seat may see it, with its notes (`arbitro view`).

    \b
    Example:
        arbitro remote view marengo-1a2b --json
    """
    api = Remote(server, token)
    shown = api.json("GET", game_path(game, "/view"), {"seat": seat})
    if as_json:
        return out(shown, True)
    answer = api.json("GET", game_path(game), shape=Status)
    click.echo(view_text(shown, data_records(tuple(registry.get(answer.ruleset).data_files())), answer.awaiting))


@remote.command()
@click.argument("game")
@as_option
@click.option("--unit", help="Only the commands giving this piece an order (the server's `piece`).")
@click.option("--type", "types", multiple=True, metavar="TYPE", help="Only commands of this type (repeatable).")
@remote_options
@json_option
@handle_errors
@answers_read
def legal(game: str, seat: str | None, unit: str | None, types: tuple[str, ...], server: str, token: str,
          as_json: bool) -> None:
    """List the commands your token's seat may send now, grouped by type (`arbitro legal`).

    \b
    Example:
        arbitro remote legal caldiero-1a2b --type move --unit fr-32-demi
    """
    api = Remote(server, token)
    commands = filter_commands(api.json("GET", game_path(game, "/legal"), {"seat": seat, "piece": unit}, shape=LISTED),
                               types, None)
    out(commands, as_json, lambda cs: legal_text(cs, seat or str(
        api.json("GET", game_path(game, "/view"), {"seat": seat}).get("seat", "this seat"))))


@remote.command()
@click.argument("game")
@click.argument("command", required=False)
@click.option("--file", "file", type=click.Path(dir_okay=False), help="Read the command from a JSON file.")
@click.option("--expect", "expected_seq", type=int,
              help="Refuse unless the game's head is this, as `arbitro remote status` gives it.")
@click.option("--key", help="Idempotency key: the same command retried with it is not applied twice.")
@click.option("--sign", "key_file", type=click.Path(dir_okay=False), metavar="KEYFILE",
              help="Sign the command with your private key (from `arbitro keygen`), required once your seat "
                   "registered its key; the key file stays here, only the signature is sent.")
@remote_options
@json_option
@handle_errors
@answers_read
def submit(game: str, command: str | None, file: str | None, expected_seq: int | None, key: str | None,
           key_file: str | None, server: str, token: str, as_json: bool) -> None:
    """Submit COMMAND as your token's seat; print the events it caused as you may see them, and the receipt
    (`arbitro submit`; a signed command or a mailed file: `arbitro submit --offline`, then the server's /mail).
    COMMAND `end`: the one command that ends your step now, in any ruleset.

    \b
    Example:
        arbitro remote submit marengo-1a2b '{"type": "end_turn"}' --expect 41 --key turn7
        arbitro remote submit caldiero-1a2b end
        arbitro remote submit marengo-1a2b '{"type": "end_turn"}' --sign austria.key
    """
    api = Remote(server, token)
    seat = None  # the token's seat, as the server's view names it: asked once, by `end` or --sign
    if command == END_WORD:  # the one command that ends this seat's step now, as locally
        listed = api.json("GET", game_path(game, "/legal"), shape=LISTED)
        seat = token_seat(api, game)
        raw = end_of(listed, game, seat)
    else:
        raw = read_json_arg(command, file, "command")
    signature = None
    if key_file is not None:
        seat = seat or token_seat(api, game)
        expected_seq = api.json("GET", game_path(game), shape=Status).head if expected_seq is None else expected_seq
        key, signature = signed(game, seat, raw, expected_seq, key, key_file)
    answer = api.json("POST", game_path(game, "/commands"), shape=SubmitResult,
                      body={"command": raw, "expected_seq": expected_seq, "key": key, "signature": signature})
    out(answer, as_json, submit_text)


def token_seat(api: Remote, game: str) -> str:
    """The seat the token speaks for in GAME, as the server's view of it names it."""
    return str(api.json("GET", game_path(game, "/view")).get("seat"))


@remote.command(name="register-key")
@click.argument("game")
@click.argument("public_key")
@remote_options
@json_option
@handle_errors
@answers_read
def register_key(game: str, public_key: str, server: str, token: str, as_json: bool) -> None:
    """Register your seat's public key (from `arbitro keygen`): from then on the server accepts your commands only
    signed with its private half (`arbitro remote submit --sign KEYFILE`), arbitro §L.6.

    \b
    Example:
        arbitro remote register-key marengo-1a2b 3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29
    """
    result = Remote(server, token).json("POST", game_path(game, "/keys"), body={"public_key": public_key})
    out(result, as_json, registered_text)


@remote.command()
@click.argument("game")
@as_option
@click.option("--from", "first", type=int, help="The first event (a seat: the first command) to show.")
@click.option("--to", "last", type=int)
@click.option("--chain", is_flag=True, help="Also print each event's chain fields; --json always has them.")
@remote_options
@json_option
@handle_errors
@answers_read
def log(game: str, seat: str | None, first: int | None, last: int | None, chain: bool, server: str, token: str,
        as_json: bool) -> None:
    """Show the events as your token's seat may see them, each in full, with the notes it may read beneath the
    event they annotate and each event an undo voided marked so (`arbitro log`).

    \b
    Example:
        arbitro remote log marengo-1a2b --from 100 --to 140
    """
    api = Remote(server, token)
    # to the head: an undo after the range may void events in it
    to_head = api.json("GET", game_path(game, "/events"), {"seat": seat, "from": first}, shape=LISTED)
    events = logged(to_head, last, api.json("GET", game_path(game, "/notes"), {"seat": seat}, shape=LISTED))
    out(events, as_json, lambda es: log_text(game, es, chain))


@remote.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file (default: stdout).")
@click.option("--with-seed", is_flag=True, help="The umpire's token only: include the unrevealed seed.")
@remote_options
@json_option
@handle_errors
@answers_read
def export(game: str, output: str | None, with_seed: bool, server: str, token: str, as_json: bool) -> None:
    """Export the game as JSON Lines as your token's seat may see it (`arbitro export`); with --json, -o's
    answer is {"file", "records"}.

    \b
    Example:
        arbitro remote export marengo-1a2b -o mine.jsonl
    """
    exported(Remote(server, token).export(game_path(game, "/export"), {"with_seed": with_seed or None}), output, as_json)
