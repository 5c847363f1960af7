"""The assault in progress is one frame (events/parabellum.AssaultUnderway, kind "assault") below the decisions it
asks (issue 18): the attackers, targets, Attack order and tests are its, once; a decision it asks (cavalry retreat
§14.1, defensive fire §11.4.4, a side's efficiency value §12.3.1) carries only what that decision is about. Nobody
answers it, and a seat is served only its tag (arrivano §11.3.2: its units are the umpire's to read)."""

from __future__ import annotations

from typing import Any

from arbitro.events import core
from arbitro.events import parabellum as pb

from tests.arrivano.harness import RULESET, Table, at_step, position
from tests.arrivano.test_choices import tied_defence
from tests.arrivano.test_combat import BACK, D, GRID, X, assault, fight, resolved


def stack(t: Table) -> list[tuple[str, Any]]:
    return [(frame.kind, frame.ctx) for frame in t.game.core.decisions]


def test_a_cavalry_retreat_waits_above_the_assault_and_names_only_its_hex():
    t = fight({"6e-legere-i": X}, {"bussy": D})
    assault(t, ["6e-legere-i"])
    assert stack(t) == [
        ("assault", pb.AssaultUnderway(stage="declared", attacker_side="france", attackers=("6e-legere-i",),
                                       targets=(D,), forced=True, cavalry_done=(D,))),
        ("cavalry_retreat", pb.BeforeCombatAwaited(units=("bussy",), hex=D))]
    assert t.game.core.decisions[0].seats == ()  # nobody answers the assault
    t.send("austria", t.pending().options[0])
    assert resolved(t).result == "cancelled"
    # the assault is over; its advance into the hex left asked above its frame, which keeps that hex (§12.7)
    assert [(kind, getattr(ctx, "left", None)) for kind, ctx in stack(t)] == [("assault", (D,)), ("advance", None)]


def test_a_defensive_fire_reads_the_attackers_of_the_assault_below():
    t = fight({"6e-legere-i": X}, {"ir18-i": D, "art-gottesheim": D})
    assault(t, ["6e-legere-i"])
    (kind, below), (fire, ctx) = stack(t)
    assert (kind, below.stage, below.attackers, below.targets) == ("assault", "resumed", ("6e-legere-i",), (D,))
    assert (fire, ctx) == ("defensive_fire", pb.DefensiveFireAwaited(battery=("art-gottesheim",)))  # no copy of X
    assert {"type": "defensive_fire", "target": X} in t.legal("austria")  # the attacker's hex (reading one_target)
    t.send("austria", {"type": "defensive_fire", "target": None}, [3])
    assert resolved(t).result == "Ne"  # the table decided; the attacker's Ne test asked above the assault's frame
    assert [kind for kind, _ in stack(t)] == ["assault", "ne_choice"]


def test_the_efficiency_picked_on_a_tie_is_kept_by_the_assault():
    t = tied_defence()
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [D]})
    (kind, below), (choice, ctx) = stack(t)
    assert (kind, below.stage, below.chosen) == ("assault", "resolve", {})
    assert (choice, ctx) == ("efficiency_value", pb.EfficiencyChoiceAwaited(role="defence", values=(3, 4)))
    t.send("austria", {"type": "efficiency_value", "value": 3}, [3])
    assert resolved(t).defender_efficiency == 3  # an EX: its loss asked above the assault's frame (a tie, §12.5.4)
    assert [kind for kind, _ in stack(t)] == ["assault", "exchange_loss"]


def test_the_assault_frame_is_served_to_either_seat_as_its_tag_alone():
    """arrivano §11.3.2: the assault's units and hexes are in the events each seat is served as it may see them;
    the frame that carries them while it runs is served as what it is, to both seats alike."""
    t = fight({"6e-legere-i": X}, {"bussy": D}, leaders={"watrin": BACK})
    assault(t, ["6e-legere-i"])
    frame = t.game.core.decisions[0]
    for seat in ("france", "austria"):
        assert RULESET.redact_frame(frame, seat, t.state)["ctx"] == {"ctx": "parabellum_assault"}


def test_a_dr_tests_in_the_assault_frame_waiting_below_the_retreat_then_asks_the_advance():
    """arrivano §12.5.4 DR ("devono ritirarsi di un esagono e fare un test di efficienza"): the assault's frame stays
    open at its stage `dr_tests`, the units to test in it, below the one-hex retreat; it runs once the retreat is
    made, then its stage `advance` asks the advance (§12.7) above it."""
    t = fight({"6e-legere-i": X}, {"ir18-i": D})
    assault(t, ["6e-legere-i"], dice=[6])
    assert resolved(t).result == "Dr"
    (kind, frame), (retreat, _) = stack(t)
    assert (kind, retreat) == ("assault", "retreat")
    assert (frame.stage, frame.attackers, frame.dr_units) == ("dr_tests", ("6e-legere-i",), ("ir18-i",))
    t.send("austria", t.pending().options[0], dice=[1])
    assert t.state.units["ir18-i"].status == "disordered"  # tested where it now stands: passed
    assert [(kind, getattr(ctx, "stage", None)) for kind, ctx in stack(t)] == [("assault", "end"), ("advance", None)]


