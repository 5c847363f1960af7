"""The command line's dice commands: `roll` (one roll explained, and recomputed once the seed is revealed),
`entropy` (a seat's commit-reveal entropy, arbitro §R.2) and `reveal` (the umpire reveals the seed, §R.3)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import msgspec

from arbitro.adjudicator import served_dice
from arbitro.adjudicator.errors import ArbitroError, BadInput, check_position
from arbitro.adjudicator.results import Revealed, SubmitResult
from arbitro.adjudicator.reveal import EXPOSED
from arbitro.adjudicator.seat_numbers import is_stub
from arbitro.adjudicator.seatcopy import SeatCopy
from arbitro.adjudicator.service import Arbitro
from arbitro.events import random as rnd
from arbitro.events.store import GameNotFound, NoDatabase, StaleSequence
from arbitro.projections.base import UMPIRE
from arbitro.adjudicator.cli_common import (
    db_option, json_option, nth_option, seat_option, handle_errors, open_app, open_reader, out, record_lines,
    event_lines, app_for,
    reading_as, read_text, stacked, writing, is_file_source,
)
from arbitro.adjudicator.cli_play import write_offline


# The events of the seats' entropy round, which `roll` shows beside the roll they protect (arbitro §R.2).
ENTROPY_TYPES = ("entropy_committed", "entropy_revealed", "entropy_waived", "entropy_mixed", "entropy_added")
ROLL_TYPES = ("dice_rolled", "items_drawn")


# The failures of a commit that append nothing (refused by the rules or the input, the game or database missing, the
# head moved): `entropy` deletes the file it made only after one of these.
REFUSED = (ArbitroError, GameNotFound, NoDatabase, StaleSequence)


@click.command()
@click.argument("source")
@click.argument("seq", type=int)
@seat_option(required=False, default="umpire")
@nth_option
@click.option("--prove", is_flag=True,
              help="The umpire's, in a game made with --provable-rolls: prove this roll without revealing the seed, "
                   "recording its key and Merkle path (roll_proven, served to the seats that saw the roll); the "
                   "game rolls on (arbitro §R.5).")
@db_option
@json_option
@handle_errors
def roll(source: str, seq: int, seat: str, nth: int, prove: bool, db: str, as_json: bool) -> None:
    """Explain a roll or draw of a game (an id, or an exported .jsonl file), as SEAT is served it: the umpire's
    at event SEQ; a seat's in its command SEQ (a seat's numbers are its commands', docs/engine-rules.md §V.6),
    the first it was served there or the --nth. It shows the dice, how they were derived (random index, seed
    commitment, the mix and the seats' entropy that made it: arbitro §R.1, §R.2), its purpose, table, row or
    column and every modifier as the event records them, what followed from it, and, once the seed is revealed,
    the dice recomputed from it (exit 1 if they differ). A roll SEAT may not examine shows only what SEAT is
    served (arbitro §V.4). In a game made with --provable-rolls, --prove (the umpire) proves the roll by its own
    key, keeping the seed secret, and a proven roll shows its key checked against the root committed at creation
    and the dice recomputed from it (exit 1 if either fails; arbitro §R.5).

    \b
    Example:
        arbitro roll caldiero-9f8e 30                     # the umpire: event #30
        arbitro roll caldiero-9f8e 12 --as france --nth 2 # france: the second roll of its command #12
        arbitro roll logs/caldiero-full.jsonl 30
        arbitro roll caldiero-9f8e 30 --prove             # the umpire proves it; the game rolls on
        arbitro roll caldiero-9f8e 30 --prove --json
    """
    app, game = app_for(source, db)
    explained = explain_roll(app, game, seq, seat, nth)
    if prove:
        if is_file_source(source):
            raise BadInput("--prove records a proof in a game of the database, not in a file (arbitro §R.5)")
        open_app(db).submit(game, seat, {"type": "prove_roll", "index": explained["derivation"].get("index")})
        explained = explain_roll(open_reader(db, game), game, seq, seat, nth)
    out(explained, as_json, roll_text)
    if explained["recomputed"].get("matches") is False or explained["proof"].get("matches") is False:
        sys.exit(1)


def explain_roll(app: Arbitro | SeatCopy, game: str, seq: int, seat: str, nth: int = 1) -> dict[str, Any]:
    """What a dispute over a roll needs, built only from what `seat` is served: the umpire's at event `seq` of the
    log; a seat's the `nth` roll or draw it was served in its command `seq` (a seat's numbers are its commands',
    engine-rules §V.6: where a roll lies among the events a command made, and how many events that was, can be a
    hidden fact)."""
    record = app.game(game)
    seat = reading_as(app, seat)  # a seat's copy holds its seat's served log alone
    served = app.log_by_event(game, seat)
    at = _event_at(served, record.head_seq, game, seq, nth) if seat == UMPIRE else _seat_roll(served, game, seq, nth)
    event = served[at - 1]
    data = event.get("event") or {}
    kind = data.get("type", event["type"])
    mix = served_dice.mix_before(served, at)  # from what the seat was served: a seat's copy checks its dice too
    detail = dict(data.get("detail") or {})
    modifiers = detail.get("modifiers", "")
    values = data.get("values") if kind == "dice_rolled" else data.get("drawn")
    source_ = data.get("source")
    number = _numbered if seat != UMPIRE else dict
    explained: dict[str, Any] = {
        "game": game, "seq": seq, "seat": seat, "type": kind, "cmd": event["cmd"], "by": event["seat"],
        **({} if seat == UMPIRE else {"nth": nth}),
        "purpose": data.get("purpose", data.get("rule", "")), "source": source_,
        "dice": ({"count": data.get("count"), "sides": data.get("sides"), "values": values}
                 if kind == "dice_rolled" else {"population": data.get("population"), "drawn": values}),
        "table": detail.get("table"), "row": detail.get("row"), "column": detail.get("column"),
        "modifiers": [m.strip() for m in str(modifiers).split(";") if m.strip()] if modifiers else [],
        "detail": detail,
        "withheld": values is None,  # fog of war: this seat is not served the outcome (arbitro §V.4)
        "derivation": derivation(served, at, data, mix, number) if source_ != "entered" else
        {"rule": "arbitro §R.4", "how": "entered by the umpire from the dice rolled on the table"},
        "followed": [number(e) for e in followed(served, at, seat != UMPIRE)],
        "event": number(event),
    }
    explained["proof"] = proof_of(served, data, mix, values, number)
    explained["recomputed"] = served_dice.recompute(served_dice.revealed_seed(served), mix, data, values, source_,
                                                    served_dice.derivation_of(served))
    return explained


def proof_of(served: list[dict[str, Any]], data: dict[str, Any], mix: str, values: Any,
             number: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """The roll's proof (roll_proven, arbitro §R.5) as served, checked without the seed: its key against the root the
    genesis commits to by its Merkle path, and the values recomputed from the key."""
    index = data.get("index")
    proof = next((e for e in served if e["type"] == "roll_proven" and (e.get("event") or {}).get("index") == index
                  and index is not None), None)
    if proof is None:
        return {"status": "not proven" + ("" if "roll_key_root" in served_dice.genesis(served) else
                                          ": this game's rolls are keyed by the seed itself (arbitro-random/1), so "
                                          "only a reveal proves them (arbitro §R.5)")}
    shown = proof["event"]
    if "key" not in shown:
        return {"status": "proven to the seats served its values (a draw's: its pool too); not to this one (arbitro "
                          "§R.5, §V.4)", "seq": number(proof)["seq"]}
    found = {"seq": number(proof)["seq"], "key": shown["key"], "path": shown["path"]}
    if not served_dice.key_proven(served, shown):
        return {**found, "status": "the key is NOT proven by its path against the root committed at creation "
                                   "(arbitro §R.5)", "matches": False}
    again = served_dice.recomputed_by_key(data, shown["key"], mix, values)
    return {**found, "status": "the key is proven by its path against the root committed at creation (arbitro §R.5)",
            "values": again, **({} if again is None else {"matches": again == list(values)})}


def _event_at(served: list[dict[str, Any]], head: int, game: str, seq: int, nth: int) -> int:
    """The umpire's roll: event `seq` of the log, which must be a roll or a draw."""
    if nth != 1:
        raise BadInput(f"the umpire names a roll by its event (#{seq}): --nth picks one of a seat's command's rolls")
    check_position(seq, 1, head, f"game {game}", then=f"there is no event #{seq}")
    event = served[seq - 1]
    kind = (event.get("event") or {}).get("type", event["type"])
    if kind not in (*ROLL_TYPES, "hidden"):
        rolls = [e["seq"] for e in served if e["type"] in ROLL_TYPES]
        raise BadInput(f"event #{seq} of {game} is a {kind}, not a roll or a draw; its rolls and draws are at "
                       + (", ".join(f"#{n}" for n in rolls[:20]) + (" ..." if len(rolls) > 20 else "") or "no event"))
    return seq


