"""A side's efficiency value on a tie (§12.3.1 in both books: "In caso di parità il giocatore può scegliere quale
valore usare"), asked once, by the kernel, in both games (parabellum/assault_stages.efficiency_values, twenty-first
session): at the start of the combat (§12.3 "All'inizio di un combattimento entrambe le parti coinvolte devono
stabilire la propria efficienza"), among the units that fight, the attacker first, before any die. Up to this
session Caldiero's attacker named the value in its Attack command (`efficiency`, one listed attack per tied value)
and only its defender was asked; Arrivano asked both, inside the table, only where a die would be rolled.

The positions: Caldiero's 18e (6 SP, efficiency 4) and 40e de Ligne (6 SP, 3) attack from 1417 (Massena beside
them) Deutschmeister (4 SP, 4) and Colloredo (4 SP, 3) at 1517; Arrivano's Garde consulaire (2 SP, 5) and the
reduced 12e Hussards (2 SP, 4) attack the Mariassy Jäger (2 SP, 4) and the reduced Otocac (2 SP, 3). Alone, the 18e
and Colloredo, the Garde and IR 18-I have one value each."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.arrivano import steps as arrivano_steps
from arbitro.adjudicator.caldiero import steps as caldiero_steps
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.parabellum import assault_stages
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events import core
from arbitro.events import parabellum as pb
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano import harness as arrivano
from tests.arrivano.test_combat import BACK, D, X
from tests.caldiero import harness as caldiero
from tests.caldiero.test_combat import ATT, DEF
from tests.caldiero.test_combat import table as caldiero_table
from tests.caldiero.test_fog_served import FOG

ROWS = {"caldiero": caldiero_steps.ROWS, "arrivano": arrivano_steps.KINDS}
KIND = "efficiency_value"  # the question's kind and its answer's type (assault_stages.EFFICIENCY_VALUE): wire words
# Each side's two units whose values tie, and the values; ALONE, one unit a side (no tie).
ATTACKERS = {"caldiero": (("fr-18-ligne", "fr-40-ligne"), (3, 4)),
             "arrivano": (("12e-hussards", "garde-consulaire"), (4, 5))}
DEFENDERS = {"caldiero": (("au-colloredo", "au-deutschmeister"), (3, 4)),
             "arrivano": (("mariassy-jager", "otocac"), (3, 4))}
ALONE = {"caldiero": ("fr-18-ligne", "au-colloredo"), "arrivano": ("garde-consulaire", "ir18-i")}


def assault(variant: Variant, attackers_tie: bool = True, defenders_tie: bool = True,
            options: tuple[str, ...] = (), hidden: dict[str, str] | None = None,
            dice: list[int] | None = None) -> tuple[Any, list[Any]]:
    """The game's table once France's assault is declared (every attacker under an Attack order, no gun defending:
    no die before the table, whose `dice` are entered; none, and pad=0 for Caldiero: a roll asked for fails the send),
    and the events of the declaration. `hidden`: Austrian pieces elsewhere (Caldiero)."""
    attackers = list(ATTACKERS[variant.book][0]) if attackers_tie else [ALONE[variant.book][0]]
    defenders = list(DEFENDERS[variant.book][0]) if defenders_tie else [ALONE[variant.book][1]]
    if variant.book == "caldiero":
        t = caldiero_table(dict.fromkeys(attackers, ATT), dict.fromkeys(defenders, DEF) | (hidden or {}),
                           options=options)
        return t, t.send("france", {"type": "attack", "attackers": attackers, "defenders": [DEF]}, dice=dice,
                         pad=0 if dice is None else 3)
    state = arrivano.position(dict.fromkeys(attackers, X) | dict.fromkeys(defenders, D), leaders={"lannes": BACK},
                              orders={"L": "attack"})
    for u in ("12e-hussards", "otocac"):
        state.units[u].reduced = True  # 2 SP each, as their stack-mates
    t = arrivano.at_step(state, "L", "combat")
    return t, t.send("france", {"type": "assault", "attackers": sorted(attackers), "targets": [D]}, dice or [])


def asked(t: Any) -> tuple[str, tuple[str, ...], str, tuple[int, ...]] | None:
    """The efficiency question on top: its kind, seats, role and values; None if another or none."""
    frame = t.awaited()
    if frame is None or frame.kind != KIND:
        return None
    assert isinstance(frame.ctx, pb.EfficiencyChoiceAwaited)
    return frame.kind, frame.seats, frame.ctx.role, frame.ctx.values


def resolved(t: Any) -> Any:
    return [e for e in t.events if type(e).__name__ == "AssaultResolved"][-1]


def test_both_games_answer_with_the_kernel_s_row(variant: Variant) -> None:
    row = ROWS[variant.book][KIND]
    assert row.listing is assault_stages.efficiency_answers and row.refusal is assault_stages.efficiency_refusal
    assert "defender_efficiency" not in ROWS[variant.book], "Caldiero's own defender question is gone"


def test_a_tie_asks_the_attacker_then_the_defender_before_any_die(variant: Variant) -> None:
    """§12.3: each side establishes its value at the start of the combat, the attacker first; nothing is rolled, and
    the table not read, before both are answered (pad=0: a roll asked for fails the send)."""
    t, events = assault(variant)
    assert asked(t) == (KIND, ("france",), "attack", ATTACKERS[variant.book][1])
    assert t.legal("france") == [{"type": KIND, "value": v} for v in ATTACKERS[variant.book][1]]
    assert not [e for e in events if isinstance(e, core.DiceRolled)]
    t.send("france", {"type": KIND, "value": ATTACKERS[variant.book][1][0]}, pad=0)
    assert asked(t) == (KIND, ("austria",), "defence", DEFENDERS[variant.book][1])
    assert not t.of(core.DiceRolled) and not [e for e in t.events if type(e).__name__ == "AssaultResolved"]


def test_no_tie_asks_nothing(variant: Variant) -> None:
    t, events = assault(variant, attackers_tie=False, defenders_tie=False, dice=[3])
    assert not [e for e in events if isinstance(e, core.DecisionOpened) and e.frame.kind == KIND]
    assert asked(t) is None and resolved(t).result


def test_only_the_side_that_ties_is_asked(variant: Variant) -> None:
    t, _ = assault(variant, attackers_tie=False)
    assert asked(t) == (KIND, ("austria",), "defence", DEFENDERS[variant.book][1])


@pytest.mark.parametrize("pick", [0, 1])
def test_the_values_chosen_are_the_ones_the_table_uses(variant: Variant, pick: int) -> None:
    """§12.3.2: the difference of the values chosen is the die's modifier, recorded with the result."""
    t, _ = assault(variant)
    mine, theirs = ATTACKERS[variant.book][1][pick], DEFENDERS[variant.book][1][1 - pick]
    t.send("france", {"type": KIND, "value": mine}, pad=0)
    t.send("austria", {"type": KIND, "value": theirs}, dice=[3])
    record = resolved(t)
    assert (record.attacker_efficiency, record.defender_efficiency) == (mine, theirs)
    drm = [m.value for m in record.table.modifiers if m.reason.startswith(f"efficiency {mine} against {theirs}")]
    assert drm == ([mine - theirs] if mine != theirs else [])


