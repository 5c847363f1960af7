"""fog15b (fog14's "Columns served inconsistently"): an independent column's order is the marker placed under its
officer (arrivano §16.2: "piazzate sotto l'Ufficiale una pedina con indicato l'ordine"), and no seat's view under the
fog serves an enemy column, its order or its units (projections/arrivano.ArrivanoState.served_own; fog14's
declared_order reads the formation's order for the same reason). So the events that carry a column's order are served
to the enemy as stubs: `column_formed` (its order and units), `order_changed` with a `column`, and the
`order_change_tried` of a column's activation (the order its officer tried for). That a column is activated stays
public: the initiative's winner may choose an enemy column (arrivano §6.1 "amica o nemica", §17.2.9), so legal() lists
it to either seat and `formation_activated` names it.

Letzenyi's column (IR40, Schellenberg's formation S under Attack) stands out of France's sight, Schellenberg beyond
his range. Two games differ only in the order Austria gives its column: France is served the same bytes (its log
items, view, status). Rejoining a column (§16.2.1) is its owner's command, `rejoin_column`: activating one never
rejoins it, whatever the range."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator.arrivano.activation import officer_in_superior_range
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import arrivano as ev
from arbitro.projections.arrivano import Column
from bench.served import markers_aside, served
from tests.arrivano.harness import FOLD, RULESET, Table, position, village_attack_hexes, world

VILLAGE, ATT, BACK = village_attack_hexes()
COLUMN_AT = "1014"  # out of France's sight (tests/arrivano/test_fog_column_order.py's NEAR)
FAR, NEAR = "0908", "1013"  # Schellenberg beyond his range of Letzenyi (in France's sight), or within it (out of it)
UNSEEN_FAR = "1018"  # beyond his range of Letzenyi, out of France's sight
UNITS = ["ir40-i", "ir40-ii-iii"]


def table(column: Column | None, general_at: str = FAR, units_at: str = COLUMN_AT) -> Table:
    state = position({"6e-legere-i": ATT, "ir40-i": units_at, "ir40-ii-iii": units_at},
                     leaders={"watrin": BACK, "schellenberg": general_at, "letzenyi": COLUMN_AT},
                     orders={"W": "advance", "S": "attack"})
    state.options = ["independent_columns"]
    state.columns = {"letzenyi": column} if column is not None else {}
    state.seat = "austria"
    assert RULESET.unexaminable(state, "france", [COLUMN_AT, NEAR]) == {COLUMN_AT, NEAR}
    assert officer_in_superior_range(world(state), "letzenyi") == (general_at == NEAR)
    assert general_at == FAR or RULESET.unexaminable(state, "france", [general_at]) == {general_at}
    return Table(state)


def france_served(t: Table, commands: list[dict[str, Any]], dice: list[int]) -> tuple[bytes, list[Any], bytes]:
    """France's service of Austria's `commands`, their events, and Austria's own service (rev-k K7: the owner is
    served its column whole, ArrivanoRuleset.hides stubbing it for the other side only)."""
    before = FOLD.copy(t.game)
    made = [("austria", t.send("austria", command, dice=dice)) for command in commands]
    return (served(RULESET, FOLD, before, made, "france"), [e for _, events in made for e in events],
            served(RULESET, FOLD, before, made, "austria"))


def test_the_order_an_unseen_officer_tries_for_his_column_is_not_served() -> None:
    """Austria activates the column and Letzenyi tries (and passes, a 1) for Advance or for Manoeuvre."""
    games = [france_served(table(Column(units=UNITS, order="attack")),
                           [{"type": "activate", "formation": "letzenyi"},
                            {"type": "try_order_change", "order": order}], dice=[1]) for order in ("advance", "manoeuvre")]
    changed = [[e.order for e in events if isinstance(e, ev.OrderChanged)] for _, events, _ in games]
    assert changed == [["advance"], ["manoeuvre"]], "the premise: the tries passed"
    assert games[0][0] == games[1][0], "France is served the order under an officer it may not examine"
    for (_, _, austria), order in zip(games, ("advance", "manoeuvre")):
        assert {"type": "order_changed", "order": order} in own_log(austria, "order_changed"), \
            "Austria is not served the order its own officer obtained for his column"


def own_log(service: bytes, kind: str) -> list[dict[str, Any]]:
    """The events of `kind` in a seat's log items (served's first part), each with its type, order and units."""
    events = [e["event"] for item in json.loads(service)[0] for e in item["events"] if e["type"] == kind]
    return [{k: e[k] for k in ("type", "order", "units") if k in e} for e in events]


@pytest.mark.parametrize("units_at", [COLUMN_AT, VILLAGE])
def test_the_order_a_column_is_formed_with_is_not_served(units_at: str) -> None:
    """Schellenberg within his range (§16.2), Austria forms Letzenyi's column under Attack or under Defence, IR40
    with Letzenyi or in the village, in France's sight (two hexes from him: his range)."""
    games = [france_served(table(None, NEAR, units_at), [{"type": "form_column", "officer": "letzenyi", "units": UNITS,
                                          "order": order}], dice=[]) for order in ("attack", "defence")]
    formed = [[e.order for e in events if isinstance(e, ev.ColumnFormed)] for _, events, _ in games]
    assert formed == [["attack"], ["defence"]], "the premise: the column was formed"
    assert games[0][0] == games[1][0], "France is served the order of a column it may not examine"
    for (_, _, austria), order in zip(games, ("attack", "defence")):
        assert {"type": "column_formed", "order": order, "units": UNITS} in own_log(austria, "column_formed"), \
            "Austria is not served the column it formed"


