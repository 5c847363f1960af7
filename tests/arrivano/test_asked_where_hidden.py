"""ux15 (rev-j R-j-4): arrivano §14.1 (retreat before combat) and §14.2.4 (counter-charge) are asked of a mounted
unit with the order the rule asks OR whose order the mover may not tell (parabellum/orders.order_hidden_from), never
of one the mover can see lacks it: where France may examine Ott, Bussy and every other piece of formation R (no
independent columns chosen), Bussy's command is France's to establish, and an Attack Bussy would only stop the game
for a "stay"/"decline". The NI tests of an unseen Ott stay in tests/arrivano/test_rev_j_stay_only.py.

An F marker (§16.3.4, option physical_exhaustion) hides the order even then: only a passed fatigue test removes it, so
a unit that failed (Defence for the turn, made perhaps out of France's sight) and one not yet tested look alike; both
must be asked, France served the same bytes."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from arbitro.projections.arrivano import ArrivanoState
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, position

OTT_SEEN = "0802"  # with Bussy, in France's sight: Bussy in command, R's order his
ASSAULT = {"type": "assault", "attackers": ["28e-i", "28e-ii"], "targets": ["0802"]}
ASSAILANTS = {"28e-i": "0902", "28e-ii": "0902"}
STAY = {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}
CHARGE = {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"}
CHARGER = {"12e-hussards": "1301", "28e-i": "1003"}  # 28e-i: France's eyes on 0802
DECLINE = {"type": "countercharge", "unit": None}


def seen(units: dict[str, str], order: str) -> ArrivanoState:
    state = position({"bussy": "0802", **units}, leaders={"lannes": "1302", "ott": OTT_SEEN},
                     orders={"L": "attack", "R": order})
    assert not RULESET.unexaminable(state, "france", ["0802"])
    return state


def awaited(state: ArrivanoState, step: str, command: dict) -> tuple[str, str] | None:
    t: Table = at_step(state, "L", step)
    t.send("france", command)
    pending = t.pending()
    return (pending.seat, pending.kind) if pending is not None else None


def test_everything_seen_attack_cavalry_is_not_asked_to_retreat_before_combat() -> None:
    assert awaited(seen(ASSAILANTS, "attack"), "combat", ASSAULT) != ("austria", "cavalry_retreat")
    assert awaited(seen(ASSAILANTS, "defence"), "combat", ASSAULT) == ("austria", "cavalry_retreat")


def test_everything_seen_attack_cavalry_is_not_asked_to_countercharge() -> None:
    assert awaited(seen(CHARGER, "attack"), "movement", CHARGE) != ("austria", "countercharge")
    assert awaited(seen(CHARGER, "defence"), "movement", CHARGE) == ("austria", "countercharge")


def fatigued(units: dict[str, str], failed: bool) -> ArrivanoState:
    state = seen(units, "attack")
    state.options = ["open_order", "physical_exhaustion"]
    bussy = state.units["bussy"]
    bussy.open_order, bussy.marker_turn = "F", state.turn - 1
    bussy.fatigue_defence_turn = state.turn if failed else 0
    return state


def played(state: ArrivanoState, step: str, france: dict, austria: dict) -> tuple[bytes, bytes]:
    t: Table = at_step(state, "L", step)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", france))]
    assert austria in t.legal("austria"), f"not asked: {t.pending()}"
    made.append(("austria", t.send("austria", austria)))
    return served(RULESET, FOLD, before, made, "france"), served(RULESET, FOLD, before, made, UMPIRE)


def test_an_f_marker_hides_a_failed_fatigue_test_from_the_retreat_question() -> None:
    failed, untested = (played(fatigued(ASSAILANTS, f), "combat", ASSAULT, STAY) for f in (True, False))
    assert failed[1] != untested[1], "the umpire sees the hidden fact"
    assert failed[0] == untested[0], "France's service tells whether Bussy failed its fatigue test"


def test_an_f_marker_hides_a_failed_fatigue_test_from_the_countercharge_question() -> None:
    failed, untested = (played(fatigued(CHARGER, f), "movement", CHARGE, DECLINE) for f in (True, False))
    assert failed[1] != untested[1], "the umpire sees the hidden fact"
    assert failed[0] == untested[0], "France's service tells whether Bussy failed its fatigue test"
