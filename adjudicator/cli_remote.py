"""`arbitro remote`: the CLI as a client of `arbitro serve` (docs/http-api.md), for a seat or an umpire who holds
only a token, not the database. Each command makes the HTTP calls its local namesake makes library calls, and
renders the answer with the local command's renderer (cli_tables, cli_play, cli_disputes), so the two read the
same; a server's error is shown as the local CLI shows that error, with the exit status of its kind
(errors.exit_status). The reading commands are here, the acting ones in cli_remote_acts and cli_remote_disputes,
the live stream in cli_remote_follow, the client itself in cli_remote_client. Loaded lazily by cli.py
(cli.LAZY_COMMANDS): httpx is imported only when a remote command runs."""

from __future__ import annotations

import sys
from urllib.parse import quote

import click

from arbitro.adjudicator import registry
from arbitro.adjudicator.cli_audit import exported, registered_text, withdrawn_text
from arbitro.adjudicator.cli_common import (
    CONTEXT, copy_of, export_options, handle_errors, json_option, legal_filter_options, log_range_options,
    nth_option, out, provisional_option, read_json_arg, view_at_option, withdrawal_options,
)
from arbitro.adjudicator.cli_dice import explain_roll, roll_text
from arbitro.adjudicator.cli_play import END_WORD, end_of, signed, submit_text
from arbitro.adjudicator.cli_remote_acts import ACTING_COMMANDS
from arbitro.adjudicator.cli_remote_client import (
    LISTED, UNREACHABLE_EXIT, Remote, answers_read, as_option, game_path, remote_options, token_seat,
)
from arbitro.adjudicator.cli_remote_disputes import DISPUTE_COMMANDS
from arbitro.adjudicator.cli_remote_follow import follow
from arbitro.adjudicator.cli_tables import (
    clock_line, data_records, filter_commands, fork_numbered, legal_text, log_text, logged, notes_text, status_text,
    view_text,
)
from arbitro.adjudicator.results import Awaiting, Status, SubmitResult
from arbitro.events.store import Annotation
from arbitro.projections.base import UMPIRE

__all__ = ["UNREACHABLE_EXIT", "Remote", "remote"]


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
@as_option
@provisional_option
@remote_options
@json_option
@handle_errors
@answers_read
def status(game: str, seat: str | None, list_provisional: bool, server: str, token: str, as_json: bool) -> None:
    """Show a served game's status as your token's seat reads it (`arbitro status`; the umpire's token: as SEAT
    with --as, the notices SEAT may read).

    \b
    Example:
        arbitro remote status marengo-1a2b --server http://localhost:8000
        arbitro remote status caldiero-1a2b --as france
    """
    api = Remote(server, token, as_json=as_json)
    answer = api.json("GET", game_path(game), {"seat": seat}, shape=Status)
    out(answer, as_json, lambda s: status_text(
        s, clock_line(api.json("GET", game_path(game, "/clock"), {"seat": seat})), list_provisional))


@remote.command()
@click.argument("game")
@as_option
@view_at_option
@remote_options
@json_option
@handle_errors
@answers_read
def view(game: str, seat: str | None, at: int | None, server: str, token: str, as_json: bool) -> None:
    """Show the game as your token's seat may see it, with its notes (`arbitro view`); --at N: as it was after
    N (the umpire's numbers are the log's events, a seat's its commands', engine-rules §V.6).

    \b
    Example:
        arbitro remote view marengo-1a2b --json
        arbitro remote view marengo-1a2b --at 12
    """
    api = Remote(server, token, as_json=as_json)
    shown = api.json("GET", game_path(game, "/view"), {"seat": seat, "at": at})
    if as_json:
        return out(shown, True)
    ruleset = api.json("GET", game_path(game), shape=Status).ruleset
    awaiting = api.json("GET", game_path(game, "/awaiting"), {"seat": seat, "at": at}, shape=Awaiting)
    click.echo(view_text(shown, data_records(tuple(registry.get(ruleset).data_files())), awaiting))


@remote.command()
@click.argument("game")
@as_option
@remote_options
@json_option
@handle_errors
@answers_read
def notes(game: str, seat: str | None, server: str, token: str, as_json: bool) -> None:
    """List the notes your token's seat may read: the public ones and its own private ones (`arbitro notes`).
    Write one with `arbitro remote annotate`.

    \b
    Example:
        arbitro remote notes marengo-1a2b --json
    """
    api = Remote(server, token, as_json=as_json)
    found = api.json("GET", game_path(game, "/notes"), {"seat": seat}, shape=list[Annotation])
    out(found, as_json, lambda ns: notes_text(ns, game, seat or (token_seat(api, game) if not ns else "")))


