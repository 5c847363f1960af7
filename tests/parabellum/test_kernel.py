"""The kernel's shared rules, run for both variants: what the books share gives the same answer, what they
differ on comes from the variant's data or hook (D-n of the difference catalogue), never from a game name."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import cast

import msgspec
import pytest
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import assault, command, data, efficiency, initiative, world, zoc
from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.tables import CombatTable, Modifier, sum_modifiers
from tests.parabellum.position import Position
from tests.parabellum.test_movement import TABLE as MOVES

KERNEL = Path(__file__).resolve().parents[2] / "adjudicator" / "parabellum"
GAMES = {"caldiero", "arrivano"}

TABLE = CombatTable(name="crt", title="test", provisional=True, columns_are="odds",
                    columns=("1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"),
                    rows={str(r): tuple("Ae" if r < 4 else "De" for _ in range(10)) for r in range(-3, 11)},
                    results={"Ae": "attacker eliminated", "De": "defender eliminated"})


def test_efficiency_natural_results_override_the_value(variant: Variant) -> None:
    """caldiero §13.1.1, arrivano §13.1.1: a natural 1 passes even below the value, a natural 6 fails even above."""
    assert efficiency.passes(variant, 1, 0, die_modifier=5)
    assert not efficiency.passes(variant, 6, 9)
    assert efficiency.passes(variant, 3, 4, die_modifier=1) and not efficiency.passes(variant, 4, 4, die_modifier=1)


def test_most_sp_values_offer_every_tied_value(variant: Variant) -> None:
    """§12.3.1 in both books: the value carrying the most SP; a tie is the owner's choice among the tied."""
    assert efficiency.most_sp_values([(3, 4), (4, 2), (4, 2)]) == [3, 4]
    assert efficiency.most_sp_values([(3, 4), (4, 3)]) == [3]


def test_initiative_tie_is_the_variant_hook(variant: Variant) -> None:
    """D13: caldiero §6 re-rolls a tie (unless its reading `initiative_tie` says French), arrivano §6.1.1 gives it to
    the French. The higher total wins in both."""
    def ruled(reading: str, tie_winner: str = "france") -> Position:
        return Position({}, readings={"initiative_tie": reading}, tie_winner=tie_winner)

    assert initiative.winner(variant, {"france": 3, "austria": 5}, ruled("")) == "austria"
    tie = {"france": 4, "austria": 4}
    assert initiative.winner(variant, tie, ruled("french")) == "france"
    expected = variant.initiative_tie_winner(ruled("reroll"))
    assert initiative.winner(variant, tie, ruled("reroll")) == expected
    assert expected == ("france" if variant.book == "arrivano" else None)
    # arrivano §6.1.1 as its scenario file's `initiative_tie_winner` says (a user's folder may give it to Austria)
    assert initiative.winner(variant, tie, ruled("reroll", "austria")) == ("austria" if variant.book == "arrivano" else None)


def shipped_crt(variant: Variant) -> CombatTable:
    """The variant's CRT as its shipped data file gives it (crt.json: the rows, D23's cap and excess odds)."""
    path = KERNEL.parent / variant.book / "data" / "tables" / "crt.json"
    return assault.crt(variant, data.CombatTable.model_validate_json(path.read_text(encoding="utf-8")))


def test_excess_odds_are_the_crt_files_data(variant: Variant) -> None:
    """D23: 14-2 is one level above 6-1; caldiero §12.4.3 adds +1 a level, arrivano §12.4.3 nothing (each book's
    crt.json, `excess_odds_drm_per_level`)."""
    odds = assault.odds(shipped_crt(variant), 14, 2)
    assert odds.column.label == "6-1" and odds.column.beyond_high == 1
    assert odds.excess_drm == {"caldiero": 1, "arrivano": 0}[variant.book]
    assert assault.odds(TABLE, 14, 2).excess_drm == 0  # a table that gives none adds none
    assert assault.odds(shipped_crt(variant), 1, 6).below_minimum  # §12.4.2 in both


def test_modifier_cap_is_four_in_both_books(variant: Variant) -> None:
    """§12.5.2 in both: the total die modifier never beyond +/-4 (each book's crt.json, `drm_cap`)."""
    cap = shipped_crt(variant).modifier_cap
    assert [sum_modifiers([Modifier('drm', t)], cap)[0] for t in (-7, -4, 0, 4, 9)] == [-4, -4, 0, 4, 4]