def _seat_roll(served: list[dict[str, Any]], game: str, cmd: int, nth: int) -> int:
    """A seat's roll: the log's number of the `nth` roll or draw its command `cmd` holds as the seat is served it,
    refused in the seat's numbers (the commands that hold one it was served, never the log's events)."""
    head = served[-1]["cmd"] if served else 0
    check_position(cmd, 0, head, f"game {game}", "command")
    shown = [e for e in served if e.get("event") and not is_stub(e["event"]) and e["type"] in ROLL_TYPES]
    rolls = [e["seq"] for e in shown if e["cmd"] == cmd]
    if not 1 <= nth <= len(rolls):
        holding = list(dict.fromkeys(e["cmd"] for e in shown))
        where = ", ".join(f"#{n}" for n in holding[:20]) + (" ..." if len(holding) > 20 else "") or "no command"
        made = f"holds {len(rolls)} rolls or draws you were served (--nth 1 to {len(rolls)})" if rolls else \
            "holds no roll or draw you were served"
        raise BadInput(f"command #{cmd} of {game} {made}; the commands that hold one are {where}")
    return rolls[nth - 1]


def _numbered(event: dict[str, Any]) -> dict[str, Any]:
    """An event as a seat is told it: numbered by its command, without the log's links (per_command's events)."""
    return {"seq": event["cmd"], "cmd": event["cmd"], "seat": event["seat"], "type": event["type"],
            "event": event.get("event")}


