"""`arbitro remote`'s dispute commands (docs/engine-rules.md §D): `dispute open|reply|rule`, `disputes`, `knowledge`,
each sending the command its local namesake builds (cli_disputes' builders) and printing with its renderer."""

from __future__ import annotations

from typing import Any

import click

from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_common import (
    CONTEXT, handle_errors, json_option, knowledge_options, open_only_option, out,
)
from arbitro.adjudicator.cli_disputes import (
    claim_command, claim_options, dispute_text, evidence, evidence_options, knowledge_text, private_option,
    reply_command, reply_options, ruling_command, ruling_options, submitted,
)
from arbitro.adjudicator.cli_remote_client import Remote, answers_read, as_option, game_path, remote_options, token_seat
from arbitro.adjudicator.report_phrases import NoteNames
from arbitro.adjudicator.results import SubmitResult
from arbitro.events.store import Annotation
from arbitro.projections.disputes import Dispute


def sent(server: str, token: str, game: str, command: dict[str, Any], as_json: bool) -> None:
    """A dispute's message sent as the token's seat, as `arbitro submit` sends any command; printed as locally."""
    api = Remote(server, token, as_json=as_json)
    answer = api.json("POST", game_path(game, "/commands"), body={"command": command}, shape=SubmitResult)
    out(answer, as_json, submitted)


@click.group(context_settings=CONTEXT)
def dispute() -> None:
    """Open, answer and rule on a dispute about events of a served game, as your token's seat (`arbitro dispute`,
    docs/engine-rules.md §D). A seat's numbers are its commands', the umpire's the log's events (§V.6).

    \b
    Example:
        arbitro remote dispute open marengo-1a2b --at 57 "the French could not see my reserve in #57"
        arbitro remote dispute rule marengo-1a2b 1 --dismiss "the move at #52 was served to france"
    """


@dispute.command(name="open")
@click.argument("game")
@click.argument("claim")
@claim_options
@private_option
@evidence_options
@remote_options
@json_option
@handle_errors
@answers_read
def open_(game: str, claim: str, about: tuple[int, ...], private: bool, notes: tuple[str, ...],
          positions: tuple[str, ...], readings: tuple[str, ...], forks: tuple[str, ...], server: str, token: str,
          as_json: bool) -> None:
    """Open a dispute about your command N (`arbitro dispute open`): CLAIM says what is wrong.

    \b
    Example:
        arbitro remote dispute open caldiero-9f8e --at 412 "that retreat crossed a river without a bridge"
    """
    sent(server, token, game, claim_command(about, claim, private, evidence(notes, positions, readings, forks)),
         as_json)


@dispute.command()
@click.argument("game")
@click.argument("number", type=int)
@click.argument("text")
@reply_options
@private_option
@evidence_options
@remote_options
@json_option
@handle_errors
@answers_read
def reply(game: str, number: int, text: str, cites: tuple[int, ...], pause: bool, private: bool,
          notes: tuple[str, ...], positions: tuple[str, ...], readings: tuple[str, ...], forks: tuple[str, ...],
          server: str, token: str, as_json: bool) -> None:
    """Answer dispute NUMBER, or add evidence to it (`arbitro dispute reply`).

    \b
    Example:
        arbitro remote dispute reply caldiero-9f8e 1 --cite 409 "the bridge at 0813 was built at #409"
    """
    command = reply_command(number, text, cites, pause, private, evidence(notes, positions, readings, forks))
    sent(server, token, game, command, as_json)


@dispute.command()
@click.argument("game")
@click.argument("number", type=int)
@click.argument("reason")
@ruling_options
@private_option
@evidence_options
@remote_options
@json_option
@handle_errors
@answers_read
def rule(game: str, number: int, reason: str, outcome: str | None, undo_to: int | None,
         interpretations: tuple[str, ...], patch: str | None, public_patch: bool, private: bool,
         notes: tuple[str, ...], positions: tuple[str, ...], readings: tuple[str, ...], forks: tuple[str, ...],
         server: str, token: str, as_json: bool) -> None:
    """The umpire's ruling on dispute NUMBER, which closes it (`arbitro dispute rule`): --uphold or --dismiss.

    \b
    Example:
        arbitro remote dispute rule caldiero-9f8e 1 --uphold --undo-to 408 "no bridge: the retreat is taken back"
    """
    command = ruling_command(number, reason, outcome, undo_to, interpretations, patch, public_patch, private,
                             (notes, positions, readings, forks))
    sent(server, token, game, command, as_json)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@as_option
@open_only_option
@remote_options
@json_option
@handle_errors
@answers_read
def disputes(game: str, seat: str | None, only_open: bool, server: str, token: str, as_json: bool) -> None:
    """List GAME's disputes as your token's seat may read them (`arbitro disputes`).

    \b
    Example:
        arbitro remote disputes caldiero-9f8e --open
    """
    api = Remote(server, token, as_json=as_json)
    found = api.json("GET", game_path(game, "/disputes"), {"seat": seat}, shape=list[Dispute])
    if only_open:
        found = [d for d in found if d.status == "open"]

    def text(ds: list[Dispute]) -> str:
        held = api.json("GET", game_path(game, "/notes"), {"seat": seat}, shape=list[Annotation])
        return dispute_text(ds, game, NoteNames(held, seat or token_seat(api, game)))

    out(found, as_json, text)


@click.command(context_settings=CONTEXT)
@click.argument("game")
@as_option
@knowledge_options
@remote_options
@json_option
@handle_errors
@answers_read
def knowledge(game: str, seat: str | None, at: int | None, about: str | None, server: str, token: str,
              as_json: bool) -> None:
    """Who knew what, when (arbitro §D.6): what your token's seat had been served up to AT (`arbitro knowledge`).

    \b
    Example:
        arbitro remote knowledge marengo-1a2b --at 141 --about b007
    """
    api = Remote(server, token, as_json=as_json)
    answer = api.json("GET", game_path(game, "/knowledge"), {"seat": seat, "at": at, "about": about},
                      shape=settling.Knowledge)
    out(answer, as_json, knowledge_text)


DISPUTE_COMMANDS = (dispute, disputes, knowledge)
