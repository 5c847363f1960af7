"""The command line's exchange and audit commands: export, import, delete, verify, keygen, register-key, receipt,
check and readjudicate (docs/engine-rules.md §L, §V), and invite (the HTTP server's bearer tokens)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from arbitro.adjudicator.errors import BadFile, BadInput, Declined
from arbitro.adjudicator.results import SubmitResult
from arbitro.adjudicator.seatcopy import SeatCopy, checked_seat_keys, checked_server_key, delete_copy
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.storecheck import check_copy, check_game
from arbitro.adjudicator.verify_replay import default_jobs
from arbitro.events import signing
from arbitro.events.sqlite import SQLiteStore
from arbitro.adjudicator import settling
from arbitro.adjudicator.cli_common import (
    db_option, export_options, json_option, seat_option, server_key_option, handle_errors, open_app, event_lines,
    is_file_source, json_line, out, brief, Progress, read_json_arg, read_text, parse_readings, open_reader, write_text,
    withdrawal_options, writing,
)
from arbitro.adjudicator.cli_disputes import reinterpretation_text
from arbitro.adjudicator.cli_tables import provisional_items, token_lines
from arbitro.projections.base import UMPIRE


@click.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@export_options
@db_option
@json_option
@handle_errors
def export(game: str, seat: str, output: str | None, with_seed: bool, db: str, as_json: bool) -> None:
    """Export a game as JSON Lines; a seat's export holds only what that seat may see. With --json, errors are JSON
    and -o's answer is {"file", "records"} (the lines themselves are JSON already).

    \b
    Example:
        arbitro export marengo-1a2b -o game.jsonl
        arbitro export marengo-1a2b --as france -o for-france.jsonl --json
    """
    exported(list(open_app(db, "read").export(game, seat, with_seed=with_seed)), output, as_json)


def exported(lines: list[str], output: str | None, as_json: bool) -> None:
    """`export`'s answer, exported locally or by a server: the lines on stdout, each as `json_line` prints it (a note's
    or a hostile server's controls escaped, the records the same decoded), or written to OUTPUT as they came and
    counted."""
    if not output:
        return click.echo("\n".join(map(json_line, lines)))
    write_text(output, "\n".join(lines) + "\n")
    if as_json:
        out({"file": output, "records": len(lines)}, True)
    else:
        click.echo(f"wrote {len(lines)} records to {output}", err=True)


def seat_key_option(fn: Any) -> Any:
    return click.option(
        "--seat-key", "seat_keys", multiple=True, metavar="SEAT=PUBLIC_KEY",
        help="A seat's own public key, as you know it (repeatable): the file must carry it, and every command in that "
             "seat's name since its registration must be signed with it.")(fn)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as-id", "as_id", metavar="NEW_ID",
              help="Store it under this id (when its own is taken): a re-sealed copy, a new chain with the same content.")
@seat_option(required=False, default="umpire")
@server_key_option
@seat_key_option
@db_option
@json_option
@handle_errors
def import_(file: str, as_id: str | None, seat: str, server_key: str | None, seat_keys: tuple[str, ...], db: str,
            as_json: bool) -> None:
    """Import an exported game, whole or not at all, after checking its chain and command log (an error names
    the file's first bad line); print its id. `arbitro verify FILE` re-adjudicates it too. A seat's export
    (play by e-mail) becomes that seat's own copy of the game, read as it was served (status, view, legal, log,
    verify); a later export of the same seat replaces it only if it carries on the chain the copy holds (the seats'
    keys included), with --server-key only if the umpire's server sealed it, and with --seat-key only
    if it carries your own key and your commands signed with it (arbitro §L.6).

    \b
    Example:
        arbitro import game.jsonl --db club.db
        arbitro import game.jsonl --as-id marengo-copy --db club.db
        arbitro import for-austria.jsonl --db austria.db    # austria's own copy, mailed by the umpire
        arbitro import for-austria.jsonl --server-key 9c41e0d2a7b35f18 --seat-key austria=3b6a27bc... --db austria.db
    """
    server_key, keys = checked_server_key(server_key), checked_seat_keys(seat_keys)
    lines = read_text(file).splitlines(keepends=True)
    app = open_app(db, "create")
    with Progress("importing events") as progress:
        gid = app.import_lines(lines, file, seat=seat, as_id=as_id, progress=None if as_json else progress, seat_copy=True,
                               server_key=server_key, seat_keys=keys)
    copy = SeatCopy.find(app.store, gid)
    if copy is None:
        out({"game": gid}, as_json, lambda d: d["game"])
        return
    sealed_by = copy.loaded.server_key
    out({"game": gid, "sealed_by": sealed_by}, as_json, lambda d: d["game"])
    if not as_json and server_key is None:  # a seal proves its own key only: the seat compares it (engine-rules §L.9)
        click.echo(f"your copy of {gid} is sealed by server key {signing.fingerprint(sealed_by or '')}: check that it "
                   "is the umpire's (the key its receipts name; `arbitro import FILE --server-key KEY` checks it)",
                   err=True)
    if not as_json and copy.seat not in keys:  # nor does a key the file names prove it the seat's (§L.6)
        carried = copy.loaded.seat_keys.get(copy.seat)
        said = (f"says {copy.seat} signs with key {signing.fingerprint(carried[0])}: check that it is yours" if carried
                else f"says {copy.seat} registered no key: if you registered one, the umpire's host dropped it")
        click.echo(f"your copy of {gid} {said} (`arbitro import FILE --seat-key {copy.seat}=YOUR_PUBLIC_KEY` checks "
                   "it)", err=True)


def read_receipts(files: tuple[str, ...]) -> list[Any]:
    """Receipts from files: one receipt, a list of them, or a saved `submit --json` answer."""
    receipts: list[Any] = []
    for file in files:
        data = read_json_arg(None, file, "receipt")
        items = data if isinstance(data, list) else [data]
        receipts += [item.get("receipt", item) if isinstance(item, dict) else item for item in items]
    return receipts


@click.command()
@click.argument("game")
@seat_option(required=False, default="umpire")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@db_option
@json_option
@handle_errors
def delete(game: str, seat: str, yes: bool, db: str, as_json: bool) -> None:
    """Delete GAME and everything stored of it (the umpire's act; it cannot be undone: export it first if in
    doubt). Asks for confirmation unless --yes. Its forks keep their own logs. In a seat's own database, GAME
    is that seat's copy (play by e-mail): only the copy goes (import the umpire's next export to start again).

    \b
    Example:
        arbitro delete marengo-1a2b3c4d
        arbitro delete marengo-1a2b3c4d --yes --db club.db
        arbitro delete marengo-1a2b3c4d --as austria --db austria.db     # austria's copy
    """
    app = open_app(db)
    copy = SeatCopy.find(app.store, game)
    record = copy.game(game) if copy is not None else app.game(game)
    what = f"{copy.seat}'s copy of {game}" if copy is not None else f"game {game}"
    if not yes and not click.confirm(f"Delete {what} ({record.ruleset}/{record.scenario}, {record.head_seq} "
                                     f"events) from {db}? This cannot be undone", err=True):
        raise Declined(f"nothing deleted: {what} is still in {db}")
    result = delete_copy(app.store, game, seat) if copy is not None else app.delete(game, seat)
    out(result, as_json, lambda r: f"deleted {what} ({r['events']} events)"
        + (f"; its forks {', '.join(r['forks_kept'])} are kept" if r["forks_kept"] else ""))


@click.command()
@click.argument("source")
@click.option("--head", "head", metavar="HASH",
              help="A hash you recorded yourself (e.g. from a submit): the file's chain up to it must be the one you saw.")
@click.option("--receipt", "receipt_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="A receipt the server signed for one of your submissions (repeatable): the file must hold its head.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Re-adjudicate in N processes at once (default: one per core, at most 8; 1: this process alone); "
                   "the report is the same for any N. A game in a database is read in one moment (its events "
                   "copied to a temporary file for the workers); a seat's copy is judged in one.")
@seat_key_option
@server_key_option
@db_option
@json_option
@handle_errors
def verify(source: str, head: str | None, receipt_files: tuple[str, ...], jobs: int | None, seat_keys: tuple[str, ...],
           server_key: str | None, db: str, as_json: bool) -> None:
    """Verify a game (id) or an exported file: chain, genesis, commands, build, dice, re-adjudication,
    annotations; with --receipt and --head, that the file is the log the server acknowledged to you. A seat's
    own copy (a game id in its database) is verified as the export it was imported from, options included.

    \b
    Example:
        arbitro verify logs/marengo-full.jsonl
        arbitro verify logs/marengo-full.jsonl --jobs 1          (in this process alone)
        arbitro verify for-france.jsonl --receipt r41.json   (a receipt france kept from a submit)
        arbitro verify for-france.jsonl --head 3f9a...       (a hash france recorded)
        arbitro verify for-france.jsonl --server-key 9c41e0d2a7b35f18   (the umpire's server key)
        arbitro verify marengo-1a2b --server-key 9c41e0d2a7b35f18 --db france.db   (france's copy)
    """
    server_key = checked_server_key(server_key)
    receipts, keys = read_receipts(receipt_files), checked_seat_keys(seat_keys)
    progress = None if as_json else Progress("re-adjudicating commands", threshold=100)
    if is_file_source(source):
        app = Arbitro(SQLiteStore(":memory:"))
        report = app.verify_file(source, progress, head, receipts, keys, server_key, jobs or default_jobs())
    else:
        reader = open_reader(db, source)
        if isinstance(reader, SeatCopy):
            report = reader.verify(source, progress, head, [signing.read_receipt(r) for r in receipts], keys, server_key)
        elif head is not None or receipt_files or seat_keys or server_key is not None:
            raise BadInput("--head, --receipt, --seat-key and --server-key check an exported file or a seat's copy: "
                          "export the game first, or verify the file you imported")
        else:
            report = reader.verify(source, progress, jobs or default_jobs())
    if progress is not None:
        progress.close()

    def text(r: Any) -> str:
        lines = [f"{r.game}: {r.ruleset} {r.version}, {r.kind} game"]
        lines += [f"  {c.status.upper():<9} {c.name}: {c.detail}" for c in r.checks]
        if r.divergence:
            d = r.divergence
            lines.append(f"  first divergence at #{d.seq} [{d.rule}]")
            lines.append(f"    log holds: {brief(d.expected)}")
            lines.append(f"    rules give: {brief(d.found)}")
        if r.provisional:
            lines.append(f"  played with PROVISIONAL data: {provisional_items(r.provisional)}, not the printed "
                         "game's (--json lists each)")
        lines.append("VERIFIED" if r.passed else "FAILED")
        return "\n".join(lines)

    out(report, as_json, text)
    if not report.passed:
        sys.exit(1)


@click.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="Where to write the private key.")
@json_option
@handle_errors
def keygen(output: str, as_json: bool) -> None:
    """Make a seat's Ed25519 key pair: write the private key to OUTPUT (keep it; the server never sees it)
    and print the public key, to register with `arbitro register-key`.

    \b
    Example:
        arbitro keygen -o austria.key
    """
    if Path(output).exists():
        raise BadFile(f"{output} already exists: a key file is never overwritten")
    private = signing.new_private_key()
    with writing(output):
        Path(output).touch(mode=0o600)  # readable by its owner alone from the start, before the key is in it
        Path(output).write_text(private.hex() + "\n", encoding="utf-8")
    out({"public_key": signing.public_key(private), "file": output}, as_json, lambda d: d["public_key"])


@click.command(name="register-key")
@click.argument("game")
@click.argument("public_key")
@seat_option()
@db_option
@json_option
@handle_errors
def register_key(game: str, public_key: str, seat: str, db: str, as_json: bool) -> None:
    """Register SEAT's public key in GAME: from then on its commands are accepted only signed with the
    private half (`arbitro submit --sign KEYFILE`), so nobody else, the host included, can send or alter one.

    \b
    Example:
        arbitro register-key marengo-1a2b --as austria 3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29
    """
    result = open_app(db).register_key(game, seat, public_key)
    out(result, as_json, registered_text)


def registered_text(r: dict[str, Any]) -> str:
    """`register-key`'s answer, registered locally or on a server."""
    return f"{r['seat']} signs its commands in {r['game']} after command {r['since_cmd']}"


@click.command(name="withdraw-key")
@click.argument("game")
@withdrawal_options
@seat_option(required=False, default=UMPIRE)
@db_option
@json_option
@handle_errors
def withdraw_key(game: str, target: str, reason: str, key: str | None, seat: str, db: str, as_json: bool) -> None:
    """The umpire withdraws SEAT's signing key in GAME (arbitro §L.6): a key lost, or a thief's registered with a
    stolen token. A chained event names the key and the commands it covered (verify judges their signatures under
    it); from the next command the seat's commands are accepted unsigned until it registers a new key, which is then
    required. Give a seat whose token leaked a new one first (`arbitro invite`), or the thief may register again.

    \b
    Example:
        arbitro invite marengo-1a2b --seat austria
        arbitro withdraw-key marengo-1a2b --seat austria --reason "austria's token was stolen"
        arbitro register-key marengo-1a2b --as austria NEW_PUBLIC_KEY     (austria, with its new key)
    """
    out(open_app(db).withdraw_key(game, target, reason, key=key, by=seat), as_json, withdrawn_text)


def withdrawn_text(r: SubmitResult) -> str:
    """`withdraw-key`'s answer, withdrawn locally or on a server: the events, and what the seat does next."""
    withdrawn = [e["event"] for e in r.events if e.get("type") == "key_withdrawn"]
    said = [f"{e['seat']}'s key {signing.fingerprint(e['public_key'])} is withdrawn (it covered commands "
            f"{e['first_cmd']} to {e['last_cmd']}); {e['seat']} is unsigned until it registers a new key "
            f"(`register-key {r.game} --as {e['seat']} PUBLIC_KEY`)" for e in withdrawn]
    return "\n".join([f"accepted: command {r.cmd}", *event_lines(r.events), *said])


@click.command()
@click.argument("game")
@click.option("--cmd", "cmd", type=int, help="The command's number (default: the last one).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the receipt to this file.")
@db_option
@json_option
@handle_errors
def receipt(game: str, cmd: int | None, output: str | None, db: str, as_json: bool) -> None:
    """Print the server's signed receipt for a command (every submit also returns it): keep it, and check an
    exported log against it later with `arbitro verify FILE --receipt R.json`.

    \b
    Example:
        arbitro receipt marengo-1a2b --cmd 41 -o r41.json
    """
    app = open_app(db)
    signed = app.receipt(game, app.game(game).head_cmd if cmd is None else cmd)
    if output:
        write_text(output, json.dumps(signed) + "\n")
    out(signed, as_json, lambda r: (f"command {r['cmd']} of {r['game']}: head {r['head']}\n"
                                    f"signed by server key {r['server_key']}"))


@click.command()
@click.argument("game", required=False)
@db_option
@json_option
@handle_errors
def check(game: str | None, db: str, as_json: bool) -> None:
    """Check the whole store (or one GAME) for damage: every game's hash chain and genesis, command log,
    snapshots and annotations (no re-adjudication: that is `verify`), and each seat's copy (play by e-mail) as far
    as a seat's export can be checked. Exit 1 on any problem.

    \b
    Example:
        arbitro check
        arbitro check marengo-1a2b --json
    """
    app = open_app(db, "read")
    copies = {g: (seat, text) for g, seat, text in app.store.seat_copies()}  # a seat's copies (play by e-mail)
    ids = [game] if game else [g.id for g in app.store.games()] + sorted(copies)
    if game and game not in copies:
        app.game(game)  # not found: exit 3
    results = []
    with Progress("checking games", threshold=2) as progress:
        for done, gid in enumerate(ids, 1):
            results.append(check_copy(gid, *copies[gid]) if gid in copies else check_game(app.store, gid))
            if not as_json:
                progress(done, len(ids))

    def text(rs: list[Any]) -> str:
        lines = []
        for r in rs:
            served = f"{r.commands} commands" if r.commands else f"{r.events} events"  # a copy: in its seat's numbers
            held = (f"{r.copy_of}'s copy, {served} as served" if r.copy_of else
                    f"{r.events} events, {r.commands} commands, {r.snapshots} snapshots")
            lines.append(f"{'OK     ' if r.ok else 'DAMAGED'} {r.game}: {held}, {r.annotations} notes")
            lines += [f"        {p}" for p in r.problems]
        bad = sum(not r.ok for r in rs)
        lines.append(f"{len(rs)} games checked, {bad} with problems" if rs else "no games")
        return "\n".join(lines)

    out(results, as_json, text)
    if any(not r.ok for r in results):
        sys.exit(1)


@click.command()
@click.argument("game")
@click.option("--ruling", "readings", multiple=True, metavar="NAME=READING",
              help="Judge it again with this reading of an ambiguous rule in force from the start (repeatable; "
                   "`arbitro interpretations RULESET` lists them): the commands whose events change, the first "
                   "one refused (arbitro §D.5).")
@db_option
@json_option
@handle_errors
def readjudicate(game: str, readings: tuple[str, ...], db: str, as_json: bool) -> None:
    """Judge GAME's whole command log again under this build's ruleset version and report the first
    divergence (a game is pinned to the version it was made with: arbitro §L.5); with --ruling, under other
    readings of its rules. Nothing is changed; exit 0 if the log replays identically, 1 if it diverges.

    \b
    Example:
        arbitro readjudicate marengo-1a2b3c4d
        arbitro fork marengo-1a2b3c4d --at 120     (then: continue under this build)
        arbitro readjudicate caldiero-9f8e --ruling ex_defender_loss=any_sufficient
    """
    if readings:
        again = settling.reinterpret(open_app(db, "read"), game, UMPIRE, parse_readings(readings, "--ruling"))
        out(again, as_json, reinterpretation_text)
        if not again.identical:
            sys.exit(1)
        return
    progress = None if as_json else Progress("re-adjudicating commands", threshold=100)
    result = open_app(db, "read").readjudicate(game, progress)
    if progress is not None:
        progress.close()

    def text(r: dict[str, Any]) -> str:
        lines = [f"{r['game']}: made with {r['ruleset']} {r['played_with']}, re-adjudicated under {r['installed']}"]
        lines += [f"  {c['status'].upper():<9} {c['name']}: {c['detail']}" for c in r["checks"]]
        if r["divergence"]:
            d = r["divergence"]
            lines += [f"  first divergence at #{d['seq']} [{d['rule']}]", f"    log holds: {brief(d['expected'])}",
                      f"    {r['installed']} gives: {brief(d['found'])}"]
        lines.append("IDENTICAL" if r["identical"] else "DIVERGES")
        return "\n".join(lines)

    out(result, as_json, text)
    if not result["identical"]:
        sys.exit(1)


invite_seats_option = click.option(
    "--seat", "seats", multiple=True, metavar="SEAT",
    help="Only this seat's token (repeatable; `umpire` for the umpire's); default: every seat and the umpire.")


@click.command()
@click.argument("game")
@invite_seats_option
@db_option
@json_option
@handle_errors
def invite(game: str, seats: tuple[str, ...], db: str, as_json: bool) -> None:
    """Make new secret bearer tokens for GAME's seats and umpire, for `arbitro serve` (each seat's token lets its
    holder act as that seat only). They are printed once and stored only as hashes: a seat given a new token
    loses its old one, so invite again when a token is lost or leaked.

    \b
    Example:
        arbitro invite marengo-1a2b --db club.db
        arbitro invite marengo-1a2b --seat france --json
    """
    tokens = open_app(db).issue_tokens(game, seats or None)
    out({"game": game, "tokens": tokens}, as_json, invited_text)


def invited_text(r: dict[str, Any]) -> str:
    """`invite`'s text, local or remote: each role's new token on its own line, printed this once."""
    return "\n".join(token_lines(r["tokens"]))


AUDIT_COMMANDS = (export, import_, delete, verify, keygen, register_key, withdraw_key, receipt, check, readjudicate,
                  invite)
