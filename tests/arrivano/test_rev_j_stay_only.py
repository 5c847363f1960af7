"""rev-j: arrivano §14.1 and §14.2.4 are now asked whatever the cavalry's order (fog14, aa854a9 and c7fadf5), the
true order filtering the owner's answers. Asked, the question must tell France nothing of where Ott (out of its sight,
arrivano §11.3.2) stands, neither while it waits nor after Austria's answer: France's whole service (its log, view and
status: bench/served.served) from the declaration through Austria's "stay"/"decline" must be the
same bytes whether Bussy is in command (Attack: stay/decline its only answer) or out of command (Defence: it could
have gone). Montebello, as tests/arrivano/test_fog_cavalry_asked.py: Bussy at 0802, Ott at 0806 (4 hexes, in
command) or 0807 (5 hexes, out of command)."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, position

OTT_NEAR, OTT_FAR = "0806", "0807"
ASSAULT = {"type": "assault", "attackers": ["28e-i", "28e-ii"], "targets": ["0802"]}
STAY = {"type": "cavalry_retreat", "to": None, "units": None, "off_map": False}
CHARGE = {"type": "move", "unit": "12e-hussards", "to": "0902", "column": False, "charge": "0802"}
DECLINE = {"type": "countercharge", "unit": None}


def played(units: dict[str, str], ott: str, step: str, france: dict, austria: dict) -> tuple[bytes, bytes]:
    state = position({"bussy": "0802", **units}, leaders={"lannes": "1302", "ott": ott},
                     orders={"L": "attack", "R": "attack"})
    t: Table = at_step(state, "L", step)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", france))]
    assert austria in t.legal("austria")
    made.append(("austria", t.send("austria", austria)))
    return served(RULESET, FOLD, before, made, "france"), served(RULESET, FOLD, before, made, UMPIRE)


def test_a_stay_only_retreat_question_and_its_answer_tell_france_nothing() -> None:
    near, far = (played({"28e-i": "0902", "28e-ii": "0902"}, ott, "combat", ASSAULT, STAY) for ott in (OTT_NEAR, OTT_FAR))
    assert near[1] != far[1], "the umpire sees the hidden fact"
    assert near[0] == far[0], "France's service tells whether Bussy could have retreated (where Ott stands)"


def test_a_decline_only_countercharge_question_and_its_answer_tell_france_nothing() -> None:
    near, far = (played({"12e-hussards": "1301"}, ott, "movement", CHARGE, DECLINE) for ott in (OTT_NEAR, OTT_FAR))
    assert near[1] != far[1], "the umpire sees the hidden fact"
    assert near[0] == far[0], "France's service tells whether Bussy could have counter-charged (where Ott stands)"


def test_horse_artillery_may_always_retreat_before_combat() -> None:
    """arrivano §11 ("Unità di Artiglieria possono sempre scegliere di avere un Ordine di Manovra o Difesa ...
    indipendentemente dall'Ordine della loro formazione") with §14.1 (horse artillery not "moved" may retreat "se hanno
    un Ordine di Manovra o Difesa"): artillery may always have the order §14.1 asks, so its formation's Attack should
    not leave O'Reilly's horse battery only "stay". retreats.may_retreat_before_combat (now the variant's
    before_combat_barred) read order_of alone (the formation's order) and ignored the artillery's choice (the orders
    table's artillery_may_choose). FAILS on main (7705aca)."""
    state = position({"art-oreilly": "0802", "28e-i": "0902", "28e-ii": "0902"}, leaders={"lannes": "1302", "ott": OTT_NEAR},
                     orders={"L": "attack", "R": "attack"})
    t = at_step(state, "L", "combat")
    t.send("france", ASSAULT)
    assert t.pending().kind == "cavalry_retreat"
    assert any(a["to"] for a in t.legal("austria")), f"horse artillery may only stay: {t.legal('austria')}"