def test_an_ne_choice_names_nothing_the_assault_below_it_keeps_the_units():
    """arrivano §12.5.4 NE under Attack: the choice to test is asked above the assault's frame, which keeps the
    attackers and the defenders the table fought; the choice names none of them (issue 18: no copy)."""
    t = fight({"6e-legere-i": X}, {"ir18-i": D})
    assault(t, ["6e-legere-i"], dice=[3])
    assert resolved(t).result == "Ne"
    (kind, frame), (choice, ctx) = stack(t)
    assert (kind, frame.attackers, frame.defenders) == ("assault", ("6e-legere-i",), ("ir18-i",))
    assert (choice, ctx) == ("ne_choice", pb.NeChoiceAwaited())
    t.send("france", {"type": "ne_choice", "test": False})
    assert stack(t) == []


def test_every_result_leaves_the_frame_at_its_stage_advance_below_what_the_result_asks():
    """Caldiero's shape (issue 18): the table's result sets the frame's stage `advance`, then `end`; no result closes
    it at the table, so nothing that runs the stages while the result's decisions wait can read the table again. A Dd
    routing a disordered defender (arrivano §15.2.1): its retreat waits above the frame; once it is made, the advance
    into the hex it left (§12.7) is asked above the frame, which closes when it is answered. An Ne choice waits above
    it at `advance`, not at `resolve`."""
    t = fight({"6e-legere-i": X}, {"ir18-i": D})
    t.state.units["ir18-i"].status = "disordered"
    assault(t, ["6e-legere-i"], dice=[3])  # 1-1, +2 disordered, +1 efficiency: row 6 -> Dd
    assert resolved(t).result == "Dd" and t.state.units["ir18-i"].status == "routed"
    (kind, frame), (retreat, _) = stack(t)
    assert (kind, frame.stage, retreat) == ("assault", "advance", "retreat")
    t.send("austria", t.pending().options[0])
    assert [(kind, getattr(ctx, "stage", None)) for kind, ctx in stack(t)] == [("assault", "end"), ("advance", None)]
    t.send("france", {"type": "decline"})
    assert stack(t) == []
    t = fight({"6e-legere-i": X}, {"ir18-i": D})
    assault(t, ["6e-legere-i"], dice=[3])
    assert [(kind, getattr(ctx, "stage", None)) for kind, ctx in stack(t)] == [("assault", "advance"), ("ne_choice", None)]


def test_two_villages_turning_their_dr_into_ex_exchange_one_after_the_other_each_against_its_own_units():
    """arrivano §10.1.1 with §12.5.4 EX (k-assault4's note: "a village EX with two villages"): a DR against two
    villages held under Defence asks each village's choice, the last attacked hex's first (its frame on top); a
    passed exchange revises the assault's frame to that village's units, and its losses (the attacker's asked of
    him among the tied, above the other village's choice) are settled before the other village is asked: each EX
    takes its own village's unit and one attacker, never the other village's."""
    v1, v2, at, back = "0912", "1112", "1012", "1013"  # montebello: two villages both next to one clear hex
    t = at_step(position({"6e-legere-i": at, "6e-legere-ii": at, "ir18-i": v1, "ir18-ii": v2},
                         leaders={"watrin": back}, orders={"W": "attack"}), "W", "combat")
    t.state.units["ir18-i"].status = t.state.units["ir18-ii"].status = "disordered"
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [v1, v2]}, [5])
    assert resolved(t).result == "Dr"
    assert [(kind, getattr(ctx, "hex", None)) for kind, ctx in stack(t)] == [
        ("assault", None), ("dr_choice", v1), ("dr_choice", v2)]
    t.send("austria", {"type": "dr_choice", "choice": "exchange"}, [1])  # v2's test passed: its DR becomes EX
    (_, frame), (choice, ctx), (loss, _) = stack(t)
    assert (frame.stage, frame.defenders, choice, ctx.hex, loss) == ("dr_tests", ("ir18-ii",), "dr_choice", v1,
                                                                      "exchange_loss")
    t.send("france", {"type": "exchange_loss", "units": ["6e-legere-i"]})
    assert [(u, t.state.units[u].where) for u in ("6e-legere-i", "ir18-i", "ir18-ii")] == [
        ("6e-legere-i", "track"), ("ir18-i", "map"), ("ir18-ii", "track")]
    assert [kind for kind, _ in stack(t)] == ["assault", "dr_choice"]
    t.send("austria", {"type": "dr_choice", "choice": "exchange"}, [1])  # v1's: against the attacker left
    assert [t.state.units[u].where for u in ("6e-legere-ii", "ir18-i")] == ["track", "track"]
    assert stack(t) == []  # no attacker left to advance