def followed(served: list[dict[str, Any]], seq: int, seats: bool = False) -> list[dict[str, Any]]:
    """The events the roll at `seq` led to: those of the same command up to its next roll or draw; for a seat
    (`seats`) those it may see alone (no placeholder or stub, whose place would tell where a hidden event lay)."""
    cmd, after = served[seq - 1]["cmd"], []
    for e in served[seq:]:
        if e["cmd"] != cmd or e["type"] in ROLL_TYPES:
            break
        if not seats or (e.get("event") and not is_stub(e["event"])):
            after.append(e)
    return after


def derivation(served: list[dict[str, Any]], seq: int, data: dict[str, Any], mix: str,
               number: Callable[[dict[str, Any]], dict[str, Any]] = dict) -> dict[str, Any]:
    """How a generated roll is derived (arbitro §R.1): the committed seed, the mix of the seats' entropy
    (the entropy events before the roll, as served, each numbered as the reader numbers it) and the roll's index."""
    created = served_dice.genesis(served)
    index = data.get("index")
    algorithm = served_dice.derivation_of(served)
    keyed = algorithm == rnd.DERIVATION_KEYED  # each roll under its own key K_i, committed at creation (arbitro §R.5)
    return {
        "rule": "arbitro §R.5" if keyed else "arbitro §R.1", "algorithm": algorithm, "index": index,
        **({"key": f"K_{index} = HMAC-SHA256(seed, \"roll-key|{index}\")", "roll_key_root": created.get("roll_key_root"),
            "roll_keys": created.get("roll_keys")} if keyed else {}),
        "seed_commitment": created.get("seed_commitment"), "mix": mix,
        "message": f"{algorithm}|{mix}|{index}|0" if index is not None else None,
        "entropy": [{"seq": number(e)["seq"], **(e.get("event") or {})} for e in served[:seq - 1]
                    if e["type"] in ENTROPY_TYPES],
    }