@remote.command()
@click.argument("game")
@as_option
@legal_filter_options
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
    api = Remote(server, token, as_json=as_json)
    commands = filter_commands(api.json("GET", game_path(game, "/legal"), {"seat": seat, "piece": unit}, shape=LISTED),
                               types, None)
    out(commands, as_json, lambda cs: legal_text(cs, seat or token_seat(api, game), f"arbitro remote entropy {game}"))


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
    api = Remote(server, token, as_json=as_json)
    seat = None  # the token's seat (GET /games/{id}/seat): asked once, by `end` or --sign
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
    api = Remote(server, token, as_json=as_json)
    result = api.json("POST", game_path(game, "/keys"), body={"public_key": public_key})
    out(result, as_json, registered_text)


@remote.command(name="withdraw-key")
@click.argument("game")
@withdrawal_options
@remote_options
@json_option
@handle_errors
@answers_read
def withdraw_key(game: str, target: str, reason: str, key: str | None, server: str, token: str, as_json: bool) -> None:
    """The umpire withdraws SEAT's signing key, as `arbitro withdraw-key` (read its --help first; arbitro §L.6): the
    seat is unsigned until it registers a new key. Give a seat whose token leaked a new one first (`remote invite`).

    \b
    Example:
        arbitro remote withdraw-key marengo-1a2b --seat austria --reason "austria's token was stolen"
    """
    api = Remote(server, token, as_json=as_json)
    result = api.json("POST", game_path(game, f"/keys/{quote(target, safe='')}/withdraw"),
                      body={"reason": reason, "key": key}, shape=SubmitResult)
    out(result, as_json, withdrawn_text)


@remote.command()
@click.argument("game")
@as_option
@log_range_options
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
    api = Remote(server, token, as_json=as_json)
    # to the head: an undo after the range may void events in it
    to_head = api.json("GET", game_path(game, "/events"), {"seat": seat, "from": first}, shape=LISTED)
    events = logged(to_head, last, api.json("GET", game_path(game, "/notes"), {"seat": seat}, shape=LISTED))
    forked = fork_numbered(events, forked_from(api, game, to_head) if (seat or token_seat(api, game)) == UMPIRE
                           else None)
    out(events, as_json, lambda es: log_text(game, es, chain, forked))


def forked_from(api: Remote, game: str, to_head: LISTED) -> tuple[str, int] | None:
    """The parent GAME was forked from and the parent's event it was forked at, as the fork's genesis records them
    (its `origin`, {"fork", "at"}), read by the umpire; None for a game that is no fork."""
    genesis = to_head[:1] if to_head and to_head[0].get("seq") == 1 else \
        api.json("GET", game_path(game, "/events"), {"to": 1}, shape=LISTED)
    origin = genesis[0]["event"].get("origin") if genesis else None
    if not isinstance(origin, dict) or "fork" not in origin:
        return None
    return str(origin["fork"]), int(origin["at"])


@remote.command()
@click.argument("game")
@export_options
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


@remote.command()
@click.argument("game")
@click.argument("seq", type=int)
@nth_option
@remote_options
@json_option
@handle_errors
@answers_read
def roll(game: str, seq: int, nth: int, server: str, token: str, as_json: bool) -> None:
    """Explain a roll or draw as your token's seat was served it (`arbitro roll`): a seat's in its command SEQ,
    the umpire's at event SEQ; read from your export, fetched and checked here as `arbitro roll FILE` checks a
    file, so the derivation and, once the seed is revealed, the recomputed dice are this machine's (exit 1 if they
    differ).

    \b
    Example:
        arbitro remote roll caldiero-9f8e 12 --nth 2
    """
    api = Remote(server, token, as_json=as_json)
    copy, copied = copy_of(api.export(game_path(game, "/export"), {}), f"{api.server}{game_path(game, '/export')}")
    explained = explain_roll(copy, copied, seq, token_seat(api, game), nth)
    out(explained, as_json, roll_text)
    if explained["recomputed"].get("matches") is False:
        sys.exit(1)


for _command in (*ACTING_COMMANDS, *DISPUTE_COMMANDS, follow):
    remote.add_command(_command)