def test_the_other_seat_s_answer_and_an_unlisted_value_are_refused(variant: Variant) -> None:
    t, _ = assault(variant)
    with pytest.raises(Rejected):
        t.send("austria", {"type": KIND, "value": ATTACKERS[variant.book][1][0]})
    with pytest.raises(Rejected) as refused:
        t.send("france", {"type": KIND, "value": 6})
    tied = ", ".join(map(str, ATTACKERS[variant.book][1]))
    assert refused.value.rule == f"{variant.book} §12.3.1"
    assert str(refused.value).startswith(f"6 is not one of the attackers' efficiency values tied for most SP: {tied}")
    assert asked(t) == (KIND, ("france",), "attack", ATTACKERS[variant.book][1]), "nothing changed"


def test_the_tied_values_are_served_to_their_seat_alone(variant: Variant) -> None:
    """The question's values are its side's (caldiero §20.4, arrivano §11.3.2: what a seat may examine of the enemy
    is what its sight allows, and a tie is the side's to state): the other seat is served the question, kind, seat
    and rule, without them; its own seat and the umpire with them."""
    t, _ = assault(variant)
    frame = t.game.core.decisions[-1]
    ruleset = (caldiero if variant.book == "caldiero" else arrivano).RULESET
    served_to = {seat: ruleset.redact_frame(frame, seat, t.state)["ctx"] for seat in ("france", "austria", UMPIRE)}
    assert served_to["france"]["values"] == served_to[UMPIRE]["values"] == ATTACKERS[variant.book][1]
    assert served_to["austria"] == {"ctx": "parabellum_efficiency_value"}


