"""The command line's store commands: `arbitro migrate`, which moves games between a SQLite file and a
PostgreSQL database (docs/stores.md)."""

from __future__ import annotations

import sys

import click
import msgspec

from arbitro.adjudicator.migration import Moved, migrate as migrate_games
from arbitro.adjudicator.cli_common import json_option, handle_errors, open_location, out
from arbitro.events.stores import describe


@click.command()
@click.option("--from", "source", required=True, metavar="PATH|URL",
              help="The store the games are in: a SQLite file (PATH or sqlite:PATH) or a postgresql:// URL.")
@click.option("--to", "target", required=True, metavar="PATH|URL",
              help="The store to move them to (made if it does not exist); the games stay in the source too.")
@click.option("--game", "games", multiple=True, metavar="GAME", help="Only this game (repeatable); default: all.")
@json_option
@handle_errors
def migrate(source: str, target: str, games: tuple[str, ...], as_json: bool) -> None:
    """Copy games from one store to another byte for byte (every event, command, note, key, signature, snapshot
    and token hash as stored), then check each in the target: equal to the source, its chain intact, and
    verified by re-adjudication. A game already in the target and equal is left as it is, so an interrupted
    migration is run again; a different game under the same id stops it before anything moves. Exit 0 when
    every game checks, 1 otherwise.

    \b
    Example:
        arbitro migrate --from sqlite:club.db --to postgresql://arbitro@db.example/arbitro
        arbitro migrate --from postgresql://arbitro@db.example/arbitro --to backup.db --game marengo-1a2b
    """
    moved = migrate_games(open_location(source, "read"), open_location(target, "create"), games or None,
                          lambda game, i, n: click.echo(f"[{i}/{n}] {game}: copying and checking", err=True))
    result = {"from": describe(source), "to": describe(target), "ok": all(m.ok for m in moved),
              "games": [{**msgspec.to_builtins(m), "ok": m.ok} for m in moved]}
    out(result, as_json, lambda r: "\n".join([*(_line(m) for m in moved), _summary(r, moved)]))
    if not result["ok"]:
        sys.exit(1)


def _line(m: Moved) -> str:
    checks = ["identical" if m.identical else "DIFFERS from the source",
              "chain intact" if not m.problems else "PROBLEMS: " + "; ".join(m.problems),
              "verified" if m.verified else f"VERIFY FAILED: {m.verify_detail}"]
    return f"{m.game}: {m.status}, {m.events} events, {m.commands} commands, {m.notes} notes; {', '.join(checks)}"


def _summary(r: dict[str, object], moved: list[Moved]) -> str:
    fresh = sum(m.status == "moved" for m in moved)
    verdict = "all checked" if r["ok"] else f"{sum(not m.ok for m in moved)} FAILED their checks"
    return f"{fresh} of {len(moved)} games moved from {r['from']} to {r['to']} ({len(moved) - fresh} already there); {verdict}"


STORE_COMMANDS = (migrate,)
