"""The turn (caricat §2), levels (§2, §3), activation (§4.1, the example of Pastrengo turn 6), cavalry activation
(§4.2, §4.2.1, §4.2.2)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.events import caricat as ev
from tests.caricat.harness import Table, position

TURN6 = {"guardie1": "0503", "savoia1": "0507", "piemonte3": "0511", "carabinieri": "0303", "aosta": "0306",
         "nizza": "0309", "sigismund1": "3305", "kinsky1": "3309", "reuss": "3503", "radetzky": "3506"}


def finish(t: Table, seat: str) -> None:
    """Meet the activation's obligations with the first legal moves, then end it."""
    while {"type": "end_activation"} not in t.legal(seat):
        t.send(seat, next(c for c in t.legal(seat) if c["type"] == "move"))
    t.send(seat, {"type": "end_activation"})


def test_the_activation_example_of_pastrengo_turn_6():
    """caricat §4.1: the rulebook's example, activation by activation."""
    t = Table(position(units=TURN6, turn=6, levels={"vittorio": "attack", "broglia": "advance", "federici": "hold",
                                                    "sigismund": "advance", "wolgemuth": "hold"}))
    assert [c for c in t.legal("italian") if c["type"] == "activate"] == [{"type": "activate", "leader": "vittorio"}]
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "activate", "leader": "broglia"})
    assert refused.value.rule == "caricat §4.1"
    t.send("italian", {"type": "activate", "leader": "vittorio"})
    finish(t, "italian")
    assert t.state.seat == "italian"  # no Austrian at Attack: the Italian goes on, at Advance
    t.send("italian", {"type": "activate_cavalry", "unit": "carabinieri"}, dice=[4, 4])  # 8: activated (§4.2)
    t.send("italian", {"type": "end_activation"})
    assert t.state.seat == "austrian"  # the answer at the same level: Sigismund
    t.send("austrian", {"type": "activate", "leader": "sigismund"})
    finish(t, "austrian")
    assert t.state.seat == "italian"
    t.send("italian", {"type": "activate_cavalry", "unit": "aosta"}, dice=[1, 2])
    t.send("italian", {"type": "end_activation"})
    assert t.state.seat == "italian"  # no Austrian left at Advance: the Italian activates Broglia
    t.send("italian", {"type": "activate", "leader": "broglia"})
    finish(t, "italian")
    assert t.state.seat == "italian"  # on to Hold: Federici due, a cavalry unit instead
    t.send("italian", {"type": "activate_cavalry", "unit": "nizza"}, dice=[1, 1])
    t.send("italian", {"type": "end_activation"})
    assert t.state.seat == "austrian"  # Wolgemuth is at Hold: the Austrian answers with a cavalry attempt
    t.send("austrian", {"type": "activate_cavalry", "unit": "reuss"}, dice=[4, 3])  # 7 > 6: fails (§4.2.1)
    assert t.state.units["reuss"].hold and t.state.seat == "italian"
    t.send("italian", {"type": "activate", "leader": "federici"})
    t.send("italian", {"type": "end_activation"})
    assert t.state.seat == "austrian"
    t.send("austrian", {"type": "activate_cavalry", "unit": "radetzky"}, dice=[3, 3])
    t.send("austrian", {"type": "end_activation"})
    assert t.state.seat == "austrian" and t.legal("austrian")[0] == {"type": "activate", "leader": "wolgemuth"}
    t.send("austrian", {"type": "activate", "leader": "wolgemuth"})
    t.send("austrian", {"type": "end_activation"})
    assert t.state.phase in ("recovery", "commitment")  # every leader activated: recovery, then the next turn
    assert [e.success for e in t.of(ev.CavalryActivated)] == [True, True, True, False, True]


def test_cavalry_next_to_the_enemy_activates_without_a_roll():
    t = Table(position(units={"carabinieri": "1011", "kinsky1": "1111", "guardie1": "0503"}))
    t.send("italian", {"type": "activate_cavalry", "unit": "carabinieri"})
    assert not t.rolls() and t.of(ev.CavalryActivated)[0].automatic
    assert t.of(ev.CavalryActivated)[0].rule == "caricat §4.2.2"


def test_a_level_changes_one_step_on_two_dice_at_most_the_leaders_value():
    t = Table(position(units={"savoia1": "1011", "kinsky1": "2608"}, phase="commitment", seat="italian"))
    with pytest.raises(IllegalCommand) as refused:
        t.send("italian", {"type": "try_level", "leader": "broglia", "level": "reserve"})  # advance -> reserve
    assert refused.value.rule == "caricat §2"
    t.send("italian", {"type": "try_level", "leader": "broglia", "level": "attack"}, dice=[4, 3])  # 7 <= 7
    assert t.state.leaders["broglia"].level == "attack"
    with pytest.raises(IllegalCommand):
        t.send("italian", {"type": "try_level", "leader": "broglia", "level": "advance"})  # once a turn


def test_a_replacement_adds_two_to_the_level_roll():
    state = position(units={"savoia1": "1011", "kinsky1": "2608"}, phase="commitment", seat="italian")
    state.leaders["broglia"].staff = True
    t = Table(state)
    t.send("italian", {"type": "try_level", "leader": "broglia", "level": "attack"}, dice=[3, 3])  # 6 + 2 > 7
    assert t.state.leaders["broglia"].level == "advance"
    assert t.of(ev.LevelAttempted)[0].total == 8 and t.of(ev.LevelAttempted)[0].rule == "caricat §7.3.1"


def test_sigismund_may_not_roll_before_turn_5_unless_attacked():
    state = position(units={"sigismund1": "3105", "savoia1": "1011"}, phase="commitment", seat="austrian", turn=3)
    t = Table(state)
    with pytest.raises(IllegalCommand) as refused:
        t.send("austrian", {"type": "try_level", "leader": "sigismund", "level": "hold"})
    assert refused.value.rule == "caricat §13.1.3"
    state.leaders["sigismund"].attacked = True
    Table(state).send("austrian", {"type": "try_level", "leader": "sigismund", "level": "hold"}, dice=[1, 1])