def game_reads(source: str, name: str) -> list[str]:
    """Places in kernel code that test a game's name or read a variant's book or a profile in a decision."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare | ast.MatchValue | ast.If | ast.IfExp | ast.Dict):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value.lower() in GAMES:
                    found.append(f"{name}:{sub.lineno} compares with {sub.value!r}")
                if isinstance(sub, ast.Attribute) and sub.attr in ("book", "game", "profile"):
                    found.append(f"{name}:{sub.lineno} branches on .{sub.attr}")
    return found


def test_the_kernel_never_asks_which_game_it_runs() -> None:
    """Issue 18: no game names and no profile flags in the kernel's decisions; differences are variant data or
    hooks. The scanner itself catches a `variant.book == "caldiero"` test, a dict keyed by game, a profile flag."""
    offenders = [hit for path in sorted(KERNEL.rglob("*.py"))
                 for hit in game_reads(path.read_text(encoding="utf-8"), path.name)]
    assert not offenders, offenders
    assert game_reads('x = 1 if variant.book == "x" else 2', "probe")
    assert game_reads('cap = {"caldiero": 1, "arrivano": 0}[v]', "probe")
    assert game_reads("if w.profile.has_weather:\n    pass", "probe")


HOOKS = sorted(n for n, v in vars(Variant).items() if callable(v) and not n.startswith("_") and n != "cite")


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_cites_its_catalogue_entry_and_both_books(hook: str) -> None:
    """A hook's docstring names its catalogue entry (D-n) and the rule in both books; its default is neutral."""
    doc = getattr(Variant, hook).__doc__ or ""
    assert re.search(r"\bD\d+", doc) and "caldiero §" in doc and "arrivano §" in doc, doc
    assert "eutral" in doc


def test_the_neutral_defaults() -> None:
    neutral = Variant()
    assert neutral.initiative_tie_winner(Position({}, readings={"initiative_tie": "french"})) is None
    assert neutral.ne_passes([[True], [True]]) and not neutral.ne_passes([[True, False]])
    assert neutral.road_costs(Position({}, readings={"road_cost_scope": "march_column_only"}), MOVES) is MOVES  # D40: the data's table as given


class NoDice:
    """A game whose dice and events a neutral hook must never touch."""

    def roll(self, purpose: str, detail: dict[str, str | int], count: int = 1,
             about: tuple[str | None, ...] = ()) -> tuple[int, ...]:
        raise AssertionError(f"a neutral hook rolled: {purpose}")

    def emit(self, event: object) -> None:
        raise AssertionError(f"a neutral hook emitted {event!r}")


def test_the_neutral_assault_hooks_roll_nothing_and_shift_no_column() -> None:
    """D29-D30: no Elan and no column but the terrain's by default (arrivano §12.5.1); Caldiero's own (§16.1, §17,
    §20.5) are its overrides, pinned by its logs and tests/caldiero."""
    notes: list[str] = []
    w = cast(world.World, None)  # the neutral hooks read nothing of the game
    assert Variant().elan_columns(NoDice(), w, "u", notes) == 0
    assert Variant().assault_column_shifts(NoDice(), w, ["u"], ["1612"], "austria", notes) == (0, 0)
    assert notes == []


GRID = Grid(orientation="flat-top", shifted="odd", first_column=10, last_column=27, first_row=1, last_row=21)


def test_contiguity_chains_from_units_in_range_and_anchors(variant: Variant) -> None:
    """caldiero §4.3.2 (line of battle), arrivano §4.4.2 (contiguity): a unit next to one in command is in command,
    transitively; a gap breaks the chain unless an anchor (arrivano's relaying officer, D3/D4) bridges it."""
    hex_of = {"a": "1612", "b": "1613", "c": "1614", "d": "1616", "e": "1612"}
    assert command.contiguous(GRID, hex_of, ["a"]) == {"a", "b", "c", "e"}
    assert command.contiguous(GRID, hex_of, ["a"], anchors=["1615"]) == set(hex_of)
    assert command.contiguous(GRID, hex_of, []) == set()
    backwards = dict(reversed(list(hex_of.items())))
    assert command.contiguous(GRID, backwards, ["a"]) == command.contiguous(GRID, hex_of, ["a"])