def test_whether_an_unseen_officer_is_within_his_unseen_general_s_range_is_not_served() -> None:
    """Austria activates Letzenyi's column, Schellenberg within his range (1013) or beyond it (1018), both out of
    France's sight. Up to the fifteenth session activation.activate dissolved the column by itself in the first game
    (column_dissolved, the activation spent, the initiative rolled again) and activated it in the other, telling France
    which (fog15b's strict xfail, 827ee3f). arrivano §16.2.1 ("il giocatore decide di riaggiungerla alla formazione
    principale, ma per farlo deve essere nel raggio di comando") makes rejoining the owner's choice: `activate` always
    activates the column, and `rejoin_column` rejoins it."""
    games = [france_served(table(Column(units=UNITS, order="attack"), general_at),
                           [{"type": "activate", "formation": "letzenyi"}], dice=[1, 1])[0]
             for general_at in (NEAR, UNSEEN_FAR)]
    assert games[0] == games[1], "France learns whether the unseen officer is within his unseen general's range"


def rejoin_legal_and_refusal(general_at: str, seat: str) -> tuple[list[dict[str, Any]], tuple[str, str]]:
    """The rejoin commands `seat` is listed as the initiative's winner, and the refusal of Letzenyi's rejoin."""
    t = table(Column(units=UNITS, order="attack"), general_at)
    t.state.seat = seat
    listed = [c for c in t.legal(seat) if c["type"] == "rejoin_column"]
    with pytest.raises(IllegalCommand) as e:
        t.send(seat, {"type": "rejoin_column", "officer": "letzenyi"})
    return listed, (e.value.rule, str(e.value))


def test_the_owner_alone_is_offered_the_rejoin_within_range() -> None:
    """arrivano §16.2.1: Austria, winning the initiative, is listed `rejoin_column` for Letzenyi with Schellenberg
    within his range, and refused beyond it (served to Austria alone, naming the range); France, which may activate
    the column (§6.1 "amica o nemica"), is never listed it and is refused with the same words wherever Schellenberg
    stands: a probe tells France nothing of two commanders it may not see."""
    t = table(Column(units=UNITS, order="attack"), NEAR)
    assert {"type": "rejoin_column", "officer": "letzenyi"} in t.legal("austria")
    listed, refusal = rejoin_legal_and_refusal(UNSEEN_FAR, "austria")
    assert listed == [] and refusal[0] == "arrivano §16.2.1" and "within his superior's command range; may: none" in refusal[1]
    france = [rejoin_legal_and_refusal(general_at, "france") for general_at in (NEAR, UNSEEN_FAR)]
    assert france[0] == france[1] and france[0][0] == []
    assert france[0][1][0] == "arrivano §16.2.1" and "only a column's owner rejoins it" in france[0][1][1]


