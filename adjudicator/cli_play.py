"""The command line's play command: `arbitro submit`, online (the command judged and appended now) or offline (a
mailed command file for play by e-mail, adjudicator/mail.py, submitted later by the umpire)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import click
import msgspec

from arbitro.adjudicator import mail
from arbitro.adjudicator.errors import BadInput
from arbitro.adjudicator.results import SubmitResult
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.cli_common import (
    db_option, event_lines, handle_errors, json_option, open_app, open_reader, out, read_json_arg, read_private_key,
    seat_option, write_text,
)
from arbitro.adjudicator.cli_tables import awaiting_line


@click.command()
@click.argument("game")
@click.argument("command", required=False)
@seat_option(required=False)
@click.option("--file", "file", type=click.Path(dir_okay=False),
              help="Read the command from a JSON file: a command, or a mailed command file (from --offline).")
@click.option("--expect", "expected_seq", type=int, help="Refuse unless the game's head is this, as `arbitro status` gives it: a seat's last command's number, "
              "the umpire's last event's.")
@click.option("--key", help="Idempotency key (SEAT's own): the same command retried with it gets the original "
                            "result and is not applied twice; another command under a used key is refused.")
@click.option("--for", "for_seat", metavar="SEAT",
              help="Transcribed games: the umpire (--as umpire) enters COMMAND on this seat's behalf, as played on "
                   "the table; recorded as the umpire's, served to every seat as entered for SEAT (arbitro §S.5).")
@click.option("--sign", "key_file", type=click.Path(dir_okay=False), metavar="KEYFILE",
              help="Sign the command with SEAT's private key (from `arbitro keygen`): required once SEAT registered "
                   "its key. The signature covers the game, SEAT, the head (--expect) and the key (--key).")
@click.option("--offline", is_flag=True,
              help="Play by e-mail: write the command to -o FILE as a mailed command file, against the head of your "
                   "copy of GAME (`arbitro import` of your export), for the umpire to submit; nothing is submitted.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE", help="With --offline: the file to write.")
@db_option
@json_option
@handle_errors
def submit(game: str, command: str | None, seat: str | None, file: str | None, expected_seq: int | None,
           key: str | None, for_seat: str | None, key_file: str | None, offline: bool, output: str | None, db: str,
           as_json: bool) -> None:
    """Submit a command as SEAT; print the events it caused (as SEAT may see them) and the server's receipt.
    COMMAND is the ruleset's (`arbitro legal GAME --as SEAT` lists those SEAT may send now) or one of the
    engine's own, below (docs/engine-rules.md), or the word `end`: the one command that ends SEAT's step
    now, in any ruleset (end_step, end_activation, end_turn or pass). Play by e-mail: --offline -o FILE writes the command as a
    mailed command file against the head of SEAT's copy (signed with --sign), nothing submitted; the umpire
    submits that file with --file, which takes the seat, head, key and signature from it.

    \b
    Example:
        arbitro submit marengo-1a2b --as austria '{"type": "end_turn"}'
        arbitro submit marengo-1a2b --as austria --file move.json --expect 41 --key turn7-austria
        arbitro submit marengo-1a2b --as austria '{"type": "end_turn"}' --sign austria.key
        arbitro submit marengo-1a2b --as umpire --for austria '{"type": "end_turn"}'   # transcribed games
        arbitro submit caldiero-1a2b --as france end     # `end`: this ruleset's "end this step", whatever its name
        arbitro submit marengo-1a2b --as austria --offline -o move.json '{"type": "end_turn"}' --sign austria.key
        arbitro submit marengo-1a2b --file move.json        # the umpire submits a mailed command file

    \b
    The engine's own commands (every ruleset):
      ruling (umpire, §U.4): a reason, and an interpretation and/or a state patch
        '{"type": "ruling", "reason": "errata", "interpretation": {"dr_in_fortress": "dd"}}'
        '{"type": "ruling", "reason": "misplaced", "patch": [{"op": "replace", "path": "/turn", "value": 3}]}'
      enter_random (umpire, transcribed games, §R.4): the dice or draw made on the table
        '{"type": "enter_random", "values": [3, 5]}'
      on_behalf (umpire, transcribed games, §S.5; `--for SEAT` wraps COMMAND so): a seat's command as played
        '{"type": "on_behalf", "seat": "austria", "command": {"type": "end_turn"}}'
      commit_entropy, reveal_entropy (each entropy seat, §R.2; `arbitro entropy` does both)
        '{"type": "commit_entropy", "commitment": "<sha256 hex of your entropy>"}'
        '{"type": "reveal_entropy", "entropy": "<your entropy>"}'
      proceed_without_entropy (umpire, §R.2): the round goes on without seats that never answered
        '{"type": "proceed_without_entropy", "seats": ["france"], "reason": "no answer in 3 days"}'
      add_entropy (any seat, games without an entropy round, §R.2)
        '{"type": "add_entropy", "entropy": "<your entropy>"}'
      undo (§U; `arbitro undo`), consent (a seat asked to agree to another's undo, §U.2)
        '{"type": "undo", "to": 118, "reason": "misclick"}'
        '{"type": "consent", "accept": true}'
      reveal_seed (umpire, §R.3; `arbitro reveal`: ENDS THE GAME'S DICE and shows every roll and draw so far, hidden
        ones included; a game made before the salt key: every hidden fact)
        '{"type": "reveal_seed", "reason": "dispute over turn 7", "expose_hidden": true}'
      prove_roll (umpire, §R.5; `arbitro roll GAME SEQ --prove`): proves one roll of a game made with
        --provable-rolls by its own key, the seed kept secret (the server fills in the key and its path)
        '{"type": "prove_roll", "index": 12}'
      register_key (a playing seat, §L.6; `arbitro register-key`): the seat's own public key, a chained event; its
        commands after this one are accepted only signed
        '{"type": "register_key", "public_key": "3b6a27bc...(64 hex digits)"}'
      withdraw_key (umpire, §L.6): a seat's signing key withdrawn (lost, stolen); the seat is unsigned until it
        registers a new key (the server fills in the key and the commands it covered)
        '{"type": "withdraw_key", "seat": "red", "reason": "its token was stolen"}'
      fork (umpire, §R.3): recorded by `arbitro fork GAME --at N`, not sent by hand
      dispute_open, dispute_reply, dispute_rule (§D): sent by `arbitro dispute open|reply|rule`
    """
    if command == END_WORD:
        raw = end_command(open_reader(db, game), game, seat)
    else:
        raw = read_json_arg(command, file, "command")
    if for_seat is not None:
        raw = {"type": "on_behalf", "seat": for_seat, "command": raw}
    if offline:
        return write_offline(game, seat, raw, expected_seq, key, key_file, output, db, as_json)
    if output is not None:
        raise BadInput("-o writes a mailed command file, with --offline only; without it the command is submitted now")
    mailed = mail.read_mailed(raw, file or "the command") if file is not None else None
    if mailed is not None:
        seat, raw, expected_seq, key, signature = from_mailed(mailed, game, file or "", seat, expected_seq, key, key_file)
    elif seat is None:
        raise BadInput("say who sends the command with --as SEAT (a mailed command file names its seat itself)")
    app = open_app(db)
    if mailed is None:
        signature = None
        if key_file is not None:
            expected_seq = app.status(game, seat).head if expected_seq is None else expected_seq  # in its numbers
            key, signature = signed(game, seat, raw, expected_seq, key, key_file)
    result = app.submit(game, seat, raw, expected_seq=expected_seq, key=key, signature=signature)

    out(result, as_json, submit_text)


def signed(game: str, seat: str, command: dict[str, Any], expected_seq: int, key: str | None,
           key_file: str) -> tuple[str, str]:
    """The idempotency key (KEY, or a new one) and SEAT's signature of COMMAND against EXPECTED_SEQ, made here, on
    the seat's side: neither the database nor a server ever sees the private key (arbitro §L.6)."""
    key = key or secrets.token_hex(16)
    mailed = mail.write_mailed(game=game, seat=seat, command=command, expected_seq=expected_seq, key=key,
                               private_key=read_private_key(key_file))
    return key, str(mailed.signature)


def submit_text(r: SubmitResult) -> str:
    """`submit`'s text, submitted locally or to a server: the command's number, its receipt, its events, who is next."""
    head = f"{'already applied' if r.duplicate else 'accepted'}: command {r.cmd}, head #{r.head}"
    head += f"\nreceipt: command {r.cmd} {r.receipt['head']} (keep it: `arbitro receipt` prints it again)"
    return "\n".join([head, *event_lines(r.events), awaiting_line(r.awaiting)])


END_WORD = "end"


def end_command(app: Arbitro | SeatCopy, game: str, seat: str | None) -> dict[str, Any]:
    """`end`, one word in every ruleset for "end this step": the one command SEAT may send now that ends something
    and says nothing else (a type `end_...` or `pass` with no other field: Caldiero's and Arrivano's
    end_step, Caricat!'s end_activation or pass, Monferrato's end_activation, Marengo's end_turn)."""
    if seat is None:
        raise BadInput("say whose step to end with --as SEAT")
    return end_of(app.legal(game, seat), game, seat)


def end_of(listed: list[dict[str, Any]], game: str, seat: str) -> dict[str, Any]:
    """The one command of LISTED (SEAT's legal commands now, read locally or from a server) that `end` means."""
    ends = [c for c in listed if set(c) == {"type"} and (c["type"].startswith("end_") or c["type"] == "pass")]
    if len(ends) == 1:
        return ends[0]
    if not ends:
        raise BadInput(f"{seat} has no step to end now in {game}: `arbitro legal {game} --as {seat}` lists what it may send")
    raise BadInput(f"`end` could mean {' or '.join(c['type'] for c in ends)} for {seat} now: send the one you mean, "
                   f"e.g. arbitro submit {game} --as {seat} '{json.dumps(ends[0])}'")


def from_mailed(mailed: mail.Mailed, game: str, source: str, seat: str | None, expected_seq: int | None,
                key: str | None, key_file: str | None) -> tuple[str, dict[str, Any], int | None, str | None, str | None]:
    """What a mailed command file says of its submission; the options that would contradict it are refused."""
    mail.for_game(mailed, game, source)
    if mailed.seat is None:
        raise BadInput(f"{source} names no seat: a mailed command file says whose command it is (\"seat\")")
    if seat is not None and seat != mailed.seat:
        raise BadInput(f"{source} is {mailed.seat}'s command, not {seat}'s: drop --as (the file names its seat)")
    if expected_seq is not None or key is not None or key_file is not None:
        raise BadInput(f"{source} carries its own head, key and signature: drop --expect, --key and --sign")
    return mailed.seat, mailed.command, mailed.expected_seq, mailed.key, mailed.signature


def write_offline(game: str, seat: str | None, command: dict[str, Any], expected_seq: int | None, key: str | None,
                  key_file: str | None, output: str | None, db: str, as_json: bool) -> None:
    """`submit --offline`: the command as a mailed command file against the head of the seat's copy (or of the game
    itself), warned of when that copy does not list it as legal; nothing is submitted."""
    if seat is None or output is None:
        raise BadInput("--offline writes SEAT's command to a file: give --as SEAT and -o FILE")
    app = open_reader(db, game)
    head = app.status(game, seat).head if expected_seq is None else expected_seq  # in the seat's numbers (§V.6)
    listed = app.legal(game, seat)
    private = read_private_key(key_file) if key_file is not None else None
    registered = app.loaded.seat_keys if isinstance(app, SeatCopy) else app.store.seat_keys(game)
    if private is None and seat in registered:
        raise BadInput(f"{seat} registered a key in {game}: the umpire refuses its unsigned commands; add --sign KEYFILE")
    mailed = mail.write_mailed(game=game, seat=seat, command=command, expected_seq=head,
                               key=key or secrets.token_hex(8), private_key=private)
    if Path(output).exists():
        raise BadInput(f"{output} already exists: a command file is never overwritten (remove it, or choose another)")
    write_text(output, json.dumps(msgspec.to_builtins(mailed), ensure_ascii=False, indent=2) + "\n")
    warning = None if any(fits(command, template) for template in listed) else (
        f"warning: {game}'s legal commands for {seat} at #{head} do not list this one (`arbitro legal {game} --as "
        f"{seat}`); the umpire's submit judges it")
    if warning and not as_json:
        click.echo(warning, err=True)
    out({"file": output, "game": game, "seat": seat, "expected_seq": head, "key": mailed.key,
         "signed": mailed.signature is not None, "listed_legal": warning is None}, as_json,
        lambda d: f"wrote {output}: {seat}'s {command.get('type')} against #{head}, "
                  f"{'signed' if d['signed'] else 'unsigned'}; mail it to the umpire, who runs "
                  f"`arbitro submit {game} --file {Path(output).name}`")


def fits(command: dict[str, Any], listed: dict[str, Any]) -> bool:
    """Whether COMMAND is the listed one, a template's `<...>` fields (the entropy round's, say) filled in."""
    def blank(value: Any) -> bool:
        return isinstance(value, str) and value.startswith("<") and value.endswith(">")
    return command.keys() == listed.keys() and all(blank(v) or command[k] == v for k, v in listed.items())


PLAY_COMMANDS = (submit,)