# Austrian battalions out of France's sight under the fog (caldiero §20.4): two games differ only in which stands
# behind the defender and which far off (as tests/caldiero/test_assault_served_whole.py).
BEHIND, AWAY = "1621", "2618"


@pytest.mark.parametrize("hidden", [{"au-callenberg": BEHIND, "au-gyulai": AWAY},
                                    {"au-gyulai": BEHIND, "au-callenberg": AWAY}])
def test_a_tie_under_the_fog_tells_the_enemy_nothing_unseen(hidden: dict[str, str]) -> None:
    """Caldiero's fog (§20.4): both sides tie; France is asked, then Austria, then the table is read. What France is
    served of the whole combat is the same bytes whichever Austrian battalion stands unseen behind the defenders (the
    control: the umpire's differ); Austria's question reaches France as its kind and seat alone."""
    def played(hidden: dict[str, str]) -> tuple[bytes, ...]:
        t, _ = assault(CALDIERO_VARIANT, options=FOG, hidden=hidden)
        before = caldiero.FOLD.copy(t.game)
        made = [("france", t.send("france", {"type": KIND, "value": 3}, pad=0))]
        assert asked(t) is not None and asked(t)[1] == ("austria",)
        made.append(("austria", t.send("austria", {"type": KIND, "value": 4}, dice=[3])))
        return tuple(served(caldiero.RULESET, caldiero.FOLD, before, made, seat) for seat in ("france", UMPIRE))

    assert caldiero.RULESET.unexaminable(caldiero_table({}, hidden, options=FOG).state, "france",
                                         [BEHIND, AWAY]) == {BEHIND, AWAY}, "the premise: both out of France's sight"
    one, other = played({"au-callenberg": BEHIND, "au-gyulai": AWAY}), played(hidden)
    assert one[0] == other[0], "France learns nothing of what stands unseen"
    assert (one[1] == other[1]) == (hidden == {"au-callenberg": BEHIND, "au-gyulai": AWAY}), "the umpire sees it"


def test_caldiero_s_elan_is_rolled_once_after_the_tie_is_answered() -> None:
    """caldiero §16.1's Elan test is the combat's first die: the tie is asked before it (§12.3), and the stage that
    runs again once it is answered rolls the Elan once (its die, then its columns, then the table)."""
    t = caldiero_table({"fr-18-ligne": ATT, "fr-40-ligne": ATT}, {"au-colloredo": DEF})
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne", "fr-40-ligne"], "defenders": [DEF],
                      "elan": "fr-18-ligne"}, pad=0)
    assert asked(t) == (KIND, ("france",), "attack", (3, 4)) and not t.of(core.DiceRolled)
    t.send("france", {"type": KIND, "value": 4}, dice=[1, 2, 3])
    purposes = [r.purpose for r in t.of(core.DiceRolled)]
    assert len([p for p in purposes if "Elan test" in p]) == 1 and "assault" in purposes[-1], purposes
    assert resolved(t).attacker_efficiency == 4


@pytest.mark.parametrize("options", [(), FOG])
def test_a_hidden_order_s_tie_is_asked_only_under_the_fog(options: tuple[str, ...],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """assault_stages.order_may_tie read by Caldiero with a user's weather box giving Austria's units in Defence a
    bonus (the field arrivano §17.2.7 needs; caldiero §17 prints none): Colloredo and Callenberg (3, 4 SP each) have
    one value but could tie with one of them in Defence. Under §20.4's fog (an optional rule) an order may be hidden
    and Austria is asked, its one value listed; without the fog nothing is hidden and nothing is asked."""
    box = World.weather_box
    monkeypatch.setattr(World, "weather_box", lambda self: (b := box(self)) and b.model_copy(
        update={"defence_efficiency_bonus": {"austria": 1}}))
    t = caldiero_table({"fr-18-ligne": ATT}, {"au-colloredo": DEF, "au-callenberg": DEF}, options=options)
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF]}, dice=[3] * 3)
    assert asked(t) == ((KIND, ("austria",), "defence", (3,)) if options else None)

