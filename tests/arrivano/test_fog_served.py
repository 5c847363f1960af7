"""Fog of war as served (arrivano §11.3.2, arbitro §V.4), proved by non-interference: two games that differ only in
a fact hidden from Austria (an officer in a stack out of its sight, which of its unseen stacks recovers, where a
French unit came from before it came into sight, the route of one that stays out of it) serve Austria the very same bytes: its view and every event,
rolls included. Each pair is also shown to differ for the umpire, so the hidden fact is really there."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.engine import Adjudicator, GameContext, NoHistory
from arbitro.adjudicator.parabellum.ruleset import mentions
from arbitro.adjudicator.randomness import EnteredSupply
from arbitro.adjudicator.seat_numbers import Command, CommandNumbers, per_command
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.codec import canonical
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import GameState
from arbitro.projections.views import redact_event, seat_view

from tests.arrivano.harness import FOLD, RULESET, Table, at_step, line, open_ground, position

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
FAR = GRID.neighbour(GRID.neighbour(X, 4), 4)
AUSTRIAN = {"ir18-i": "3914"}  # far off: neither X nor FAR is in its sight


def served(before: GameState[Any], commands: list[list[Any]], seat: str) -> bytes:
    """The events of each command as `seat` is served them (each redacted with the state right after it), then its
    view. A seat's are its commands' items (engine-rules §V.6, seat_numbers.per_command): what it may see of each
    (seat_numbers.held), and its view numbered by command (service_reading.view), not by the log's events."""
    game = FOLD.copy(before)
    out: list[Any] = []
    records: list[dict[str, Any]] = []  # as views.serve_event serves them one by one, without links
    numbers: list[Command] = []
    for cmd, events in enumerate(commands, start=1):
        shown = []
        for event in events:
            game = FOLD.apply_event(game, game.core.seq + 1, event)
            shown.append(redact_event(RULESET, event, seat, game))
            records.append({"cmd": cmd, "prev": "", "hash": "", "event": shown[-1]})
        out.append(shown)
        numbers.append(Command(cmd, "france", "", game.core.seq - len(events) + 1, game.core.seq))
    if seat != UMPIRE:
        out = [item["events"] for item in per_command(CommandNumbers("g", numbers), records)]
    view = seat_view(RULESET, game, seat)
    if seat != UMPIRE:
        del view["engine"]["seq"]
    return canonical([*out, view])