def test_zoc_projects_into_a_hex_except_closed_terrain(variant: Variant) -> None:
    """§12.2.1 in both: the enemy hexes whose units exert a ZoC into h; none into a fortress (caldiero §10.5.1) or a
    redoubt (arrivano §8); only the exerting units count (§15: good order)."""
    exerting = {"1613", "1712", "1510"}  # 1510 is not adjacent to 1612
    found = zoc.projecting_into(GRID, "1612", lambda h: False, lambda n: n in exerting)
    assert found == ["1613", "1712"]
    assert zoc.projecting_into(GRID, "1612", lambda h: h == "1612", lambda n: n in exerting) == []
    assert zoc.zoc_hexes(GRID, ["1612"], lambda h: h == "1613") == frozenset(GRID.neighbours("1612")) - {"1613"}


def test_units_block_sight_only_where_the_variant_says(variant: Variant) -> None:
    """D18, §11.3.1 in both: a unit between the ends blocks in caldiero, never in arrivano; blocking terrain and
    ground higher than both ends block in both."""
    flat = {"1612": 0, "1613": 0, "1614": 0}

    def line(terrain: set[str], occupied: set[str], heights: dict[str, int] = flat) -> bool:
        cells = world.line_cells(GRID, "1612", "1614", lambda h: heights.get(h, 0), lambda h: h in terrain)
        return world.units_clear(variant, cells, lambda h: h in occupied)

    assert line(set(), set())
    assert line(set(), {"1613"}) is (not variant.units_block_sight)
    assert line(set(), {"1613"}) is {"caldiero": False, "arrivano": True}[variant.book]
    assert not line({"1613"}, set())
    assert not line(set(), set(), {"1612": 1, "1613": 2, "1614": 0})
    assert line(set(), set(), {"1612": 2, "1613": 2, "1614": 0})


def test_ne_under_attack_is_the_variant_hook(variant: Variant) -> None:
    """D25: caldiero §12.5.4 "se passa il test" (every attacking unit), arrivano §12.5.4 "se almeno una unità passa"."""
    mixed = [[True, False], [True]]
    assert variant.ne_passes([[True], [True, True]])
    assert not variant.ne_passes([[False], [False, False]])
    assert variant.ne_passes(mixed) is {"caldiero": False, "arrivano": True}[variant.book]


def test_leader_loss_is_each_book_s_data() -> None:
    """D10: caldiero §4.4.3 loses a commander unless the die beats his initiative (a chief's counts as 1); arrivano
    §4.5.3 on 1-2 for every kind (each book's tables/rules.json `leader_loss`). A die of 1 loses in both; a 6 never does."""
    books = {"caldiero": [CALDIERO_DATA.shipped().tables.rules.leader_loss],
             "arrivano": [ARRIVANO_DATA.shipped().tables.rules.leader_loss]}
    for book, losses in books.items():
        for loss in losses:
            assert loss.lost(1, "general", 2) and not loss.lost(6, "general", 3)
            lost = [loss.lost(d, "general", 3) for d in range(1, 7)]
            assert lost == {"caldiero": [True] * 3 + [False] * 3, "arrivano": [True] * 2 + [False] * 4}[book]
            chief = [loss.lost(d, "commander_in_chief", 4) for d in range(1, 7)]
            assert chief == {"caldiero": [True] + [False] * 5, "arrivano": [True] * 2 + [False] * 4}[book]
            assert loss.rule == f"{book} §{'4.4.3' if book == 'caldiero' else '4.5.3'}"


def test_each_variant_cites_every_kernel_concept_in_its_own_book(variant: Variant) -> None:
    """A kernel rule cites `variant.rules.X`: every concept is a Rule of the variant's book, and the books' own
    numbering shows through (command range: caldiero §4.3, arrivano §4.4)."""
    rules = msgspec.structs.asdict(variant.rules)
    assert rules and all(r.game == variant.book for r in rules.values()), rules
    assert str(variant.rules.COMMAND_RANGE) == {"caldiero": "caldiero §4.3", "arrivano": "arrivano §4.4"}[variant.book]
    with pytest.raises(TypeError, match="COMMAND_RANGE"):  # a rulebook lacking a concept is refused at import
        Rulebook(**{k: v for k, v in rules.items() if k != "COMMAND_RANGE"})
