"""Every weather state (caldiero §17): the track, the roll, the effects, confusion; initiative (§6.1)."""

from __future__ import annotations

import pytest

from arbitro.events import caldiero as ev
from tests.caldiero.harness import RULESET, Table, activate, position


def world(state):  # type: ignore[no-untyped-def]
    return RULESET.world(state)


@pytest.mark.parametrize("box, column", [(0, "3-1"), (1, "2-1"), (2, "1-1"), (3, "1-2")])
def test_attack_columns_by_weather(box: int, column: str) -> None:
    s = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"},
                 orders={"massena": "attack"}, weather=box)
    t = activate(s, "massena", step="combat")
    t.state.activation.unit_orders["fr-18-ligne"] = "attack"  # in an ice storm only a position can give it
    dice = [1] if box == 0 else [3, 1]  # confusion 3: no change (§17.2)
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=dice)
    assert t.of(ev.AssaultResolved)[0].table.column == column
    confusion = [r for r in t.rolls if r.purpose.startswith("caldiero §17.2")]
    assert len(confusion) == (0 if box == 0 else 1)


@pytest.mark.parametrize("roll, shift", [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_confusion_die(roll: int, shift: int) -> None:
    s = position({"fr-18-ligne": "1417", "au-mahoney-jager": "1517"}, leaders={"massena": "1317"},
                 orders={"massena": "attack"}, weather=1)
    t = activate(s, "massena", step="combat")
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": ["1517"]}, dice=[roll, 1])
    assert t.of(ev.AssaultResolved)[0].shifts == -1 + shift


def test_ice_storm_halves_command_range() -> None:
    s = position({}, leaders={"massena": "1317"})
    assert world(s).command_range("massena") == 4
    s.weather = 3
    assert world(s).command_range("massena") == 2  # §17.1.3, rounded up (§1.4)


@pytest.mark.parametrize("box, roll, new", [(0, 1, 0), (0, 4, 1), (0, 6, 2), (1, 6, 3), (2, 5, 3), (3, 1, 2)])
def test_weather_roll_follows_the_table(box: int, roll: int, new: int) -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317"}, weather=box)
    s.phase, s.step, s.seat = "command", "orders", "france"
    t = Table(s)
    t.send("france", {"type": "end_step"}, dice=[roll])
    assert t.state.weather == new
    assert RULESET.battle.weather.change[str(box)][roll - 1] == new  # the provisional table, as data


def test_ice_storm_ends_in_snow_at_the_end_of_the_turn() -> None:
    s = position({"fr-18-ligne": "1417", "au-colloredo": "1917"}, leaders={"massena": "1317", "hohenzollern": "1916"}, weather=3)
    s.formations["hohenzollern"].activated = True
    t = activate(s, "massena", step="combat")
    t.send("france", {"type": "end_step"}, dice=[6])  # end of turn; next weather roll from box 2
    changes = [e.box for e in t.of(ev.WeatherChanged)]
    assert changes[0] == 2 and t.of(ev.WeatherChanged)[0].rule == "caldiero §17.1.3"


@pytest.mark.parametrize("box", [0, 1, 2, 3])
def test_austrian_initiative_is_the_weather_box(box: int) -> None:
    s = position({"fr-18-ligne": "1417", "fr-5-legere": "1412", "au-colloredo": "1917"},
                 leaders={"massena": "1317", "augereau": "1412", "hohenzollern": "1916"}, weather=box)
    t = activate(s, "massena", step="combat")
    t.state.activation.unit_orders["fr-18-ligne"] = "defence"
    t.send("france", {"type": "end_step"}, dice=[(5, 1)], pad=0)
    won = t.of(ev.InitiativeWon)[-1]
    assert won.totals == {"france": 7, "austria": 1 + box}
