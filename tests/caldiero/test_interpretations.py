"""Each interpretation's other reading, as an umpire ruling would switch it (docs/rulesets/caldiero.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.system_movement import step_cost
from arbitro.adjudicator.errors import IllegalCommand, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.events import caldiero as ev
from tests.caldiero.harness import RULESET, activate, position
from tests.caldiero.test_combat import attack


def test_every_interpretation_has_a_default_among_its_choices() -> None:
    for item in RULESET.interpretations().values():
        assert item.default in item.choices and len(item.choices) >= 2 and item.rule.startswith("caldiero") and item.phrase


@pytest.mark.parametrize("reading", ["exempt", "auto_ae"])
def test_forced_attack_below_1_5(reading: str) -> None:
    state = position({"fr-9-dragons": "1417", "au-colloredo": "1517", "au-hungarian": "1517"},
                     leaders={"massena": "1317"}, orders={"massena": "attack"})
    state.units["fr-9-dragons"].reduced = True  # 1 SP against 8: worse than 1-5
    t = activate(state, "massena", step="combat", interpretations={"forced_attack_below_1_5": reading})
    if reading == "exempt":
        t.send("france", {"type": "end_step"})
        assert t.state.activation is None or t.state.activation.formation != "massena"
    else:
        with pytest.raises(IllegalCommand) as e:
            t.send("france", {"type": "end_step"})
        assert e.value.rule == "caldiero §5.1.2"
        t.send("france", {"type": "attack", "attackers": ["fr-9-dragons"], "defenders": ["1517"]})
        resolved = t.of(ev.AssaultResolved)[0]  # §12.4.2, cited as the rule applied (as arrivano's: resolution.fight)
        assert (resolved.result, resolved.rule, resolved.automatic) == ("Ae", "caldiero §12.4.2", "caldiero §12.4.2")


@pytest.mark.parametrize("reading", ["strength_ratio", "after_terrain"])
def test_below_1_5_declared_on(reading: str) -> None:
    """caldiero §12.4.2 "rapporti peggiori di 1-5": 1 SP against 5 in a village is the 1-5 column by the strengths
    (declared by default), worse than 1-5 once the village's column left is counted (`after_terrain`, Arrivano's
    default reading of the same words)."""
    state = position({"fr-carabiniers": "2219", "au-2-banater": "2119", "au-mahoney-jager": "2119"},
                     leaders={"massena": "2218"}, orders={"massena": "advance"})
    state.units["fr-carabiniers"].reduced = True  # 1 SP against 3 + 2
    t = activate(state, "massena", step="combat", interpretations={"below_1_5_declared_on": reading})
    attack = {"type": "attack", "attackers": ["fr-carabiniers"], "defenders": ["2119"]}
    if reading == "after_terrain":
        with pytest.raises(IllegalCommand) as e:
            t.send("france", attack)
        assert e.value.rule == "caldiero §12.4.2" and "1 column(s) left" in str(e.value)
        assert not [c for c in t.legal("france") if c["type"] == "attack"]
    else:
        t.send("france", attack)
        assert t.of(ev.AssaultDeclared)[-1].targets == ("2119",)



def test_below_1_5_after_terrain_counts_the_shift_the_resolution_applies() -> None:
    """caldiero §12.4.2 under `after_terrain`, §14.0 under `cavalry_in_fortress=drm_instead_of_shift`: cavalry alone
    in the fortress costs the attacker -1 DRM, not the fortress's 2 columns left, so 1 SP against 5 stays the 1-5
    column, the one the assault resolves on, and may be declared."""
    state = position({"fr-5-dragons": "1612", "au-stab-dragoner": "1712", "au-wurmser-hussars": "1712",
                      "au-meszaros-uhlans": "1712"}, leaders={"augereau": "1512"}, orders={"augereau": "advance"})
    state.units["fr-5-dragons"].attached = "augereau"  # the French reserve, joined for the turn (§15.4.3)
    state.units["fr-5-dragons"].reduced = True  # 1 SP
    state.units["au-meszaros-uhlans"].reduced = True  # against 2 + 2 + 1
    t = activate(state, "augereau", step="combat", interpretations={"below_1_5_declared_on": "after_terrain",
                                                                   "cavalry_in_fortress": "drm_instead_of_shift"})
    attack = {"type": "attack", "attackers": ["fr-5-dragons"], "defenders": ["1712"]}
    assert [(c["attackers"], c["defenders"]) for c in t.legal("france") if c["type"] == "attack"] == [(["fr-5-dragons"], ["1712"])]
    t.send("france", attack, dice=[3])
    assert t.of(ev.AssaultResolved)[0].table.column == "1-5"


@pytest.mark.parametrize("reading, length", [("additional_2", 2), ("total_2", 1)])
def test_dr_rout_retreat(reading: str, length: int) -> None:
    state = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(state, "massena", step="combat", interpretations={"dr_rout_retreat": reading})
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[4])
    t.send("austria", t.legal("austria")[0], dice=[6])  # one hex, then the failed test
    assert {len(o["path"]) for o in t.legal("austria")} == {length}  # the rout's further retreat


@pytest.mark.parametrize("reading, status", [("rout", "routed"), ("disordered", "disordered")])
def test_dr_pass_when_already_disordered(reading: str, status: str) -> None:
    state = position({"fr-18-ligne": "1417", "au-gyulai": "1517"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    state.units["au-gyulai"].status = "disordered"
    t = activate(state, "massena", step="combat", interpretations={"dr_pass_already_disordered": reading})
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[3])  # +3 DRM: Dr
    assert t.of(ev.AssaultResolved)[0].result == "Dr"
    safe = [o for o in t.legal("austria") if o["path"][-1] in ("1518", "1617", "1616")]  # out of enemy ZoC
    t.send("austria", safe[0] if safe else t.legal("austria")[0], dice=[1])  # the test passed
    assert t.unit("au-gyulai").status == status


@pytest.mark.parametrize("reading, strength", [("disordered_or_routed", 4), ("routed_only", 2)])
def test_demoralised(reading: str, strength: int) -> None:
    state = position({"fr-9-dragons": "1417", "au-colloredo": "1517"}, leaders={"massena": "1317"}, orders={"massena": "attack"})
    state.units["au-colloredo"].status = "disordered"
    t = activate(state, "massena", step="combat", interpretations={"demoralised": reading})
    t.send("france", {"type": "attack", "attackers": ["fr-9-dragons"], "defenders": ["1517"]}, dice=[1])
    assert t.of(ev.AssaultResolved)[0].attack_strength == strength


def test_initiative_tie_read_as_french() -> None:
    state = position({"fr-18-ligne": "1417", "fr-5-legere": "1412", "au-colloredo": "1917"},
                     leaders={"massena": "1317", "augereau": "1412", "hohenzollern": "1916"})
    t = activate(state, "massena", step="combat", interpretations={"initiative_tie": "french"})
    t.state.activation.unit_orders["fr-18-ligne"] = "defence"
    t.send("france", {"type": "end_step"}, dice=[(1, 3)], pad=0)  # 3 = 3: the French win at once
    assert t.of(ev.InitiativeWon)[-1].seat == "france"


@pytest.mark.parametrize("reading, allowed", [("attack_marker_only", False), ("any_attacker", True)])
def test_elan_marker(reading: str, allowed: bool) -> None:
    state = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"}, orders={"massena": "advance"})
    t = activate(state, "massena", step="combat", interpretations={"elan_marker": reading})
    cmd = {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"], "elan": "fr-18-ligne"}
    listed = {c["elan"] for c in t.legal("france") if c["type"] == "attack"}  # issue 19 item 6: listed as accepted
    assert ("fr-18-ligne" in listed) == allowed
    if allowed:
        t.send("france", cmd, dice=[1, 2, 2, 3])
        assert t.of(ev.ElanSpent)
    else:
        with pytest.raises(IllegalCommand) as e:
            t.send("france", cmd)
        assert e.value.rule == "caldiero §16.1"


def test_elan_is_offered_for_every_attacker_that_may_try_it() -> None:
    """caldiero §16.1: the French unit named tries Elan, so each Attack-order attacker of a group is offered (issue
    19 item 6: before, only the first)."""
    state = position({"fr-18-ligne": "1417", "fr-40-ligne": "1417", "au-mahoney-jager": "1517"},
                     leaders={"massena": "1317"}, orders={"massena": "attack"})
    t = activate(state, "massena", step="combat")
    stack = ["fr-18-ligne", "fr-40-ligne"]
    offered = {c["elan"] for c in t.legal("france") if c["type"] == "attack" and c["attackers"] == stack}
    assert offered == {None, *stack}
    attack(t, stack, ["1517"], dice=[1, 2, 2, 3], elan=stack[1])  # the tie of their efficiency asked first (§12.3)
    assert t.of(ev.ElanSpent)


@pytest.mark.parametrize("reading, can_stand_on_24", [("column_24_and_east", True), ("east_of_24", False)])
def test_alvinczy_limit(reading: str, can_stand_on_24: bool) -> None:
    state = position({"au-colloredo": "2517", "fr-18-ligne": "1417"}, leaders={"alvinczy": "2514", "hohenzollern": "2518"})
    state.seat = "austria"
    t = activate(state, "hohenzollern", step="leaders", interpretations={"alvinczy_limit": reading})
    dests = {c["to"] for c in t.legal("austria") if c["type"] == "move_leader" and c["leader"] == "alvinczy"}
    assert ("2414" in dests) == can_stand_on_24 and not any(d < "2400" for d in dests)


def test_minor_road_cost_readings() -> None:
    state = position({})
    flat = World(state, RULESET.battle, lambda n: "flat_1" if n == "minor_road_cost" else RULESET.interpretations()[n].default,
                 variant=CALDIERO_VARIANT)
    other = World(state, RULESET.battle,
                  lambda n: "other_terrain" if n == "minor_road_cost" else RULESET.interpretations()[n].default,
                  variant=CALDIERO_VARIANT)
    steps = [(a, b) for road in flat.hexmap.roads if road.kind == "strada_minore" for a, b in zip(road.hexes, road.hexes[1:])
             if flat.hexmap.roads_between(a, b) == ("strada_minore",) and step_cost(other, a, b, False) > 2]
    assert steps, "the map has a minor road into costlier terrain"
    a, b = steps[0]
    assert step_cost(flat, a, b, False) == 2 and step_cost(other, a, b, False) > 2


def test_legal_and_decide_read_the_same_rulings() -> None:
    """Issue 19 defect 5: after a ruling, legal() offers only what decide() accepts (it listed the moves of the
    default reading). A fork of the tempo-regge log after command 201's events (France to move; the fork point is
    found by the command, as the number of frame events before it changes with the frames) with
    minor_road_cost=other_terrain: fr-32-ligne may no longer reach 1916 along the minor road, and legal() must stop
    offering it (the log played again in the sixteenth session: it was fr-massena-v-horse to 1918 after command 191)."""
    app = Arbitro(SQLiteStore(":memory:"))
    log = Path(__file__).resolve().parents[2] / "logs" / "caldiero-tempo-regge.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    parent = app.import_lines(lines, log.name, seat="umpire")
    (after_201,) = [r["last_seq"] for r in map(json.loads, lines) if r.get("record") == "command" and r["cmd"] == 201]
    game = app.fork(parent, after_201, new_id="ruled")
    before = app.legal(game, "france")
    app.submit(game, "umpire", {"type": "ruling", "reason": "minor roads cost the other terrain",
                                "interpretation": {"minor_road_cost": "other_terrain"}})
    after = app.legal(game, "france")
    gone = {"type": "move", "units": ["fr-32-ligne"], "to": "1916", "path": None, "column": False, "charge": False}
    assert gone in before and gone not in after and len(after) < len(before)
    adj, state = app.adjudicator("caldiero"), app.state_at(game)
    context, supply = app.context(app.game(game)), SeededSupply(app.game(game).seed or "")
    for command in after:
        try:
            adj.decide(state, "france", command, context, app.replayer(game), supply)
        except Rejected as e:
            pytest.fail(f"legal() offered {command} under the ruling but decide() refused it: {e}")
