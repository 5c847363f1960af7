"""`arbitro remote follow`: a served game's events as they come (the server's live stream, Server-Sent Events,
docs/http-api.md "The live stream"), each printed as `arbitro log` prints it, and a line whenever the game waits
for the token's seat (the umpire: for anyone) or is over. Ctrl-C ends it cleanly (exit 0)."""

from __future__ import annotations

import json
from typing import Any

import click

from arbitro.adjudicator.cli_common import (
    CONTEXT, chain_option, handle_errors, json_option, json_text, record_lines, scrubbed,
)
from arbitro.adjudicator.cli_remote_client import (
    Answered, Remote, Unreachable, answers_read, as_option, exit_for, game_path, is_error_body, remote_options,
    shaped,
)
from arbitro.adjudicator.cli_tables import awaiting_line
from arbitro.adjudicator.results import Awaiting


@click.command(context_settings=CONTEXT)
@click.argument("game")
@as_option
@click.option("--from", "first", type=int,
              help="The first event (a seat: the first command) to print (default: from the start).")
@click.option("--follow/--no-follow", default=True, show_default=True,
              help="Wait for new events; --no-follow ends at the head.")
@chain_option
@remote_options
@json_option
@handle_errors
@answers_read
def follow(game: str, seat: str | None, first: int | None, follow: bool, chain: bool, server: str, token: str,
           as_json: bool) -> None:
    """Print GAME's events as your token's seat may see them, as `arbitro log` prints them, and go on printing each
    new one as it is appended, with an `awaiting:` line whenever the game waits for you (the umpire: for anyone)
    or is over. Press Ctrl-C to stop (exit 0). --json: one JSON object a line, {"event": ...} or
    {"awaiting": ...}.

    \b
    Example:
        arbitro remote follow marengo-1a2b --from 120
        arbitro remote follow marengo-1a2b --no-follow --json
    """
    path = game_path(game, "/stream")
    stream = Remote(server, token).messages(path, {"seat": seat, "from": first, "follow": str(follow).lower()})
    try:
        for kind, _, data in stream:
            click.echo(shown(kind, message(data, f"{server.rstrip('/')}{path}"), chain, as_json))
    except KeyboardInterrupt:  # the way a follow ends: no traceback, no error
        stream.close()


def message(data: str, where: str) -> dict[str, Any]:
    """A message's data, a JSON object as arbitro's stream sends it; anything else is not arbitro's server."""
    try:
        return shaped(json.loads(data), dict[str, Any], where)
    except ValueError:
        raise Unreachable(f"{where} sent a message that is not JSON (is it an arbitro server?)") from None


def shown(kind: str, payload: dict[str, Any], chain: bool, as_json: bool) -> str:
    """One message of the stream, as text or one JSON line; the stream's "error" (the game deleted, the token
    replaced meanwhile) raised as the server's error, with the exit status of its kind."""
    if kind == "error":
        if not is_error_body(payload):
            raise Unreachable("the stream sent an error without arbitro's error body (is it an arbitro server?)")
        raise Answered(payload, exit_for(payload["error"], 0))
    if not as_json:  # for text, every string the server sent made printable (Remote.read), its error judged first
        payload = scrubbed(payload)
    if kind == "awaiting":
        if as_json:
            return json_text({"awaiting": payload})
        told = shaped({k: v for k, v in payload.items() if k != "seq"}, Awaiting, "the stream")
        return f"after #{payload.get('seq')}: {awaiting_line(told)}"
    return json_text({"event": payload}) if as_json else "\n".join(record_lines(payload, chain))