def test_the_owner_rejoins_his_column_and_its_activation_is_spent() -> None:
    """Austria rejoins Letzenyi's column (Schellenberg within range, both unseen): column_dissolved is served to
    France whole, as the table shows the order marker taken away (§16.2.1 "Togliete l'ordine che aveva l'Ufficiale");
    no formation is activated and the initiative is rolled again."""
    t = table(Column(units=UNITS, order="attack"), NEAR)
    events = t.send("austria", {"type": "rejoin_column", "officer": "letzenyi"}, dice=[1, 1])
    assert [e for e in events if isinstance(e, ev.ColumnDissolved)] == [ev.ColumnDissolved(officer="letzenyi",
                                                                                           rule="arrivano §16.2.1")]
    assert not [e for e in events if isinstance(e, ev.FormationActivated)] and "letzenyi" not in t.state.columns
    assert any(isinstance(e, ev.InitiativeWon) for e in events)


def test_an_officer_s_column_activated_again_is_refused_citing_its_own_rule() -> None:
    """arrivano §16.2: an officer's column already activated this turn is refused citing §16.2, the optional rule it
    comes from, not §17.2.9 (Franceschi's column at Campotenese)."""
    t = table(Column(units=UNITS, order="attack", activated=True), NEAR)
    with pytest.raises(IllegalCommand) as e:
        t.send("austria", {"type": "activate", "formation": "letzenyi"})
    assert e.value.rule == "arrivano §16.2" and "already activated this turn" in str(e.value), (e.value.rule, e.value)


def test_a_rejoin_tells_france_nothing_of_where_the_unseen_officer_and_general_stand() -> None:
    """fogw (s17 re-read's doubt): `column_dissolved` is served to France whole where Letzenyi and Schellenberg are
    out of its sight. A rejoin needs the officer "nel raggio di comando del proprio Superiore" (§16.2.1), so it tells
    France he is within range; but so does the owner's choice itself, whatever is served of it: the activation is
    spent without a formation activated, and the column leaves the activations France is listed (it may activate an
    enemy column, §6.1 "amica o nemica"). Serving it to Austria alone would hide nothing; what no service may tell is
    more than the choice: two games differing in where the unseen Schellenberg stands within range (1013, 1016) serve
    France the same bytes, and so do two differing in where Letzenyi and his column stand (1014, 1015), but for
    where their marker stands (public: caldiero §20.4, arrivano §11.3.2)."""
    def rejoined(general_at: str, column_at: str) -> bytes:
        t = table(Column(units=UNITS, order="attack"), NEAR, units_at=column_at)
        t.state.leaders["schellenberg"].hex, t.state.leaders["letzenyi"].hex = general_at, column_at
        assert officer_in_superior_range(world(t.state), "letzenyi")
        assert RULESET.unexaminable(t.state, "france", [general_at, column_at]) == {general_at, column_at}
        served_france, events, _ = france_served(t, [{"type": "rejoin_column", "officer": "letzenyi"}], dice=[1, 1])
        assert any(isinstance(e, ev.ColumnDissolved) for e in events), "the premise: the column rejoined"
        return served_france
    assert rejoined(NEAR, COLUMN_AT) == rejoined("1016", COLUMN_AT), "France learns where the unseen general stands"
    assert markers_aside(rejoined(NEAR, COLUMN_AT)) == markers_aside(rejoined(NEAR, "1015")), \
        "France learns where the unseen column stands"
