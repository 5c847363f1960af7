"""Every key a Para Bellum seat's view serves under the fog of war is classified (bench/nifuzz_view.py): public (the
same bytes in both seats' views), own, or redacted; and every field of a piece it shows, examined (shown of an
enemy piece in sight) or own. The non-interference fuzzer judges a view difference by that class, so a key served
unclassified fails here until someone says what it is; a class that is wrong (a public key that differs between
the seats, an own field served of an enemy piece) fails too. Positions of the shipped fog logs of both games; and
the top-level keys of Marengo's, Monferrato's and Caricat's views, at positions of their shipped logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections import parabellum as PB
from arbitro.projections.views import seat_view
from bench.nifuzz import Game, replayed
from bench.nifuzz_view import ENGINE_KEYS, EXAMINED, OWN, PIECE_FIELDS, PUBLIC, REDACTED, STATE_KEYS

LOGS = Path(__file__).resolve().parents[2] / "logs"
FOG_LOGS = ("caldiero-tempo-regge-fog", "arrivano-montebello-options")
EVERY = 97  # positions sampled in each log: a few dozen, set-up to the end


@pytest.fixture(scope="module")
def positions() -> list[tuple[str, Game, Any]]:
    """Each sampled position of each fog log: its name and command, its game, its state."""
    out = []
    for name in FOG_LOGS:
        game: Game = replayed(LOGS / f"{name}.jsonl")
        out += [(f"{name} #{cmd}", game, state) for cmd, _, _, state in game.positions[::EVERY]]
    return out


@pytest.fixture(scope="module")
def views(positions: list[tuple[str, Game, Any]]) -> list[tuple[str, dict[str, dict[str, Any]], dict[str, set[str]]]]:
    """Of each sampled position: its name, each seat's view, and each seat's enemy pieces (units and commanders)."""
    out = []
    for where, game, state in positions:
        seats = game.ruleset.seats(state.rules)
        assert all(game.ruleset.fogged(state.rules, s) for s in seats)
        out.append((where, {s: seat_view(game.ruleset, state, s) for s in seats},
                    {s: {p for p, x in (*state.rules.units.items(), *state.rules.leaders.items()) if x.side != s}
                     for s in seats}))
    return out


def test_every_key_of_a_view_is_classified(views: list[Any]) -> None:
    served = {(part, k) for _, by_seat, _ in views for v in by_seat.values() for part in ("state", "engine")
              for k in v[part]}
    classified = {("state", k) for k in STATE_KEYS} | {("engine", k) for k in ENGINE_KEYS}
    assert served - classified == set(), "a view key nobody classified: say what it is in bench/nifuzz_view.py"
    assert classified - served == set(), "a classified key no view serves any more: take it out"


def test_every_field_of_a_piece_in_a_view_is_classified(views: list[Any]) -> None:
    for pieces, fields in PIECE_FIELDS.items():
        served = {f for _, by_seat, _ in views for v in by_seat.values() for x in v["state"][pieces].values()
                  for f in x}
        assert served - set(fields) == set(), f"a field of {pieces} nobody classified (bench/nifuzz_view.py)"


def test_a_public_key_is_the_same_in_both_seats_views(views: list[Any]) -> None:
    public = [k for k, (kind, _) in STATE_KEYS.items() if kind == PUBLIC]
    engine = [k for k, (kind, _) in ENGINE_KEYS.items() if kind == PUBLIC]
    for where, by_seat, _ in views:
        a, b = by_seat.values()
        assert [a["state"].get(k) for k in public] == [b["state"].get(k) for k in public], where
        assert [a["engine"].get(k) for k in engine] == [b["engine"].get(k) for k in engine], where


def test_an_enemy_piece_shows_only_what_examining_it_shows(views: list[Any]) -> None:
    for where, by_seat, enemy in views:
        for seat, v in by_seat.items():
            for pieces, fields in PIECE_FIELDS.items():
                own_only = {f for f, (kind, _) in fields.items() if kind != EXAMINED}
                shown = {f for p, x in v["state"][pieces].items() if p in enemy[seat] for f in x}
                assert shown & own_only == set(), f"{where}: {seat} is served an enemy piece's own fields"


def test_a_seat_s_own_pieces_are_served_whole_and_without_fog_every_piece(positions: list[Any]) -> None:
    """Under the fog a seat's view holds each of its own units and commanders, wherever they are (its pieces to
    come included), each with every field its state serves; with no fog (`examinable` None) every piece of both
    sides, whole (projections/parabellum.view)."""
    for where, game, state in positions:
        rules = state.rules
        for seat in game.ruleset.seats(rules):
            served = seat_view(game.ruleset, state, seat)["state"]
            for pieces, fields in (("units", type(rules).unit_served), ("leaders", type(rules).leader_served)):
                own = {p: x for p, x in getattr(rules, pieces).items() if x.side == seat}
                assert {p: sorted(served[pieces][p]) for p in own if p in served[pieces]} == dict.fromkeys(
                    own, sorted(fields)), f"{where}: {seat}'s own {pieces}"
            clear = PB.view(rules, seat, None)
            assert set(clear["units"]) == set(rules.units) and set(clear["leaders"]) == set(rules.leaders), where
            assert all(set(x) == set(type(rules).unit_served) for x in clear["units"].values()), where


def test_an_own_key_serves_the_seat_s_side_alone(views: list[Any], positions: list[Any]) -> None:
    """An own key's entries are the seat's side's, all of them: Arrivano's independent columns and march orders
    (§16.2, §17.1.5), the activation's record but for which formation (rev-l L8); the formations' markers public,
    whole."""
    for (where, by_seat, _), (_, game, state) in zip(views, positions):
        rules = state.rules
        for seat, v in by_seat.items():
            served = v["state"]
            columns = getattr(rules, "columns", {})
            assert set(served.get("columns", {})) == {o for o in columns if rules.leaders[o].side == seat}, where
            assert served["formations"] == msgspec.to_builtins(rules.formations), where  # public: whole
            assert all(game.ruleset.march_side(rules, m) == seat for m in served.get("march_orders", {})), where
            act = rules.activation
            if act is not None and rules.formations[act.formation].side != seat:
                assert served["activation"] == {"formation": act.formation}, where


# The other games' views, by their top-level keys (their fuzzer is none: each game's leak tests hold): Marengo's
# blocks (marengo §4: the enemy's face down, by token), Monferrato's hands (an allow-list, projections/monferrato.py);
# Caricat has no fog, every key public.
MARENGO_OWN = {"blocks"}
MARENGO_REDACTED = {"enemy_blocks", "enemy_reinforcements_waiting", "enemy_eliminated"}
OTHER_KEYS: dict[str, dict[str, set[str]]] = {
    "marengo-full": {
        OWN: MARENGO_OWN, REDACTED: MARENGO_REDACTED,
        PUBLIC: {"round", "hour", "rounds", "turn", "phasing", "step", "game_over", "winner", "result", "morale",
                 "demoralised", "commands_used", "road_use", "pontoon_used", "bombardments", "closed_approaches",
                 "closed_zones", "assaulted_approaches", "activation_left", "enemy_entered_at_start"}},
    "monferrato-full": {
        OWN: {"hand"}, REDACTED: set(),
        PUBLIC: {"activated_commands", "activation", "arrived", "chit_cup_size", "chosen_fire", "cup", "discards",
                 "fort_counters", "forts", "fresh_mines", "hand_sizes", "last_turn", "mine_owner", "mines", "morale",
                 "phase", "prudence", "public_in_hand", "raided", "red_aside_size", "removed", "result", "scheduled",
                 "towns_destroyed", "turn", "units", "vp", "walls", "winner"}},
    "caricat-pastrengo-options": {
        OWN: set(), REDACTED: set(),
        PUBLIC: {"activation", "activation_kind", "activation_level", "bridge_destroyed", "control", "costs", "done",
                 "interpretations", "last_turn", "leaders", "options", "passes", "phase", "result", "scenario", "seat",
                 "serial", "turn", "units", "used", "vp"}},
}


@pytest.mark.parametrize("name", sorted(OTHER_KEYS))
def test_every_key_of_another_game_s_view_is_classified(name: str) -> None:
    """Every key each seat's view serves at a few positions of the game's shipped log is classified, and a public
    key serves both seats the same bytes."""
    app = Arbitro(SQLiteStore(":memory:"))
    with open(LOGS / f"{name}.jsonl", encoding="utf-8") as f:
        game = app.import_lines(f, name, seat="umpire")
    replayer, state, sampled = app.replayer(game), None, []
    for n, body in enumerate(replayer.bodies(), 1):
        state = replayer.fold.apply(state, body, replayer.state_at)
        if n % 400 == 0:
            sampled.append(replayer.fold.copy(state))
    classes = OTHER_KEYS[name]
    classified = set().union(*classes.values())
    for position in sampled:
        a, b = (seat_view(replayer.fold.ruleset, position, s)["state"]
                for s in replayer.fold.ruleset.seats(position.rules))
        assert set(a) | set(b) == classified, f"{name}: a key nobody classified, or one no view serves"
        assert {k: a[k] for k in classes[PUBLIC]} == {k: b[k] for k in classes[PUBLIC]}, name
