"""nifuzz (seventeenth session, found by bench/nifuzz.py's twin commands on logs/caldiero-tempo-regge-fog.jsonl #4):
under fog (caldiero §20.4) a piece France places at set-up (caldiero §21) out of Austria's sight is served to Austria
as a stub, but the stub's type is the event's, `unit_placed` or `leader_placed`: Austria learns whether the unseen
piece placed was a unit or a commander, where its view (the markers) is the same either way (a commander alone
makes no marker; here the unit joins a stack already marked). Minor: it tells which kind of piece, not where."""

from __future__ import annotations

from pathlib import Path

from bench.nifuzz import play, replayed
from bench.served import served

LOG = Path(__file__).resolve().parents[2] / "logs" / "caldiero-tempo-regge-fog.jsonl"


def test_a_placement_out_of_sight_does_not_tell_a_unit_from_a_commander() -> None:
    game = replayed(LOG)
    cmd, seat, _, before = next(p for p in game.positions if p[0] == 4)
    assert (seat, before.rules.step) == ("france", "setup")
    unit = {"type": "place", "piece": "fr-18-ligne", "hex": "1118"}
    commander = {"type": "place", "piece": "augereau", "hex": "1012"}
    assert game.ruleset.unexaminable(before.rules, "austria", ["1118", "1012"]) == {"1118", "1012"}
    made = [play(game, before, seat, c) for c in (unit, commander)]
    assert all(m.result == ("accepted",) for m in made)
    served_unit, served_commander = (served(game.ruleset, game.engine.fold, before, [(seat, m.events)], "austria")
                                     for m in made)
    assert served_unit == served_commander