def test_a_passed_exchange_revises_the_assault_s_frame_once():
    """arrivano §10.1.1 with §13.1.2: a village's passed exchange test replaces the DR test for its units (they leave
    the frame's `dr_units`) and makes the EX against them (its `defenders`): one revision of the assault's frame, not
    one for each (each lifts the other village's choice waiting above it: three events, not six)."""
    v1, v2, at, back = "0912", "1112", "1012", "1013"
    t = at_step(position({"6e-legere-i": at, "6e-legere-ii": at, "ir18-i": v1, "ir18-ii": v2},
                         leaders={"watrin": back}, orders={"W": "attack"}), "W", "combat")
    t.state.units["ir18-i"].status = t.state.units["ir18-ii"].status = "disordered"
    t.send("france", {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": [v1, v2]}, [5])
    made = t.send("austria", {"type": "dr_choice", "choice": "exchange"}, [1])  # v2's test passed
    revised = [e for e in made if isinstance(e, core.DecisionRevised) and e.kind == "assault"]
    assert len(revised) == 1 and revised[0].ctx == stack(t)[0][1]
    assert (revised[0].ctx.defenders, "ir18-ii" in revised[0].ctx.dr_units) == (("ir18-ii",), False)
    choices = [type(e).__name__ for e in made if isinstance(e, core.DecisionResolved) and e.kind == "dr_choice"
               or isinstance(e, core.DecisionOpened) and e.frame.kind == "dr_choice"]
    # v2's own, answered; v1's lifted for the one revision and opened again
    assert choices == ["DecisionResolved", "DecisionResolved", "DecisionOpened"]


def test_the_next_gun_waiting_below_the_retreat_its_fire_caused_fires_where_the_attackers_now_stand():
    """arrivano §11.4.4 under reading each_gun: a gun's R result sends the attackers of one hex back (their retreat
    above the fire, §11.4.3); the next gun's frame names only itself, its answers read once the retreat is made at
    the hexes of the attackers still in the assault (World.assault), no copy of them kept from before the retreat."""
    other = next(h for h in GRID.neighbours(D) if GRID.is_adjacent(h, X))
    t = fight({"6e-legere-i": X, "6e-legere-ii": other}, {"ir18-i": D, "art-gottesheim": D, "art-vogelsang": D})
    t.rule({"defensive_fire_targets": "each_gun"})
    assault(t, ["6e-legere-i", "6e-legere-ii"])
    t.send("austria", {"type": "defensive_fire", "artillery": "art-gottesheim", "target": X}, [6], pad=4)  # R
    assert stack(t)[1:] == [("defensive_fire", pb.DefensiveFireAwaited(battery=("art-vogelsang",))),
                            ("retreat", stack(t)[2][1])]
    t.send("france", t.legal("france")[0])
    assert t.state.units["6e-legere-i"].hex != X and stack(t)[0][1].attackers == ("6e-legere-ii",)
    assert t.legal("austria") == [{"type": "defensive_fire", "artillery": "art-vogelsang", "target": other},
                                  {"type": "defensive_fire", "target": None}]
def test_a_hex_left_before_combat_and_one_the_combat_vacates_are_one_advance():
    """arrivano §12.7.2 "in uno dei due esagoni a sua scelta": an assault on two hexes, one left by its cavalry before
    combat (§14.1), the other emptied by a DE, asks one advance into either (the hex left kept in the assault's frame,
    `left`), not one advance per hex."""
    other = GRID.neighbour(X, 2)
    t = fight({"6e-legere-i": X, "6e-legere-ii": X}, {"bussy": D, "mariassy-jager": other})
    assault(t, ["6e-legere-i", "6e-legere-ii"], [D, other])
    retreat = next(o for o in t.pending().options if o["to"] is not None)
    t.send("austria", retreat, dice=[5])
    assert resolved(t).result == "De" and t.state.units["bussy"].hex != D
    assault_frame, advance = t.game.core.decisions
    assert (assault_frame.ctx.targets, assault_frame.ctx.left, advance.kind) == ((other,), (D,), "advance")
    assert {o["to"] for o in t.pending().options if o["type"] == "advance"} == {D, other}
    t.send("france", {"type": "advance", "units": ["6e-legere-i"], "to": D})
    assert t.state.units["6e-legere-i"].hex == D and t.pending() is None  # one advance: the other hex is not asked


def test_an_advance_the_artillery_alone_obliges_is_into_its_hex_not_one_left_before_combat():
    """arrivano §11.1.1 "è obbligatorio avanzare" into the hex of the guns taken; a hex left before combat (§14.1) is not
    an advance that obligation allows, nor a second one (§12.7.2)."""
    other = GRID.neighbour(X, 2)
    t = fight({"6e-legere-i": X}, {"bussy": D, "art-gottesheim": other})
    assault(t, ["6e-legere-i"], [D, other])
    t.send("austria", next(o for o in t.pending().options if o["to"] is not None))
    t.send("austria", {"type": "defensive_fire", "target": None})  # §11.4.4: the guns hold their fire
    assert resolved(t).automatic == "arrivano §11.1.1"
    assert t.pending().options == [{"type": "advance", "units": ["6e-legere-i"], "to": other}]
    t.send("france", t.pending().options[0])
    assert t.pending() is None  # the one advance (§12.7.2) made: none into the hex left
