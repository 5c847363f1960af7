"""fog14 (item 5: orders read at declaration or in a move's course, not through parabellum/orders.declared_order).
Two Arrivano decisions are opened for the defender only when its cavalry's order allows them, and which seat the
game then awaits is served to the mover: so whether an unseen general stands within his command range (arrivano
§4.4, §5.3: out of command, Defence) is told to the enemy (§11.3.2 "si può esaminare uno stack nemico solo se si ha
una LoS"; engine-rules §V.4). Both are now asked whatever the order, the order deciding only what the owner may
answer:
- the cavalry's retreat before combat (§14.1: Manoeuvre or Defence; ArrivanoVariant.retreats_before_combat): the unit
  without Manoeuvre or Defence may only stay (ArrivanoVariant.before_combat_barred);
- the counter-charge (§14.2.4: cavalry "con un Ordine di Difesa" alone beside the charge; movement.counter_chargers):
  the cavalry without Defence may only decline (movement.may_countercharge).

Montebello's map: Bussy (Austrian cavalry, formation R under Attack) at 0802; Ott, R's general (range 4), out of
France's sight at 0806 (four hexes: Bussy in command, Attack) or 0807 (five: out of command, Defence)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events.codec import canonical
from tests.arrivano.harness import RULESET, Table, at_step, position

OTT_NEAR, OTT_FAR = "0806", "0807"
CHARGE = {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"}
ASSAULT = {"type": "assault", "attackers": ["28e-i", "28e-ii"], "targets": ["0802"]}


def after(units: dict[str, str], ott: str, step: str, command: dict[str, Any]) -> tuple[Any, bytes]:
    """France's `command` at `step` with Ott at `ott`: the seat and decision the game then awaits (served to every
    seat), and France's view."""
    state = position({"bussy": "0802", **units}, leaders={"lannes": "1302", "ott": ott},
                     orders={"L": "attack", "R": "attack"})
    assert RULESET.unexaminable(state, "france", [ott]) == {ott}
    t: Table = at_step(state, "L", step)
    assert command in t.legal("france")
    t.send("france", command)
    assert RULESET.unexaminable(t.state, "france", [ott]) == {ott}
    awaited = t.pending()
    return (awaited.seat, awaited.kind) if awaited is not None else None, canonical(RULESET.view(t.state, "france"))


def test_a_charge_is_not_told_whether_the_cavalry_beside_it_is_in_command() -> None:
    """Fixed: the question is asked whatever Bussy's order (movement.counter_chargers)."""
    near, far = (after({"12e-hussards": "1301"}, ott, "movement", CHARGE) for ott in (OTT_NEAR, OTT_FAR))
    assert near[1] == far[1], "the views differ: the hidden fact is not hidden"
    assert near[0] == far[0] == ("austria", "countercharge"), "the awaited decision tells where Ott stands"


def test_cavalry_without_defence_is_asked_and_may_only_decline() -> None:
    """§14.2.4 "con un Ordine di Difesa" still decides what Austria may answer: in command, Bussy obeys R's Attack
    and may only decline (the charge then goes on); out of command (Defence) it may counter-charge."""
    answers = {}
    for ott in (OTT_NEAR, OTT_FAR):
        state = position({"bussy": "0802", "12e-hussards": "1301"}, leaders={"lannes": "1302", "ott": ott},
                         orders={"L": "attack", "R": "attack"})
        t = at_step(state, "L", "movement")
        t.send("france", CHARGE)
        answers[ott] = t.legal("austria")
    decline, counter = {"type": "countercharge", "unit": None}, {"type": "countercharge", "unit": "bussy"}
    assert answers[OTT_NEAR] == [decline] and answers[OTT_FAR] == [counter, decline]
    state = position({"bussy": "0802", "12e-hussards": "1301"}, leaders={"lannes": "1302", "ott": OTT_NEAR},
                     orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "movement")
    t.send("france", CHARGE)
    with pytest.raises(IllegalCommand):
        t.send("austria", counter)
    t.send("austria", decline)
    assert t.state.units["12e-hussards"].charge == "0802" and t.pending() is None


def test_an_assault_is_not_told_whether_the_cavalry_it_attacks_is_in_command() -> None:
    """Fixed: the question is asked whatever Bussy's order (ArrivanoVariant.retreats_before_combat)."""
    near, far = (after({"28e-i": "0902", "28e-ii": "0902"}, ott, "combat", ASSAULT) for ott in (OTT_NEAR, OTT_FAR))
    assert near[0] == far[0] == ("austria", "cavalry_retreat"), "the awaited decision tells where Ott stands"


def test_cavalry_without_manoeuvre_or_defence_is_asked_and_may_only_stay() -> None:
    """§14.1 "se hanno un Ordine di Manovra o Difesa" still decides what Austria may answer: in command, Bussy obeys
    R's Attack and may only stay (a retreat is refused, citing §14.1); out of command (Defence) it may retreat."""
    answers = {}
    for ott in (OTT_NEAR, OTT_FAR):
        state = position({"bussy": "0802", "28e-i": "0902", "28e-ii": "0902"}, leaders={"lannes": "1302", "ott": ott},
                         orders={"L": "attack", "R": "attack"})
        t = at_step(state, "L", "combat")
        t.send("france", ASSAULT)
        answers[ott] = t.legal("austria")
    stay = {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}
    assert answers[OTT_NEAR] == [stay]
    assert stay in answers[OTT_FAR] and any(a["to"] for a in answers[OTT_FAR])
    retreat = next(a for a in answers[OTT_FAR] if a["to"])
    state = position({"bussy": "0802", "28e-i": "0902", "28e-ii": "0902"}, leaders={"lannes": "1302", "ott": OTT_NEAR},
                     orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "combat")
    t.send("france", ASSAULT)
    with pytest.raises(IllegalCommand) as refused:
        t.send("austria", retreat)
    assert refused.value.rule == "arrivano §14.1"
    # the owner is told why, in words (his own unit's order, which he knows), not as a Python list
    assert "bussy: neither a Manoeuvre nor a Defence order" in str(refused.value) and "['" not in str(refused.value)
