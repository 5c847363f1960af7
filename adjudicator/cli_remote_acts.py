"""`arbitro remote`'s acting commands beside `submit`: the entropy round, undo and the answer to another seat's undo,
notes, and the umpire's fork and amendment (which print the new game's tokens, the one place a token is printed).
Each renders its answer with its local namesake's renderer (cli_tables, cli_dice, cli_disputes)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import msgspec

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_common import (
    CONTEXT, fork_options, handle_errors, json_option, note_at_option, out, read_json_arg, undo_options,
)
from arbitro.adjudicator.cli_audit import invite_seats_option, invited_text
from arbitro.adjudicator.cli_dice import (
    REFUSED, entropy_answer, entropy_file, entropy_text, kept_entropy, reveal_options, revealed, revealed_text,
)
from arbitro.adjudicator.cli_disputes import amend_options, amended_text
from arbitro.adjudicator.cli_play import submit_text
from arbitro.adjudicator.cli_remote_client import (
    LISTED, UNREACHABLE_EXIT, Answered, Remote, Unreachable, answers_read, error_kind, game_path, remote_options,
    shaped, token_seat,
)
from arbitro.adjudicator.cli_tables import annotated_text, tokens_text, undone_text
from arbitro.adjudicator.errors import ArbitroError, BadInput
from arbitro.adjudicator.results import Revealed, Status, SubmitResult
from arbitro.events.store import Annotation


class Made(msgspec.Struct):
    """A game the server made (a fork) or whose tokens it made anew (an invitation), with the tokens: printed by
    cli_tables.token_lines, as an amendment's fork's are."""

    game: str
    tokens: dict[str, str]


class MaybeRecorded(ArbitroError):
    """The entropy was sent and no answer came back (or not arbitro's), or the server's error was not a refusal (a
    store's failure may follow the append: rev-q's Q8): it may be recorded, so its file is kept. Not an Unreachable
    nor an Answered, which delete the file made for it. `answered`: the server's error, whose code and exit status
    it keeps."""

    code = Unreachable.code
    exit_status = UNREACHABLE_EXIT

    def __init__(self, message: str, answered: Answered | None = None) -> None:
        super().__init__(message)
        if answered is not None:
            self.code, self.exit_status = answered.code, answered.exit_status


def nothing_appended(answer: Answered) -> bool:
    """Whether the server's error is a refusal, after which nothing was appended (the kinds the local `arbitro
    entropy` deletes its file for, cli_dice.REFUSED); a store's failure, or a code this client does not know, may
    have followed the append."""
    kind = error_kind(answer.code)
    return kind is not None and issubclass(kind, REFUSED)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@click.option("--file", "path", type=click.Path(dir_okay=False),
              help="Where you keep your entropy between commit and reveal (default: GAME.SEAT.entropy, here).")
@remote_options
@json_option
@handle_errors
@answers_read
def entropy(game: str, path: str | None, server: str, token: str, as_json: bool) -> None:
    """Answer the game's entropy round as your token's seat (arbitro §R.2), as `arbitro entropy` does: the first
    call draws 128 random bits, keeps them in FILE on this machine (readable by you alone) and sends only their
    SHA-256; once every seat has committed, the same call sends the entropy itself. With FILE already there, its
    text is the entropy (make your own). A refusal deletes the file it made; a server that could not be reached
    leaves it (the commitment may have been recorded: call again).

    \b
    Example:
        arbitro remote entropy marengo-1a2b
        arbitro remote entropy marengo-1a2b        (again, once every seat has committed)
    """
    api = Remote(server, token, as_json=as_json)
    seat = token_seat(api, game)
    keep = Path(path or entropy_file(game, seat))
    with kept_entropy(keep, (Answered, BadInput, Unreachable)) as (text, made):  # nothing recorded: the file goes
        answer = entropy_answer(api.json("GET", game_path(game, "/legal"), shape=LISTED),
                                lambda: api.json("GET", game_path(game), shape=Status).head, game, seat, text, made,
                                keep, f"(`arbitro remote status {game}` says whom it awaits): the other seats' "
                                "commitments come first, or the round is past")
        body = ({"entropy": answer["entropy"]} if answer["type"] == "reveal_entropy"
                else {"commitment": answer["commitment"]})
        try:
            result = api.json("POST", game_path(game, "/entropy"), body=body, shape=SubmitResult)
        except Unreachable as lost:  # sent: it may have been recorded, and its entropy must then be kept
            raise MaybeRecorded(f"{lost}; the answer may have been recorded: the entropy stays in {keep}, and "
                                "`arbitro remote entropy` again sends the same") from None
        except Answered as answer:
            if nothing_appended(answer):
                raise
            raise MaybeRecorded(f"{answer}; the answer may have been recorded: the entropy stays in {keep}, and "
                                "`arbitro remote entropy` again sends the same", answer) from None
    out(result, as_json, entropy_text(keep))


@click.command(context_settings=CONTEXT)
@click.argument("game")
@undo_options
@remote_options
@json_option
@handle_errors
@answers_read
def undo(game: str, to: int, reason: str, server: str, token: str, as_json: bool) -> None:
    """Take back everything after TO, as `arbitro undo` (arbitro §U): free for your own commands until dice, a
    reveal or another seat; beyond that the other seats are asked (`arbitro remote consent`), or the umpire rules.

    \b
    Example:
        arbitro remote undo marengo-1a2b --to 14
        arbitro remote undo marengo-1a2b --to 120 --reason "the wrong unit was moved"   # the umpire's token
    """
    api = Remote(server, token, as_json=as_json)
    answer = api.json("POST", game_path(game, "/undo"), body={"to": to, "reason": reason}, shape=SubmitResult)
    out(answer, as_json, undone_text)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@click.option("--accept/--refuse", "accept", default=None,
              help="Agree to another seat's pending undo request, or refuse it (arbitro §U.2).")
@remote_options
@json_option
@handle_errors
@answers_read
def consent(game: str, accept: bool | None, server: str, token: str, as_json: bool) -> None:
    """Answer another seat's request to take back (arbitro §U.2): --accept or --refuse; as `arbitro submit GAME
    '{"type": "consent", "accept": true}'` does locally, and printed so.

    \b
    Example:
        arbitro remote consent marengo-1a2b --accept
    """
    if accept is None:
        raise BadInput("say --accept or --refuse: the answer to the other seat's undo request (arbitro §U.2)")
    api = Remote(server, token, as_json=as_json)
    answer = api.json("POST", game_path(game, "/consent"), body={"accept": accept}, shape=SubmitResult)
    out(answer, as_json, submit_text)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@click.argument("text")
@note_at_option
@click.option("--private", is_flag=True, help="Only your seat will see it.")
@remote_options
@json_option
@handle_errors
@answers_read
def annotate(game: str, text: str, at: int, private: bool, server: str, token: str, as_json: bool) -> None:
    """Attach a note to your command AT (the umpire: event AT); it never changes the game (`arbitro annotate`).

    \b
    Example:
        arbitro remote annotate marengo-1a2b --at 19 "my reserve waits here" --private
    """
    api = Remote(server, token, as_json=as_json)
    answer = api.json("POST", game_path(game, "/notes"), body={"at": at, "text": text, "private": private},
                      shape=Annotation)
    out(answer, as_json, annotated_text)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@fork_options
@remote_options
@json_option
@handle_errors
@answers_read
def fork(game: str, at: int, keep_dice: bool, new_id: str | None, server: str, token: str, as_json: bool) -> None:
    """The umpire's fork (arbitro §R.3), as `arbitro fork`: a new game from event AT of GAME. Prints the new game's
    id, then its tokens, one line a role (`role: token`), made for it by the server and shown this once: hand
    each seat its own.

    \b
    Example:
        arbitro remote fork marengo-1a2b --at 120 --json
    """
    api = Remote(server, token, as_json=as_json)
    made = api.json("POST", game_path(game, "/fork"), body={"at": at, "keep_dice": keep_dice, "id": new_id}, shape=Made)
    out(made, as_json, lambda m: tokens_text(m.game, m.tokens))


@click.command(context_settings=CONTEXT)
@click.argument("game")
@amend_options
@remote_options
@json_option
@handle_errors
@answers_read
def amend(game: str, command: str | None, at: int, file: str | None, dispute_number: int | None, reason: str,
          new_id: str | None, server: str, token: str, as_json: bool) -> None:
    """The umpire's amendment of a transcription (arbitro §D.5), as `arbitro amend`, then the amended game's
    tokens, one line a role, shown this once (--json: `tokens`). Exit 1 when a later command is refused.

    \b
    Example:
        arbitro remote amend caldiero-9f8e --at 13 '{"type": "activate", "formation": "massena"}'
    """
    raw = read_json_arg(command, file, "replacement command")
    api = Remote(server, token, as_json=as_json)
    answer = api.json("POST", game_path(game, "/amend"), body={
        "at": at, "command": raw, "dispute": dispute_number, "reason": reason, "id": new_id})
    where = f"{server.rstrip('/')}{game_path(game, '/amend')}"
    amended = shaped({k: v for k, v in answer.items() if k != "tokens"}, settling.Amendment, where)
    tokens = shaped(answer.get("tokens"), dict[str, str], where)
    out(answer, as_json, lambda _: amended_text(amended, tokens))
    if amended.refused is not None:
        sys.exit(1)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@reveal_options
@remote_options
@json_option
@handle_errors
@answers_read
def reveal(game: str, reason: str, expose_hidden: bool, server: str, token: str, as_json: bool) -> None:
    """The umpire reveals the game's dice seed, as `arbitro reveal` (read its --help first): it ENDS THE DICE IN
    GAME (play goes on in a fork: `arbitro remote fork`) and shows every seat every roll and draw so far, hidden
    ones included (arbitro §R.3). Refused unless --expose-hidden.

    \b
    Example:
        arbitro remote reveal marengo-1a2b --reason "dispute over turn 7" --expose-hidden
    """
    api = Remote(server, token, as_json=as_json)
    result = api.json("POST", game_path(game, "/reveal"), body={"reason": reason, "expose_hidden": expose_hidden},
                      shape=Revealed)
    out(revealed(result, game, "arbitro remote fork"), as_json, lambda r: revealed_text(result, game, r))


@click.command(context_settings=CONTEXT)
@click.argument("game")
@invite_seats_option
@remote_options
@json_option
@handle_errors
@answers_read
def invite(game: str, seats: tuple[str, ...], server: str, token: str, as_json: bool) -> None:
    """New tokens for GAME's seats and umpire (the umpire's token), as `arbitro invite`: each replaces that role's
    old token, which stops working at once (a leaked token's remedy; its open streams end too); without --seat
    the umpire's own too, so use the new one from then on. Printed this once.

    \b
    Example:
        arbitro remote invite marengo-1a2b --seat france
    """
    api = Remote(server, token, as_json=as_json)
    made = api.json("POST", game_path(game, "/invite"), body={"seats": list(seats) or None}, shape=Made)
    out(made, as_json, lambda m: invited_text(msgspec.to_builtins(m)))


ACTING_COMMANDS = (entropy, undo, consent, annotate, fork, amend, reveal, invite)