def roll_text(r: dict[str, Any]) -> str:
    dice = r["dice"]
    where = (f"command #{r['cmd']} of {r['game']}, its roll or draw {r['nth']}" if "nth" in r else
             f"#{r['seq']} of {r['game']}")
    lines = [f"{where}: {r['type']} by {r['by']} (command {r['cmd']}), as served to {r['seat']}",
             f"  purpose:    {r['purpose'] or '(not served)'}"]
    if r["type"] == "dice_rolled":
        lines.append(f"  dice:       {dice['count']}d{dice['sides']} -> "
                     + (" ".join(map(str, dice["values"])) if dice["values"] is not None else "(withheld)"))
    elif r["type"] == "items_drawn":
        lines.append(f"  drew:       {', '.join(dice['drawn']) if dice['drawn'] is not None else '(withheld)'}"
                     + (f" from {', '.join(dice['population'])}" if dice["population"] else ""))
    for key in ("table", "row", "column"):
        if r[key] is not None:
            lines.append(f"  {key + ':':<11} {r[key]}")
    lines += [f"  modifier:   {m}" for m in r["modifiers"]]
    lines += [f"  {k + ':':<11} {v}" for k, v in r["detail"].items() if k not in ("table", "row", "column", "modifiers")]
    d = r["derivation"]
    if d.get("index") is not None:
        key = f"K_{d['index']}" if "key" in d else "seed"
        lines += [f"  derivation: {d['rule']} {d['algorithm']}: HMAC-SHA256({key}, \"{d['message']}\") ...",
                  *([f"              {d['key']}, one of {d['roll_keys']} under root {d['roll_key_root']}"]
                    if key != "seed" else []),
                  f"              random index {d['index']}; seed commitment {d['seed_commitment']}",
                  f"              mix {d['mix'] or '(empty: no entropy mixed in)'}"]
        lines += [f"              #{e['seq']} {e['type']}: " + " ".join(f"{k}={v}" for k, v in e.items()
                                                                          if k not in ("seq", "type", "rule"))
                  for e in d["entropy"]]
    elif "how" in d:
        lines.append(f"  derivation: {d['how']} ({d['rule']})")
    else:
        lines.append(f"  derivation: its random index is not served to {r['seat']} (arbitro §V.4)")
    lines += [f"  followed:   {line}" for e in r["followed"] for line in record_lines(e)]
    p = r["proof"]
    if "key" in p:
        lines += [f"  proof:      #{p['seq']} roll_proven: key {p['key']}",
                  f"              {p['status']}" + ("" if p.get("values") is None else
                                                    f"; recomputed from the key: {p['values']}: "
                                                    + ("MATCHES the log" if p.get("matches") else "DIFFERS"))]
    else:
        lines.append(f"  proof:      {p['status']}")
    c = r["recomputed"]
    if "matches" in c:
        lines.append(f"  recomputed: {c['values']} from seed {c['seed']}: "
                     + ("MATCHES the log" if c["matches"] else "DIFFERS from the log"))
    else:
        lines.append(f"  recomputed: {c['status']}")
    return "\n".join(lines)


@click.command()
@click.argument("game")
@seat_option()
@click.option("--file", "path", type=click.Path(dir_okay=False),
              help="Where SEAT keeps its entropy between commit and reveal (default: GAME.SEAT.entropy).")
@click.option("--offline", is_flag=True,
              help="Play by e-mail: write the commitment (or, once every seat has committed, the reveal) to -o FILE "
                   "as a mailed command file, against your copy of GAME, for the umpire to submit.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE", help="With --offline: the file to write.")
@click.option("--sign", "key_file", type=click.Path(dir_okay=False), metavar="KEYFILE",
              help="With --offline: sign the command file with SEAT's private key (`arbitro keygen`).")
@db_option
@json_option
@handle_errors
def entropy(game: str, seat: str, path: str | None, offline: bool, output: str | None, key_file: str | None, db: str,
            as_json: bool) -> None:
    """Answer the game's entropy round for SEAT (arbitro §R.2). The first call draws 128 random bits, keeps
    them in FILE (readable by you alone) and commits to their SHA-256; once every seat has committed, the
    same call reveals them. With FILE already there, its text is the entropy (make your own). By e-mail,
    --offline -o FILE writes each step as a command file from your copy, for the umpire to submit.

    \b
    Example:
        arbitro entropy marengo-1a2b3c4d --as france
        arbitro entropy marengo-1a2b3c4d --as france        (again, once austria has committed too)
        arbitro entropy marengo-1a2b3c4d --as france --offline -o france-entropy.json --sign france.key
    """
    keep = Path(path or entropy_file(game, seat))
    with kept_entropy(keep, REFUSED) as (text, made):
        if offline:
            app = open_reader(db, game)
            answer = entropy_answer(app.legal(game, seat), lambda: app.game(game).head_seq, game, seat, text, made,
                                    keep, f"(`arbitro status {game} --as {seat}`): import the umpire's latest export "
                                    "first, or the round is past")
            return write_offline(game, seat, answer, None, None, key_file, output, db, as_json)
        if output is not None or key_file is not None:
            raise BadInput("-o and --sign write a mailed command file, with --offline only; without it the entropy "
                           "is submitted now")
        result = open_app(db).entropy(game, seat, text)
    out(result, as_json, entropy_text(keep))


def entropy_file(game: str, seat: str) -> str:
    """Where SEAT keeps its entropy between commit and reveal unless told (--file), locally and remotely alike."""
    return f"{game}.{seat}.entropy"


@contextmanager
def kept_entropy(keep: Path, refused: tuple[type[BaseException], ...]) -> Iterator[tuple[str, bool]]:
    """The entropy kept in KEEP, and whether this call made the file: made (128 random bits, readable by its owner
    alone) before anything is committed, since a commitment whose entropy is lost can never be revealed. A failure
    of the kinds REFUSED (nothing appended) deletes the file it made; any other failure may follow the append (the
    answer lost on the way back), so the file then keeps the entropy of a recorded commitment (rev-q)."""
    made = not keep.exists()
    if made:
        with writing(keep):
            keep.touch(mode=0o600)
            keep.write_text(secrets.token_hex(16), encoding="utf-8")
    try:
        yield read_text(str(keep)).strip(), made
    except refused:
        if made:
            keep.unlink()
        raise