def play(t: Table, commands: list[tuple[dict[str, Any], list[int]]]) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's, for `commands` sent by France from `t`'s state."""
    before = FOLD.copy(t.game)
    made = [t.send("france", command, dice) for command, dice in commands]
    return served(before, made, "austria"), served(before, made, "umpire")


def recovery_table(disordered: str, leaders: dict[str, str]) -> Table:
    state = position({"6e-legere-i": X, "6e-legere-ii": FAR, **AUSTRIAN}, leaders=leaders, orders={"W": "defence"})
    state.units["6e-legere-i" if disordered == X else "6e-legere-ii"].status = "disordered"
    assert RULESET.unexaminable(state, "austria", [X, FAR]) == {X, FAR}, "both stacks must be out of Austria's sight"
    return at_step(state, "W", "combat")


def test_an_officer_in_a_stack_out_of_sight_changes_nothing_served() -> None:
    """The efficiency test's modifier (-1 with an officer of the formation in the hex, arrivano §13.2) and its hex
    are not served to a seat that sees only a marker there. The die is a 6: the test fails either way."""
    recover = [({"type": "recover", "hex": X}, [6])]
    with_officer = play(recovery_table(X, {"watrin": FAR, "gency": X}), recover)
    without = play(recovery_table(X, {"watrin": FAR, "gency": FAR}), recover)
    assert with_officer[1] != without[1], "the umpire's log shows the modifier"
    assert with_officer[0] == without[0], "Austria can tell an officer stands in the hidden stack"


def test_which_unseen_stack_recovers_changes_nothing_served() -> None:
    """The recovery roll is hidden (the owner's, visible_to France): neither its faces nor 'recovery in <hex>'
    reach Austria when the stack is out of its sight."""
    leaders = {"watrin": FAR, "gency": X}
    here = play(recovery_table(X, leaders), [({"type": "recover", "hex": X}, [6])])
    there = play(recovery_table(FAR, leaders), [({"type": "recover", "hex": FAR}, [6])])
    assert here[1] != there[1]
    assert here[0] == there[0], "Austria can tell which of its unseen enemy stacks tried to recover"


def arrival() -> tuple[str, str, str, str]:
    """(Austria's hex, F in its sight, S1 and S2 out of its sight, both adjacent to F): clear level ground, F two
    hexes or more from Austria (no zone of control on the way)."""
    s = RULESET.data.scenarios["montebello"]
    clear = {h for h in s.map.hexes() if s.map.hex(h).terrains == ("pianura",) and not s.map.roads_at(h)}
    for a in sorted(clear):
        state = position({"ir18-i": a})
        for f in sorted(clear):
            if GRID.distance(a, f) < 3 or RULESET.unexaminable(state, "austria", [f]):
                continue
            starts = [n for n in sorted(GRID.neighbours(f)) if n in clear and GRID.distance(a, n) > GRID.distance(a, f)
                      and RULESET.unexaminable(state, "austria", [n])]
            if len(starts) >= 2:
                return a, f, starts[0], starts[1]
    raise AssertionError("no hex in Austria's sight beside two hexes out of it")


def test_where_a_unit_came_from_out_of_sight_is_not_served() -> None:
    """Both games hold two French stacks out of Austria's sight, at S1 and S2 (markers it sees either way); the unit
    that walks into its sight at F came from S1 in one game, from S2 in the other. Austria sees it arrive."""
    a, f, s1, s2 = arrival()
    mover, one, two, three = "6e-legere-i", "6e-legere-ii", "6e-legere-iii", "22e-i"
    games = []
    for start, stacks in ((s1, {mover: s1, one: s1, two: s2, three: s2}), (s2, {mover: s2, one: s1, two: s2, three: s1})):
        state = position({**stacks, "ir18-i": a}, leaders={"watrin": s1}, orders={"W": "advance"})
        t = at_step(state, "W", "movement")
        games.append(play(t, [({"type": "move", "unit": mover, "to": f, "column": False}, [])]))
        assert t.state.units[mover].hex == f and not RULESET.unexaminable(t.state, "austria", [f])
    assert games[0][1] != games[1][1]
    assert games[0][0] == games[1][0], "Austria is served where the unit came from, out of its sight"


def transcribed_request(disordered: str) -> tuple[bytes, bytes]:
    """In a transcribed game the recovery roll is asked for (random_requested) before it is entered: what Austria
    is served of that request and of the engine's prompt (its view; `status` shows the same prompt)."""
    t = recovery_table(disordered, {"watrin": FAR, "gency": X})
    before = FOLD.copy(t.game)
    context = GameContext(seats=("france", "austria"), kind="transcribed", options=(), seed=None)
    done = Adjudicator(RULESET).decide(before, "france", {"type": "recover", "hex": disordered}, context, NoHistory(),
                                       EnteredSupply(()))
    assert [type(e) for e in done.events] == [core.RandomRequested, core.DecisionOpened]
    return served(before, [done.events], "austria"), served(before, [done.events], "umpire")


def test_a_roll_to_enter_for_an_unseen_stack_says_nothing_of_it() -> None:
    here, there = transcribed_request(X), transcribed_request(FAR)
    assert here[1] != there[1] and f"recovery in {X}".encode() in here[1]
    assert here[0] == there[0], "Austria is told which unseen stack waits for its recovery roll"


def out_of_sight_route() -> tuple[str, str, str, str]:
    """(Austria's hex, E, S1 and S2): clear level ground, E beside S1 and S2, all three out of Austria's sight."""
    s = RULESET.data.scenarios["montebello"]
    clear = {h for h in s.map.hexes() if s.map.hex(h).terrains == ("pianura",) and not s.map.roads_at(h)}
    state = position({"ir18-i": AUSTRIAN["ir18-i"]})
    for e in sorted(clear):
        starts = [n for n in sorted(GRID.neighbours(e)) if n in clear]
        if len(starts) >= 2 and RULESET.unexaminable(state, "austria", [e, *starts[:2]]) == {e, *starts[:2]}:
            return AUSTRIAN["ir18-i"], e, starts[0], starts[1]
    raise AssertionError("no clear hex out of Austria's sight beside two others")


def test_the_route_of_a_unit_out_of_sight_changes_nothing_served() -> None:
    """Both games hold French stacks out of Austria's sight at S1, S2 and E; the unit that walks into E came from
    S1 in one game, from S2 in the other, every hex of its route unseen (projections/parabellum.served_route)."""
    a, e, s1, s2 = out_of_sight_route()
    mover, one, two, three = "6e-legere-i", "6e-legere-ii", "6e-legere-iii", "22e-i"
    games = []
    for stacks in ({mover: s1, one: s1, two: s2, three: e}, {mover: s2, one: s1, two: s2, three: e}):
        state = position({**stacks, "ir18-i": a}, leaders={"watrin": s1}, orders={"W": "advance"})
        state.seen["austria"] = [mover]  # known by name: only where it walks is hidden
        t = at_step(state, "W", "movement")
        games.append(play(t, [({"type": "move", "unit": mover, "to": e, "column": False}, [])]))
        assert t.state.units[mover].hex == e
    assert games[0][1] != games[1][1]
    assert games[0][0] == games[1][0], "Austria is served the route of a unit out of its sight"
    assert b'"6e-legere-i"' not in games[0][0]


def test_every_piece_a_declaration_names_is_judged_for_fog() -> None:
    """events/parabellum.PIECE_FIELDS names each field of the shared `assault_declared` holding piece ids: a piece
    out of Austria's sight in any of them (the `defenders`, `tested` and `elan` Arrivano leaves empty today) serves
    the event hidden; one naming only pieces in sight, `elan` None, is served whole. The shared events' tuple
    fields are judged id by id (`units_advanced.units`, which replaced the one id of `unit_advanced`)."""
    state = position({"6e-legere-i": X, **AUSTRIAN})
    assert "6e-legere-i" in RULESET.hidden_pieces(state, "austria")
    hidden = {"type": "assault_declared", "rule": "arrivano §12", "hidden": True}  # its type's rule (stub_rules), not "r"
    for field in ({"defenders": ("6e-legere-i",)}, {"tested": ("6e-legere-i",)}, {"elan": "6e-legere-i"}):
        assert RULESET.redact(ev.AssaultDeclared(attackers=(), targets=(), rule="r", **field), "austria", state) == hidden
    whole = ev.AssaultDeclared(attackers=("ir18-i",), targets=(), rule="r")
    assert RULESET.redact(whole, "austria", state)["attackers"] == ("ir18-i",)
    advance = ev.UnitsAdvanced(units=("6e-legere-i",), leaders=(), to=X, rule="r")  # a tuple field, as unit_advanced's id was
    # its stub cites §12.7 whatever the event cites (ParaBellumRuleset.stub_rules: §12.7.3 would tell a commander went)
    assert RULESET.redact(advance, "austria", state) == {"type": "units_advanced", "rule": "arrivano §12.7", "hidden": True}


SEEN, SEER = "1403", "1406"  # a hex Austria's unit at SEER sees, out of Watrin's command and in Lannes's range


def free_order_table(varying: str, other: str) -> Table:
    """Formation W activated under the reading dangling_4_3_2: caldiero_4_3_1 (arrivano §4.4 "(vedi anche 4.3.2)"),
    out of command in Lannes's range: 6e-legere-i at SEEN, in Austria's sight, and 6e-legere-ii far out of it; 22e-i
    at `varying`, 96e-i (of formation C) at `other`, both out of its sight, which sees a marker on each of their
    hexes. The free order sets 22e-i's order (if it takes it) before 6e-legere-i's, 6e-legere-ii's after."""
    a = line(X, n=7)
    state = position({"22e-i": varying, "6e-legere-i": SEEN, "6e-legere-ii": a[5], "96e-i": other, "ir18-i": SEER},
                     leaders={"watrin": a[0], "lannes": a[3]}, orders={"W": "manoeuvre"})
    assert RULESET.unexaminable(state, "austria", [SEEN, a[1], a[5], a[6]]) == {a[1], a[5], a[6]}
    t = Table(state, interpretations={"dangling_4_3_2": "caldiero_4_3_1"})
    t.send("france", {"type": "activate", "formation": "W"})
    return t


def test_how_many_unseen_units_take_the_free_order_changes_nothing_served() -> None:
    """Whether 22e-i (unseen, ordered before the unit Austria sees) takes the free order changes nothing Austria is
    served: it is served none of the orders, not even the seen unit's (ParaBellumRuleset.owner; rev-l L6)."""
    a = line(X, n=7)
    # 22e-i in command beside Watrin, or not; a marker on the same hexes either way
    one, two = free_order_table(a[1], a[6]), free_order_table(a[6], a[1])
    assert [len(t.pending().options) > 0 for t in (one, two)] == [True, True]
    austria, umpire = zip(*(play(t, [({"type": "free_order", "order": "attack"}, [])]) for t in (one, two)))
    assert [[o.unit for o in t.of(ev.UnitOrderSet)] for t in (one, two)] == [
        ["6e-legere-i", "6e-legere-ii"], ["22e-i", "6e-legere-i", "6e-legere-ii"]] and umpire[0] != umpire[1]
    assert austria[0] == austria[1] and b'"6e-legere-i"' in austria[0] and b"unit_order_set" not in austria[0]
    assert b"unit_order_set" in umpire[0]  # the bytes compared are those the orders are served in


def activated_table(second: str, other: str) -> Table:
    """Formation W at the choice of activation, 6e-legere-i beside Watrin, 6e-legere-ii at `second`, 96e-i (of
    formation C) at `other`, all far out of Austria's sight, which sees a marker on each of their hexes."""
    a = line(X, n=7)
    state = position({"6e-legere-i": a[1], "6e-legere-ii": second, "96e-i": other, **AUSTRIAN},
                     leaders={"watrin": a[0]}, orders={"W": "manoeuvre"})
    assert not RULESET.unexaminable(state, "austria", a).symmetric_difference(a), "the line must be out of sight"
    return Table(state)


def test_whether_an_unseen_unit_is_out_of_command_at_activation_changes_nothing_served() -> None:
    """arrivano §5.3 under §11.3.2: the activation of a formation whose unit out of Austria's sight is in command
    (beside its general) or out of it (six hexes away) serves Austria the same bytes. The kernel judges every event
    field naming a unit (ParaBellumRuleset.hides), not only the piece fields: formation_activated's
    `out_of_command` included."""
    a = line(X, n=7)
    near, far = activated_table(a[2], a[6]), activated_table(a[6], a[2])
    austria, umpire = zip(*(play(t, [({"type": "activate", "formation": "W"}, [])]) for t in (near, far)))
    assert RULESET.world(far.state).state.units["6e-legere-ii"].hex == a[6]
    assert umpire[0] != umpire[1], "the umpire is served where the unit stands"
    assert austria[0] == austria[1], "Austria can tell an unseen unit of the activated formation is out of command"


def test_an_event_naming_an_unseen_unit_outside_its_piece_fields_is_served_hidden() -> None:
    """The kernel's `hides` searches the whole event for a unit out of sight (word by word: an id inside another
    id is not it), so a field outside PIECE_FIELDS (Caldiero's keys and frames) serves nothing of it, and an event
    naming only its neighbour id in sight is served whole. The enemy's activation is judged without who is out of
    command (served_command first, nifuzz F1): a stub where an unseen unit was among them told it was."""
    state = position({"6e-legere-i": X, "6e-legere-ii": GRID.neighbour("3914", 4), **AUSTRIAN})
    assert RULESET.hidden_units(state, "austria") == {"6e-legere-i"}
    assert mentions({"k": {"6e-legere-i": 1}}, {"6e-legere-i"}) and not mentions({"k": ["6e-legere-ii"]}, {"6e-legere-i"})
    served = [RULESET.redact(ev.FormationActivated(formation="W", by="france", rule="r", out_of_command=(u,)),
                             "austria", state) for u in ("6e-legere-i", "6e-legere-ii")]
    assert served[0] == served[1] and served[0]["formation"] == "W" and "out_of_command" not in served[0]


def test_the_activating_side_is_served_its_own_activation_record_the_enemy_its_formation_alone() -> None:
    """arrivano §11.3.2 hides the enemy's pieces, not one's own: under the fog France, activating W, is served the
    activation's record whole (as without the fog, and as Caldiero serves it: projections/caldiero.served_own), Austria
    only which formation is activated (the s17 re-read: Arrivano cut both seats' to the formation). Views only."""
    a = line(X, n=7)
    t = activated_table(a[2], a[6])
    t.send("france", {"type": "activate", "formation": "W"})
    assert t.state.activation is not None, "the premise: W activated"
    record = seat_view(RULESET, t.game, "umpire")["state"]["activation"]
    assert record != {"formation": "W"}, "the premise: the record holds more than the formation"
    assert seat_view(RULESET, t.game, "france")["state"]["activation"] == record
    assert seat_view(RULESET, t.game, "austria")["state"]["activation"] == {"formation": "W"}
