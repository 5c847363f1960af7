"""Rewrite a recorded log under this build: its command list played again, in order, from its revealed seed.

When the engine's or a ruleset's events change but the games played do not (the same commands mean the same
moves), a log is re-adjudicated rather than played anew: the command list, and so bench/fingerprints.py's record
of it, stays the same, and the new events are what this build makes of the same game.

    python -m bench.drivers.relog logs/marengo-full.jsonl [more.jsonl ...]     # rewrites each file in place

The rewrite keeps the recorded times (the game's creation, each command's arrival) and exports with no server
key (a generated log has no receipts to check it against), so a log whose events this build makes alike is
rewritten byte for byte: `git diff logs/` after a relog shows exactly what a change did to the games.

A command this build refuses stops the rewrite with its number and the refusal (exit 1): the games differ in
meaning then, and the log must be played again by its own driver instead, or translated.

A log with signing keys (arbitro §L.6) is relogged as it was played: a seat's `register_key` is a chained command,
played again; a signed command is sent again with its recorded signature, which covers the game's id, the seat,
the head, the idempotency key and the command, all the same in a relog in place; the umpire's `withdraw_key` is
sent again without what the server filled in from the registration it held (its `first_cmd`, `last_cmd`), which
the relog's server, holding the same registration, fills in alike. A translation that moves or changes a signed
command cannot be signed again without the seat's private key: it stops, saying so.

    python -m bench.drivers.relog --translate bench.drivers.my_change:translate logs/arrivano-*.jsonl

`--translate MODULE:FUNCTION` names a command translator for a change of what commands mean (an answer's shape,
a step that now ends by itself): before each recorded command is submitted, `FUNCTION(app, game_id, seat,
command)` returns the `(seat, command)` pairs that play it under this build, in order: `[(seat, command)]` to
keep it, `[]` to drop it (e.g. an `end_step` the step no longer waits for), several to insert (e.g. an `end_step`
it now waits for, whichever seat owes it), or a command of a new shape. It may read the game as it stands (`app.legal(game_id, seat)`, `app.view(...)`); a generator is asked for each pair after the previous one was submitted
(bench/drivers/foglog.py).
A translated log is the same game under this build's words: say in the commit which translator made it, and
record the command lists again (`bench/fingerprints.py record`). A translator that must know what the recorded game
did (its events) may have a `start(records)` method: it is given the file's records before the first command.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import ArbitroError
from arbitro.adjudicator.signing_keys import FILLED
from arbitro.adjudicator.service import Arbitro
from bench.drivers import write_log
from arbitro.events import core
from arbitro.events.codec import to_builtins
from arbitro.events.sqlite import SQLiteStore


class RecordedClock:
    """The service's clock during a relog: the time recorded for what is being played again."""

    def __init__(self, time: str) -> None:
        self.time = time

    def __call__(self) -> str:
        return self.time


Translator = Callable[[Arbitro, str, str, dict[str, Any]], Iterable[tuple[str, dict[str, Any]]]]


