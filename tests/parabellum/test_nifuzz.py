"""The non-interference fuzzer (bench/nifuzz.py, docs/engine-rules.md §V.4) on short slices of two shipped fog logs:
no difference the allow-list does not explain; and the leaks the sixteenth session fixed, put back, are found there
(rev-m M1: Caldiero's reorganised hex served whole, caldiero §15.3 with §20.4; rev-m M4: Arrivano's end-phase
`artillery_turned` served as a stub where an unseen gun turned, arrivano §3.1 C with §11.3.2), as is a leak riding
with the end phase's inherent rout-move wait (rev-o O4: a decision's context served whole, arrivano §11.3.2), and a
leak of each record the enemy keeps (bench/nifuzz_facts.records: Caldiero's hexes tried and directions released,
Arrivano's march orders) put back; and a leak in the view itself (bench/nifuzz_view.py: an own or redacted key that
a hidden fact changes), which the fuzzer skipped as "seen" before: an enemy's march orders, an unseen commander's
marks, an enemy independent column, each served in the view."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any
from pathlib import Path

import msgspec
import pytest

from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.caldiero import CaldieroRuleset
from arbitro.adjudicator.caldiero.legal import CALDIERO_STEPS
from arbitro.adjudicator.parabellum.ruleset import ParaBellumRuleset
from arbitro.events import arrivano as aev
from arbitro.events import caldiero as cev
from arbitro.projections.arrivano import ArrivanoState
from arbitro.events.codec import canonical
from bench import nifuzz_facts
from bench.nifuzz import Finding, Game, explain, fuzz, play, replayed, served_difference, under_weather, walked

LOGS = Path(__file__).resolve().parents[2] / "logs"
# Caldiero #211: Austria may reorganise 2214 or 2313, both out of France's sight; Arrivano #106 (the log played again
# in the nineteenth session; #1441 before): turn 2's end phase turns the guns back, France's Watrin battery out of
# Austria's sight; #1589, turn 15's end phase, waits for a rout move
# Caldiero's command numbers after #190, France's efficiency answer inserted there (twenty-first session, §12.3.1:
# bench/drivers/translate_efficiency.py), are one more than before it.
CALDIERO_SLICE, ARRIVANO_SLICE, ROUT_SLICE = (211, 213), (105, 107), (1588, 1590)


@pytest.fixture(scope="module")
def caldiero() -> Game:
    return replayed(LOGS / "caldiero-tempo-regge-fog.jsonl")


@pytest.fixture(scope="module")
def arrivano() -> Game:
    return replayed(LOGS / "arrivano-montebello.jsonl")


@pytest.fixture(scope="module")
def options() -> Game:
    return replayed(LOGS / "arrivano-montebello-options.jsonl")


def unexplained(game: Game, first: int, last: int, kinds: frozenset[str] | None = None) -> list[Finding]:
    found = fuzz(game, every=1, first=first, last=last, per_position=6, kinds=kinds)
    assert found.checked > 0, "the slice compared nothing: the log changed under it"
    return [f for f in found.findings if not f.allowed]


def served_whole(monkeypatch: pytest.MonkeyPatch, ruleset: type, kind: type) -> None:
    """A leak put back: `kind`'s events owned by no seat (the `owner` hook), so served to every seat whole."""
    owner = ruleset.owner  # type: ignore[attr-defined]
    monkeypatch.setattr(ruleset, "owner", lambda self, event, state: None if isinstance(event, kind)
                        else owner(self, event, state))


@pytest.mark.parametrize("which", ["caldiero", "arrivano"])
def test_a_fog_log_slice_serves_no_unexplained_difference(which: str, request: pytest.FixtureRequest) -> None:
    game = request.getfixturevalue(which)
    first, last = CALDIERO_SLICE if which == "caldiero" else ARRIVANO_SLICE
    assert unexplained(game, first, last) == []