def entropy_text(keep: Path) -> Callable[[SubmitResult], str]:
    """`entropy`'s text, local or remote: the events of the answer, and where the entropy is kept."""
    return lambda r: "\n".join(event_lines(r.events)) + f"\n(entropy kept in {keep})"


def entropy_answer(listed: list[dict[str, Any]], head: Callable[[], int], game: str, seat: str, text: str, made: bool,
                   keep: Path, remedy: str) -> dict[str, Any]:
    """SEAT's answer to the entropy round as LISTED (its legal commands, in its copy or the server) awaits it: the
    commitment, or the reveal of the entropy kept since the commitment; HEAD, asked only for a refusal, and REMEDY
    its words after the head: what the reader of a copy, or of a server, does next."""
    kinds = {c["type"] for c in listed}
    if "reveal_entropy" in kinds:
        if made:
            raise BadInput(f"{keep} is not there: the round awaits the entropy you committed, kept in that file "
                           "(--file names another)")
        return {"type": "reveal_entropy", "entropy": text}
    if "commit_entropy" in kinds:
        return {"type": "commit_entropy", "commitment": rnd.entropy_commitment(text)}
    raise BadInput(f"{game} awaits no entropy from {seat} at #{head()} {remedy}")


# `reveal`'s own options, local and remote (`arbitro remote reveal`).
reveal_options = stacked(
    click.option("--reason", default="revealed by the umpire", show_default=True),
    click.option("--expose-hidden", is_flag=True,
                 help="Required before the game's end: you accept that every seat learns every roll and draw so far, "
                      "hidden ones included (and, in a game made before the salt key, every hidden fact; arbitro "
                      "§R.3)."))


@click.command()
@click.argument("game")
@reveal_options
@seat_option(required=False, default="umpire")
@db_option
@json_option
@handle_errors
def reveal(game: str, reason: str, expose_hidden: bool, seat: str, db: str, as_json: bool) -> None:
    """Reveal the game's dice seed (the umpire's act): from then on anyone can recompute every roll.

    BEFORE YOU DO IT: a reveal ENDS THE DICE IN GAME. Once the seed is public every later roll would be
    predictable, so GAME makes no further roll or draw (arbitro §R.3): to play on you must fork it
    (`arbitro fork GAME --at N`, a new game with a new secret seed), and the reveal cannot be undone. To
    settle a dispute without it, `arbitro roll GAME SEQ` shows how a roll was derived, and in a game made with
    --provable-rolls `arbitro roll GAME SEQ --prove` proves that one roll, keeping the seed secret (arbitro §R.5).

    AND IT SHOWS EVERY ROLL AND DRAW SO FAR, those a seat was not shown included (a die rolled out of its sight, a
    private draw: a hand): each is a function of the seed. Unseen moves and positions stay hidden: every salt and
    the position file's digest derive from the game's salt key, a second secret revealed only at the game's end
    (arbitro §V.3). A game made before the salt key (its genesis commits none, as every log made before
    2026-11-30) was salted by its seed: there a reveal shows every seat every hidden fact so far. Refused unless
    you say --expose-hidden.

    \b
    Example:
        arbitro reveal marengo-1a2b --reason "dispute over turn 7" --expose-hidden
        arbitro fork marengo-1a2b --at 412       (then: play on in the fork it prints)
    """
    result = open_app(db).reveal(game, reason, seat=seat, expose_hidden=expose_hidden)
    out(revealed(result, game, "arbitro fork"), as_json, lambda r: revealed_text(result, game, r))


def revealed(result: Revealed, game: str, fork: str) -> dict[str, Any]:
    """The reveal's answer, and the only way play goes on (arbitro §R.3): the fork command (FORK: the local or the
    remote one), beside the result's own fields."""
    return {**msgspec.to_builtins(result), "continue": f"{fork} {game} --at {result.head}"}


def revealed_text(result: Revealed, game: str, shown: dict[str, Any]) -> str:
    """`reveal`'s text, local or remote: the events, how to play on, and what the reveal exposed."""
    return "\n".join([*event_lines(result.events), f"{game} makes no further roll (arbitro §R.3). To play on, fork it: "
                      f"{shown['continue']}  (add --keep-dice to replay the same dice, for analysis)",
                      _sentence(EXPOSED.format(result.exposed))])


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


DICE_COMMANDS = (roll, entropy, reveal)
