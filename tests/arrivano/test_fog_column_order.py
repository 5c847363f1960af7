"""fog14 (f0fix's "Left"): an independent column's defender (arrivano §16.2.2 "Tutte le unità di un colonna
indipendente sono considerate in Comando se le truppe sono entro il raggio di comando dell'Ufficiale scelto") must not
tell the attacker, through an assault's legal() listing or its refusal, what it may not examine (arrivano §11.3.2 "si
può esaminare uno stack nemico solo se si ha una LoS"; engine-rules §V.4): where the column's officer stands, nor the
order under him (§16.2: "piazzate sotto l'Ufficiale una pedina con indicato l'ordine"; a seat's view under the fog
serves no enemy column, projections/arrivano.ArrivanoState.served_own).

The shape of tests/arrivano/test_rev_f_fog_command.py: a reduced 6e légère (3 SP) beside a village (§10.1: its column
left only for a defender under a Defence order) held by IR40 (8 + 5 SP), both battalions in Letzenyi's independent
column; Schellenberg's formation S under Attack. Everything Austrian is out of France's sight but the village."""

from __future__ import annotations

from arbitro.projections.arrivano import Column
from tests.arrivano.harness import RULESET, at_step, declaration_served, position, village_attack_hexes

VILLAGE, ATT, BACK = village_attack_hexes()
NEAR, FAR = "1014", "1115"  # two and four hexes from the village (Letzenyi's range is 2), both out of France's sight
AWAY = "0908"  # four hexes from the village (Schellenberg's range is 3), in France's sight
DEFENDERS = ["ir40-i", "ir40-ii-iii"]


def served(officer_at: str, column_order: str | None, general_at: str = "1013") -> tuple[bytes, bytes, str]:
    """What France is served at the combat step: its view, the assaults legal() lists, the declaration's answer.
    `column_order` None: IR40 in no column (Letzenyi an officer of formation S as any other)."""
    state = position({"6e-legere-i": ATT, "ir40-ii-iii": VILLAGE, "ir40-i": VILLAGE},
                     leaders={"watrin": BACK, "schellenberg": general_at, "letzenyi": officer_at},
                     orders={"W": "advance", "S": "attack"})
    state.options = ["independent_columns"]
    if column_order is not None:
        state.columns = {"letzenyi": Column(units=DEFENDERS, order=column_order)}
    state.units["6e-legere-i"].reduced = True
    unseen = {h for h in (officer_at, general_at) if h in (NEAR, FAR, "1013")}
    assert RULESET.unexaminable(state, "france", [officer_at, general_at, VILLAGE]) == unseen
    return declaration_served(at_step(state, "W", "combat"), "france", ["6e-legere-i"], VILLAGE)


def test_a_column_defender_does_not_tell_where_its_unseen_officer_stands() -> None:
    near, far = served(NEAR, "attack"), served(FAR, "attack")
    assert near[1] == b"[]" or near[2] == "declared"
    assert near[0] == far[0], "the views differ: the hidden fact is not hidden"
    assert near[1] == far[1], "legal() tells whether the unseen officer is within range of his column"
    assert near[2] == far[2], f"the declaration tells it: {near[2]!r} != {far[2]!r}"


def test_a_column_defender_does_not_tell_the_order_under_its_unseen_officer() -> None:
    attack, defence = served(NEAR, "attack"), served(NEAR, "defence")
    assert attack[0] == defence[0], "the views differ: the hidden fact is not hidden"
    assert attack[1] == defence[1], "legal() tells the order under the unseen officer"
    assert attack[2] == defence[2], f"the declaration tells it: {attack[2]!r} != {defence[2]!r}"


def test_an_examinable_officer_does_not_serve_his_column_s_order() -> None:
    """Letzenyi and Schellenberg in the village, every piece of S examinable: still no seat's view serves an enemy
    column (which units it holds, its order), so neither may the declaration."""
    attack, defence = served(VILLAGE, "attack", VILLAGE), served(VILLAGE, "defence", VILLAGE)
    assert attack[0] == defence[0], "the views differ: the hidden fact is not hidden"
    assert attack[1] == defence[1], "legal() tells the order of a column the view does not serve"
    assert attack[2] == defence[2], f"the declaration tells it: {attack[2]!r} != {defence[2]!r}"


def test_a_defender_does_not_tell_whether_it_is_in_a_column() -> None:
    """Schellenberg four hexes off, Letzenyi in the village, every piece of S examinable: in one game IR40 is
    Letzenyi's column (in command by §16.2.2, Attack), in the other it is not (out of its formation's command by
    §5.3: Defence). Which units a column holds no seat's view serves of the enemy."""
    column, none = served(VILLAGE, "attack", AWAY), served(VILLAGE, None, AWAY)
    assert column[0] == none[0], "the views differ: the hidden fact is not hidden"
    assert column[1] == none[1], "legal() tells whether the defender is in an independent column"
    assert column[2] == none[2], f"the declaration tells it: {column[2]!r} != {none[2]!r}"