def test_the_reorganised_hex_served_whole_is_found(caldiero: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    served_whole(monkeypatch, CaldieroRuleset, cev.StepRecorded)
    found = unexplained(caldiero, *CALDIERO_SLICE, kinds=frozenset({"twin"}))
    assert {(f.cmd, f.channel, f.what) for f in found} == {(212, "log", "step_recorded[caldiero §15.3]")}


def test_a_hidden_gun_turned_served_as_a_stub_is_found(arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ArrivanoRulesetImpl, "listed_fields", {})
    found = unexplained(arrivano, *ARRIVANO_SLICE, kinds=frozenset({"moved_side"}))
    assert {(f.cmd, f.channel, f.what, f.perturbation) for f in found} == {
        (106, "log", "artillery_turned[arrivano §11.3.2] artillery_turned[arrivano §3.1 C]",
         "art-watrin art_moved False")}


def test_a_leak_riding_with_the_rout_move_wait_is_found(arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """#1589 ends turn 15's last activation: France's 24e-legere-iii, unseen by Austria, made routed, not disordered,
    makes the end phase wait for its rout move (arrivano §15.2.2), inherent. A rout move's question served with its unit (the
    frame's context whole, not its seat's alone) used to pass with the wait (rev-o O4): the wait is now answered and
    every difference judged on its own events."""
    monkeypatch.setattr(ArrivanoRulesetImpl, "redact_frame", lambda self, frame, seat, state: msgspec.to_builtins(frame))
    found = unexplained(arrivano, *ROUT_SLICE, kinds=frozenset({"status"}))
    assert {(f.cmd, f.channel, f.perturbation.split()[0]) for f in found} == {(1589, "log", "24e-legere-iii")}
    assert all(f"names:{f.perturbation.split()[0]}" in f.what for f in found)


def rout_waits(game: Game) -> list[tuple[int, str]]:
    """The log's end_steps after which the game waits for a rout move of the sender's own (arrivano §15.2.2), each
    (command, sender), found in the log, not pinned: the logs are played again when their commands must change."""
    out = []
    for (cmd, seat, command, _), (_, _, _, after) in zip(game.positions, game.positions[1:]):
        top = after.core.decisions[-1] if after.core.decisions else None
        if command.get("type") == "end_step" and top is not None and (top.kind, top.seats) == ("rout_move", (seat,)):
            out.append((cmd, seat))
    assert out, "the log's end phases wait for no rout move: the tests compare nothing"
    return out


def test_the_decisions_a_command_leaves_are_walked_past_alike(caldiero: Game) -> None:
    """Caldiero's first attack (#17) leaves the assault's questions pending; both games are walked past every one of
    them by the one fixed rule (the asked seat's first listed answer both list), to a position waiting for nothing,
    and the fuzzer compares what is served there, finding nothing the rules do not explain."""
    cmd, seat, command, state = next(p for p in caldiero.positions if p[2].get("type") == "attack")
    attack = play(caldiero, state, seat, command)
    assert attack.after is not None and attack.after.core.decisions, f"#{cmd} leaves no decision pending"
    a, b = walked(caldiero, attack.after, caldiero.engine.fold.copy(attack.after))
    assert a.answers and not a.stuck and not a.after.core.decisions
    assert (a.commands, a.asked) == (b.commands, b.asked)
    assert {kind for kind, _, _ in a.asked} >= {"defensive_fire"}
    seeded = walked(caldiero, attack.after, caldiero.engine.fold.copy(attack.after), pick=random.Random(1))
    assert seeded[0].commands == seeded[1].commands and not seeded[0].stuck  # --answers seeded: drawn alike
    found = fuzz(caldiero, every=1, first=cmd, last=cmd, per_position=12)
    assert found.walked > 0 and [f for f in found.findings if not f.allowed] == []


def test_a_leak_past_a_pending_decision_is_found(arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """rev-m's M4 put back (an unseen gun's end-phase turning served as a stub, arrivano §3.1 C with §11.3.2) where the
    end phase turns the guns only after a rout move its sender is asked (arrivano §15.2.2) of a unit no perturbation
    touched (Montebello #427 as the log stands): the fuzzer, which compared at that wait and stopped, found nothing
    there; walked past it, it finds the leak, the enemy served a stub where the gun turned."""
    monkeypatch.setattr(ArrivanoRulesetImpl, "listed_fields", {})
    turned = "artillery_turned[arrivano §11.3.2] artillery_turned[arrivano §3.1 C]"
    for cmd, seat in rout_waits(arrivano):
        found = fuzz(arrivano, every=1, first=cmd, last=cmd, per_position=50, kinds=frozenset({"moved_side"}))
        if unexplained := {(f.cmd, f.observer, f.channel, f.what) for f in found.findings if not f.allowed}:
            assert found.walked > 0 and unexplained == {(cmd, next(s for s in ("france", "austria") if s != seat),
                                                         "log", turned)}
            return
    pytest.fail("no end phase waiting for a rout move turns an unseen gun in the log any more")


def test_a_listing_asked_of_the_observer_past_the_command_that_reads_a_hidden_fact_is_found(
        arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """An end_step leaves its sender asked a rout move (arrivano §15.2.2; Montebello #427, France). A leak put in the
    question's listing (its answers cut by how many of the enemy's units have lost a step, out of the sender's sight
    as much as in it) is found by a step lost perturbed: the sender's listing, compared at every question the walk
    asks it, differs (channel `legal`); the fuzzer compared the sender's listing at the command alone before."""
    legal = arrivano.engine.legal

    def leaky(state: Any, seat: str) -> list[dict[str, Any]]:
        out = legal(state, seat)
        top = state.core.decisions[-1] if state.core.decisions else None
        if top is None or top.kind != "rout_move":
            return out
        return out[:1 + sum(u.side != seat and u.reduced for u in state.rules.units.values()) % 2]
    monkeypatch.setattr(arrivano.engine, "legal", leaky)
    cmd, seat = rout_waits(arrivano)[0]
    found = fuzz(arrivano, every=1, first=cmd, last=cmd, per_position=50, kinds=frozenset({"reduced"}))
    assert {(f.cmd, f.observer, f.channel, f.what) for f in found.findings if not f.allowed} == {
        (cmd, seat, "legal", "rout_move")}


def test_a_reorganisation_step_ending_by_itself_under_the_fog_is_found(caldiero: Game,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldiero #213: Austria reorganises its last untried hex. A step that ended by itself once its seat had nothing
    left told France that no other unseen stack of Austria's is disordered or routed (caldiero §15.3 under §20.4;
    fog15a's waits, `Step.unseen`): put back, it is found by an Austrian hex marked tried (`step_done`)."""
    monkeypatch.setitem(CALDIERO_STEPS.rows, "reorganise", dataclasses.replace(CALDIERO_STEPS.rows["reorganise"],
                                                                               unseen=False))
    found = fuzz(caldiero, every=1, first=CALDIERO_SLICE[0], last=CALDIERO_SLICE[1], per_position=50,
                 kinds=frozenset({"step_done"})).findings
    assert {(f.cmd, f.observer, f.channel) for f in found if not f.allowed} == {
        (213, "france", "log"), (213, "france", "view"), (213, "france", "status")}


def test_a_direction_released_served_to_the_enemy_is_found(caldiero: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldiero #177: a unit of Massena's formation enters the place its direction of attack names, out of Austria's
    sight (§19.1.1, §19.1.2; rev-m M2): `direction_released` served to Austria is found by the release perturbed."""
    served_whole(monkeypatch, CaldieroRuleset, cev.DirectionReleased)
    found = unexplained(caldiero, 176, 178, kinds=frozenset({"released"}))
    assert {(f.cmd, f.observer, f.what, f.perturbation) for f in found} == {
        (177, "austria", "direction_released[caldiero §19.1]", "massena released True")}


def test_a_march_order_s_end_served_to_the_enemy_is_found(arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Montebello #177 (#259 before the log was played again in the nineteenth session): a march order ends, its
    units reached their objective unseen (arrivano §17.1.5; rev-m M3): `march_order_ended` served to France is found
    by a march order in force perturbed."""
    served_whole(monkeypatch, ArrivanoRulesetImpl, aev.MarchOrderEnded)
    found = unexplained(arrivano, 175, 177, kinds=frozenset({"march"}))
    assert {(f.cmd, f.observer, f.what) for f in found} == {
        (cmd, "france", "march_order_ended[arrivano §17.1.5]") for cmd in (176, 177)}


def test_a_good_unit_unseen_made_disordered_is_the_known_zoc_limit() -> None:
    """Montebello-options #1008 (#912 before the log was played again in the nineteenth session, where Austria's
    ir57-ii moved into an unseen stack of the routed Banat): a good unit out of the enemy's sight made disordered (a
    `zoc` perturbation, tried with --zoc only) loses its ZoC, which changes where the enemy's commanders may move
    (engine-rules §V.4's known limit): allowed; France's 6e-legere-iii moving 3713-3614, perturbed, shows nothing."""
    game = replayed(LOGS / "arrivano-montebello-options.jsonl")
    moved = fuzz(game, every=1, first=1008, last=1008, per_position=50, kinds=frozenset({"moved_unit"}))
    assert moved.checked > 0 and [f for f in moved.findings if not f.allowed] == []
    found = fuzz(game, every=1, first=1008, last=1008, per_position=50, zoc=True, kinds=frozenset({"zoc"}))
    assert {(f.channel, f.allowed != "") for f in found.findings if f.channel == "legal"} == {("legal", True)}


def in_the_view(found: list[Finding]) -> set[tuple[int, str, str]]:
    """The view leaks found: (command, observer, the view's keys) of the channel `position`."""
    return {(f.cmd, f.observer, f.what) for f in found if f.channel == "position"}


def test_an_enemy_march_order_served_in_the_view_is_found(arrivano: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Montebello #257-#259: Austria's march orders in force, served in France's view (Arrivano's `view` without its
    cut, arrivano §17.1.5; rev-m M3), are found by a march order perturbed, not skipped as seen."""
    monkeypatch.setattr(ArrivanoRulesetImpl, "view", ParaBellumRuleset.view)
    found = unexplained(arrivano, 257, 259, kinds=frozenset({"march"}))
    assert ("march_orders",) == tuple({what for _, _, what in in_the_view(found)})
    assert {observer for _, observer, _ in in_the_view(found)} == {"france"}


def test_an_unseen_commander_s_marks_served_in_the_view_are_found(caldiero: Game,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldiero #14-#16: every commander served whole in the view, his own moves' turn and his A side included
    (caldiero §4.2.1, §2.2.2; D42): the perturbed marks of an unseen commander are found in `leaders`."""
    view = ParaBellumRuleset.view

    def whole(self: ParaBellumRuleset, state: object, seat: str) -> dict[str, object]:
        return {**view(self, state, seat), "leaders": msgspec.to_builtins(state.leaders)}  # type: ignore[attr-defined]
    monkeypatch.setattr(ParaBellumRuleset, "view", whole)
    found = [f for f in unexplained(caldiero, 14, 16, kinds=frozenset({"commander"})) if f.channel == "position"]
    assert {f.what for f in found} == {"leaders"}
    assert {f.perturbation.split()[1] for f in found} == {"moved_turn", "activated"}


def test_an_enemy_column_served_in_the_view_is_found(options: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Montebello with the options, #13-#15: Mainoni's independent column (France's, formed at #12; Schustekh's,
    Austria's, before the log was played again in the nineteenth session; arrivano §16.2: its order lies under the
    officer) served in Austria's view as in France's: found by its order and units perturbed."""
    served_own = ArrivanoState.served_own
    monkeypatch.setattr(ArrivanoState, "served_own", lambda self, seat, fogged: served_own(self, seat, False))
    found = unexplained(options, 13, 15, kinds=frozenset({"column"}))
    assert {what for _, _, what in in_the_view(found)} == {"columns"}
    assert {observer for _, observer, _ in in_the_view(found)} == {"austria"}


def test_an_independent_column_s_order_shown_by_its_assault_declaration_is_a_sighting(
        options: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Montebello with the options, every assault declared by a unit of an independent column (#691, #906 as the log
    stands): the column's order, hidden under its officer (arrivano §16.2), is shown at the table by the declaration's
    marker ("Attacco" for an Attack order, "Attacco?" for Advance, whose efficiency test is rolled first: §12.2,
    §12.2.2), so those comparisons are sightings, skipped; counted as `seen`. Without that, the first every-5th run
    after the walk found the 'Attack?' test in one game only, the assault's dice after it one index on."""
    declared = [cmd for cmd, _, c, s in options.positions if c.get("type") == "assault"
                and set(c["attackers"]) & {u for col in s.rules.columns.values() for u in col.units}]
    assert declared, "no assault by a column's unit in the log any more: the test compares nothing"
    found = [fuzz(options, every=1, first=cmd, last=cmd, per_position=50, kinds=frozenset({"column"}))
             for cmd in declared]
    assert sum(f.seen for f in found) > 0 and [x for f in found for x in f.findings if not x.allowed] == []
    column_facts = nifuzz_facts.column_facts
    monkeypatch.setattr(nifuzz_facts, "column_facts", lambda state, officer: (
        dataclasses.replace(p, declared=()) for p in column_facts(state, officer)))
    shown = [x for cmd in declared for x in fuzz(options, every=1, first=cmd, last=cmd, per_position=50,
                                                 kinds=frozenset({"column"})).findings]
    assert any("'Attack?' test" in x.what for x in shown)


def test_a_released_direction_seen_in_a_route_is_inherent(caldiero: Game) -> None:
    """Caldiero #856 (#855 before the twenty-first session's relog inserted France's efficiency answer at #190,
    §12.3.1; #856 before the twentieth's dropped a `decline` at #500 no longer asked, caldiero §11.4.5): fr-39-ligne (Massena's) moves to 2316 by way of 2313, where §19.1.2 lets it go only as its
    formation is released; unreleased, it walks by 2414, out of Austria's sight. Austria sees the route differ: the
    rule's effect on the table, allowed (`ALLOWED`, kind released), not a leak."""
    found = fuzz(caldiero, every=1, first=856, last=856, per_position=50, kinds=frozenset({"released"})).findings
    assert {(f.channel, f.what, f.perturbation) for f in found} == {
        ("log", "units_moved[caldiero §9.1]", "massena released False")}
    assert all(f.allowed for f in found)


def test_the_enemy_s_activation_served_in_the_view_is_found(caldiero: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldiero #6-#8, France's first activation: its record served to Austria whole (the view's `activation`, which
    the fog cuts to the formation: who is out of command tells where the commanders stand, caldiero §5.3, rev-l L8)
    is found by an unseen unit of it made out of command, or in command."""
    view = ParaBellumRuleset.view

    def whole(self: ParaBellumRuleset, state: object, seat: str) -> dict[str, object]:
        return {**view(self, state, seat), "activation": msgspec.to_builtins(state.activation)}  # type: ignore[attr-defined]
    monkeypatch.setattr(ParaBellumRuleset, "view", whole)
    found = unexplained(caldiero, 6, 8, kinds=frozenset({"activation"}))
    assert in_the_view(found) == {(cmd, "austria", "activation") for cmd in (6, 7, 8)}


def test_a_difference_of_the_bytes_served_is_one_where_the_decoded_values_are_equal() -> None:
    """Two services differing only where JSON's decoded values compare equal (true and 1, false and 0, a key absent
    and null) are different bytes to the seat: served_difference names each channel and view key so (it compared
    the decoded dicts, and found nothing)."""
    def service(flag: object, roll: object, engine: dict[str, object]) -> bytes:
        log = [{"cmd": 1, "events": [{"type": "dice_rolled", "faces": [roll]}]}]
        return canonical([log, {"engine": engine, "state": {"flag": flag}}, [None, [flag]]])
    found = served_difference(service(True, False, {}), service(1, 0, {"decisions": None}))
    assert [(channel, what) for channel, what, _ in found] == [
        ("log", "dice_rolled[]"), ("view", "flag engine.decisions"), ("status", "awaiting/notices")]


def replacement_ends(game: Game) -> list[int]:
    """The log's end_steps whose turn goes on to a replacement's placement (arrivano §12.8.2, `replacement_hex`),
    found in the log, not pinned: the last end_step before each position waiting for one."""
    out: list[int] = []
    end = None
    for cmd, _, command, state in game.positions:
        end = cmd if command.get("type") == "end_step" else end
        top = state.core.decisions[-1] if state.core.decisions else None
        if top is not None and top.kind == "replacement_hex" and end is not None and end not in out:
            out.append(end)
    assert out, "no replacement comes back in the log any more: the test compares nothing"
    return out


def test_a_replacement_placed_in_sight_by_its_unseen_general_is_inherent(arrivano: Game) -> None:
    """Montebello #1361 (found by the twentieth session's exhaustive run): France's end_step; the walk places
    Austria's returning ir18-ii and ir57-i (arrivano §12.8.2 "entro un esagono dal loro Generale di formazione").
    Gottesheim, unseen, moved 3417 -> 3319 offers hexes the recorded game does not: each game's owner places its own
    first, 3316 in France's sight in one, out of it in the other. That the units are seen where they come back, and so
    that their general stands within a hex, is the table's too: allowed (`ALLOWED`, kind leader), and a general moved
    where both games list the same hex shows nothing."""
    found = [f for cmd in replacement_ends(arrivano)
             for f in fuzz(arrivano, every=1, first=cmd, last=cmd, per_position=50, kinds=frozenset({"leader"})).findings]
    placed = [f for f in found if f.channel == "log" and "unit_placed[arrivano §12.8.2]" in f.what]
    assert placed, "no unseen general's move changes where a replacement comes back: the test compares nothing"
    assert [f for f in found if not f.allowed] == []
    assert all("§12.8.2" in f.allowed for f in found)


def test_an_unseen_general_s_view_difference_is_allowed_only_with_a_replacement_placed_otherwise() -> None:
    """rev-s S2: the #1361 entry allows a view difference ('units', 'hidden_stacks') after an unseen general moved
    only where the same comparison's owner placed a returning unit otherwise (arrivano §12.8.2: its log places it, or
    its walk answered the replacement's hex otherwise, the unit out of sight in both, a marker moved): a general's
    place leaking into the enemy's view of its units by another way (in any game, Caldiero's too) stays unexplained."""
    def view(what: str) -> Finding:
        return Finding("x", 5, "france", "austria", "leader", "g 3417->3319", "view", what, "{}", "")
    assert explain(view("units")) == explain(view("hidden_stacks")) == ""
    assert explain(view("units"), "units_moved[caldiero §9.1] answered:rout_move") == ""
    assert "§12.8.2" in explain(view("hidden_stacks units"), "unit_placed[arrivano §12.8.2]")
    assert "§12.8.2" in explain(view("hidden_stacks"), "answered:replacement_hex")
    assert explain(view("units leaders"), "unit_placed[arrivano §12.8.2]") == ""


def test_a_wait_of_one_game_alone_is_answered_first_and_the_next_question_alike(arrivano: Game) -> None:
    """An end phase asks a rout move of one seat, then of the other (arrivano §15.2.2); with the first unit disordered,
    not routed (hidden from the other seat), the game asks only the second. The walk answers the first game's extra
    wait alone (`extra`), then puts the second seat's question to both games alike and answers it alike: Montebello
    #1587 (twenty-first session), where the walk answered each game's own first question in step (France's rout move
    in one, Austria's in the other), and Austria's rout moves then differed (2903 / 3003), an artefact found
    unexplained (legal rout_move, view units)."""
    bites = 0
    for cmd, seat, command, state in arrivano.positions:
        if command.get("type") != "end_step" or (base := play(arrivano, state, seat, command)).after is None:
            continue
        top = base.after.core.decisions[-1] if base.after.core.decisions else None
        if top is None or top.kind != "rout_move":
            continue
        first = next(iter(play(arrivano, base.after, top.seats[0], c) for c in arrivano.engine.legal(base.after,
                                                                                               top.seats[0])))
        second = first.after.core.decisions[-1] if first.after is not None and first.after.core.decisions else None
        if second is None or second.kind != "rout_move" or second.seats == top.seats:
            continue
        other = arrivano.engine.fold.copy(state)
        other.rules.units[top.ctx.unit].status = "disordered"
        again = play(arrivano, other, seat, command)
        if again.after is None or not again.after.core.decisions or again.after.core.decisions[-1].seats != second.seats:
            continue
        a, b = walked(arrivano, base.after, again.after)
        answers = [[c for c in w.commands if json.loads(c)[0] == second.seats[0]] for w in (a, b)]
        assert answers[0] == answers[1], f"#{cmd}: the second seat's rout moves answered otherwise"
        bites += [q for q in a.asked if q[1] == second.seats[0]] != [q for q in b.asked if q[1] == second.seats[0]]
    assert bites, "no end phase of the log asks two seats' rout moves whose second listing the first answer changes"


def test_a_log_fuzzed_under_a_weather_box_it_never_reached() -> None:
    """bench/nifuzz.under_weather (`--weather`): Campotenese's Tormenta (arrivano §17.2.7: a Neapolitan unit in
    Defence adds two to its value, which rests on an order the fog may hide; one hex a move; no ZoC) is reached by no
    shipped log (arrivano-campotenese turns to the Bufera at #654 and stays there). Every position is played under
    the box given, in both games alike (a public fact), the log's own positions untouched; a slice so played serves
    no unexplained difference."""
    game = replayed(LOGS / "arrivano-campotenese.jsonl")
    stormy = under_weather(game, 3)
    assert {s.rules.weather for *_, s in stormy.positions} == {3} and stormy.name.endswith("(weather 3)")
    assert 3 not in {s.rules.weather for *_, s in game.positions}
    assert under_weather(game, None) is game
    assert unexplained(stormy, 537, 539) == []