def keep(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The translator of an unchanged vocabulary: every recorded command as it was."""
    return [(seat, command)]


def load_translator(spec: str) -> Translator:
    """`module:function` -> the function (the `--translate` option)."""
    module, _, name = spec.partition(":")
    if not module or not name:
        raise SystemExit(f"--translate {spec!r}: expected MODULE:FUNCTION, e.g. bench.drivers.my_change:translate")
    return getattr(importlib.import_module(module), name)


def relog(path: Path, translate: Translator = keep, *, to: Path | None = None, options: tuple[str, ...] = ()) -> int:
    """Rewrite `path` (or write the game to `to`, named by its stem, with `options` added to the recorded ones);
    returns the number of commands played again."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    game = next(r for r in records if r["record"] == "game")
    if game.get("seed") is None:
        raise SystemExit(f"{path}: the seed is not in the file; only a log exported with its seed can be re-adjudicated")
    first = next(r for r in records if r["record"] == "event" and r["body"]["seq"] == 1)["body"]["event"]
    if options:  # as the service's genesis lists them (creation.genesis: sorted)
        first = {**first, "options": sorted({*first["options"], *options})}
    ruleset = registry.get(game["ruleset"])
    own = first["origin"].get("data")  # a user's data folder the genesis carries
    fresh: dict[str, Any] = {"version": ruleset.version, "data_hash": ruleset.data_hash(own)}
    if "scenario" in first["origin"]:  # the scenario's set-up as this build makes it (the state may have changed shape)
        with ruleset.using_data(own):
            fresh["initial"] = to_builtins(ruleset.adopt_data(ruleset.new_state(first["scenario"], tuple(first["options"])), own))
            fresh["provisional"] = list(ruleset.provisional(first["scenario"]))
    created = msgspec.convert({**first, **fresh}, core.GameCreated)
    commands = [r for r in records if r["record"] == "command" and r["cmd"] > 0]
    start = getattr(translate, "start", None)
    if start is not None:
        start(records)
    clock = RecordedClock(game["created_at"])
    app = Arbitro(SQLiteStore(":memory:"), wall_clock=clock)
    gid = app.start_recorded(created, game["seed"], to.stem if to else game["id"],  # the recorded seed, not a new one
                             salt_key=game.get("salt_key"))  # and salt key (none in a log made before it)
    taken = {r["body"]["key"] for r in commands}  # a key a recorded command keeps (an earlier translation's too)
    for record in commands:
        body = record["body"]
        clock.time = body["received_at"]
        for n, (seat, command) in enumerate(translate(app, gid, body["seat"], body["command"])):
            key = body["key"] if n == 0 else _new_key(f"{body['key']}/{n}", taken)  # a command of its own: its own key
            signed = _signed(record, seat, command)
            try:
                app.submit(gid, seat, resubmitted(command), key=key, **signed)
            except ArbitroError as e:
                raise SystemExit(f"{path}: command {body['cmd']} ({seat}: {json.dumps(command)}) is "
                                 f"refused by this build: {e}{_why_signed(record, seat, gid, game['id'])}") from None
    write_log(to or path, app, gid)
    return len(commands)


def resubmitted(command: Any) -> Any:
    """A recorded command as its sender sends it again: a key withdrawal without what the server filled in from the
    registration it held (signing_keys.FILLED; it is refused when sent), which the relog's server, holding the
    same registration at the same point, fills in again alike."""
    if isinstance(command, dict) and command.get("type") == "withdraw_key":
        return {k: v for k, v in command.items() if k not in FILLED}
    return command


def _signed(record: dict[str, Any], seat: str, command: Any) -> dict[str, Any]:
    """A recorded signed command's signature and the head it covers (arbitro §L.6), sent again with it: the relog's
    server holds the seat's key in force then (its registration, a chained command, was played again before it) and
    requires a signature. Nothing for an unsigned command, nor for one a translator inserted or changed."""
    signature = record.get("signature")
    body = record["body"]
    if not signature or seat != body["seat"] or command != body["command"]:
        return {}
    return {"signature": signature["signature"], "expected_seq": body["expected_seq"]}


def _why_signed(record: dict[str, Any], seat: str, gid: str, recorded_id: str) -> str:
    """What a refusal of a recorded signed command (sent by its seat, as recorded or as translated) means in a relog:
    the seat's private key is not here to sign it again, so it can be sent only as it was signed."""
    if not record.get("signature") or seat != record["body"]["seat"]:
        return ""
    body = record["body"]
    moved = f"; this relog's game is {gid}, not {recorded_id}" if gid != recorded_id else ""
    return (f" (command {body['cmd']} was signed by {body['seat']}: its signature covers the game's id, the seat, "
            f"the head #{body['expected_seq']}, the idempotency key {body['key']!r} and the command{moved}; a relog "
            "that changes any of them, as a translator inserting or changing commands before it does, cannot sign "
            "it again without the seat's private key, arbitro §L.6: play the log again by its driver)")


def _new_key(key: str, taken: set[str]) -> str:
    """The idempotency key of the n-th command a translator plays for a recorded one (`K/n`), made unique: a log
    translated before holds keys `K/1` of its own (the recorded command after an insertion), which a second
    translation inserting after `K` must not hand out again (the relog stopped with KeyReused)."""
    while key in taken:
        key += "+"
    taken.add(key)
    return key


def main(argv: list[str]) -> None:
    translate: Translator = keep
    if argv[:1] == ["--translate"]:
        if len(argv) < 2:
            raise SystemExit("--translate needs MODULE:FUNCTION")
        translate, argv = load_translator(argv[1]), argv[2:]
    if not argv:
        raise SystemExit(__doc__)
    for name in argv:
        print(f"{name}: {relog(Path(name), translate)} commands re-adjudicated")


if __name__ == "__main__":
    main(sys.argv[1:])
