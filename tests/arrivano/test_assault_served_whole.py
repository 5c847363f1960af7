"""A whole assault under Arrivano's fog of war (arrivano §11.3.2, always in force) serves the attacker nothing of what it
may not examine (engine-rules §V.4-§V.6): its declaration, the table's result for every die (§12.5.4: AE, DE, NE, DR, EX
as the die falls), each seat's answers (the defender's DR choice taken each way), retreats, advances and the commander's
refuge, up to the step's return.

IR Colloredo 57-I holds 2011 against the 6e Légère from 1911, the 22e on both flanks. Behind it, 2110 and 2210 beyond
are out of France's sight, as is 3914 far off; Austrian battalions of one formation, strength and efficiency (IR Stuart
18-I to III, Colloredo 57-II) stand there. Two games differ only in which battalion stands behind the defender, or in
how many stand beyond it. France declines every advance (in 2011 it would see 2110, and rightly learn who holds it).
Every command of both games is the same, and France must be served the same bytes (its log item per command, its view
and what status tells it); the umpire's differ (the control). The same holds from the defender's side for French
battalions out of Austria's sight behind the attacker."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, position

DEFENDER, ATTACKER, BEHIND, BEYOND, AWAY = "2011", "1911", "2110", "2210", "3914"
HIDDEN = {"ir18-i": BEHIND, "ir18-ii": BEYOND, "ir18-iii": AWAY, "ir57-ii": AWAY}
ASSAULT = {"type": "assault", "attackers": ["6e-legere-i"], "targets": [DEFENDER]}


def table(hidden: dict[str, str]) -> Table:
    """`hidden`: pieces each out of its enemy's sight."""
    units = {"ir57-i": DEFENDER, **hidden, "6e-legere-i": ATTACKER, "22e-i": "1910",
             "22e-ii": "2012"}
    state = position(units, leaders={"watrin": ATTACKER}, orders={"W": "attack"})
    for unit, at in hidden.items():
        enemy = "france" if state.units[unit].side == "austria" else "austria"
        assert RULESET.unexaminable(state, enemy, [at]) == {at}, f"{unit} out of {enemy}'s sight"
    return at_step(state, "W", "combat")


def assault(hidden: dict[str, str], die: int, answer: int) -> tuple[list[tuple[str, dict[str, Any]]], bytes, bytes,
                                                                   bytes]:
    """The assault with every die `die`, Austria answering its `answer`-th option (first or last), France its last
    (it declines to advance, which would bring 2110 into its sight), until no decision is awaited: the commands sent,
    and what France, the umpire and Austria are served of them."""
    t = table(hidden)
    before = FOLD.copy(t.game)
    sent: list[tuple[str, dict[str, Any]]] = [("france", ASSAULT)]
    made = [("france", t.send("france", ASSAULT, pad=die))]
    while (awaited := t.pending()) is not None and len(made) < 12:
        command = awaited.options[answer if awaited.seat == "austria" else -1]
        sent.append((awaited.seat, command))
        made.append((awaited.seat, t.send(awaited.seat, command, pad=die)))
    assert t.pending() is None, "the assault ends"
    return sent, *(served(RULESET, FOLD, before, made, seat) for seat in ("france", UMPIRE, "austria"))


@pytest.mark.parametrize("answer", [0, -1])
@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("hidden", [{"ir18-ii": BEHIND, "ir18-i": BEYOND, "ir18-iii": AWAY, "ir57-ii": AWAY},  # who
                                    {"ir18-i": BEHIND, "ir18-ii": BEYOND, "ir18-iii": BEYOND, "ir57-ii": AWAY}],  # many
                         ids=["who", "how-many"])
def test_a_whole_assault_tells_the_attacker_nothing_unseen(hidden: dict[str, str], die: int, answer: int) -> None:
    """`who`: which battalion stands behind the defender; `how-many`: one or two in the hex beyond (France sees a
    stack's marker, §11.3.2, never what it holds; two in 2110 itself would change where a retreat may go, which
    France sees)."""
    one, other = assault(HIDDEN, die, answer), assault(hidden, die, answer)
    assert one[0] == other[0], "both games are sent the same commands"
    assert one[2] != other[2], "the umpire sees the hidden fact"
    assert one[1] == other[1], "France learns what stands unseen behind the defender"


FRENCH = {"22e-iii": "1814", "40e-i": "1708", "40e-ii": "1708"}  # identical battalions out of Austria's sight


@pytest.mark.parametrize("answer", [0, -1])
@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("french", [{"40e-i": "1814", "22e-iii": "1708", "40e-ii": "1708"},  # who
                                    {"22e-iii": "1814", "40e-i": "1814", "40e-ii": "1708"}],  # how many
                         ids=["who", "how-many"])
def test_a_whole_assault_tells_the_defender_nothing_unseen(french: dict[str, str], die: int, answer: int) -> None:
    """The same assault seen from Austria: two games differ only in which French battalions, or how many, stand out of
    its sight behind the attacker (the frames an assault asks it name the attackers it sees, nothing else)."""
    one, other = assault({**HIDDEN, **FRENCH}, die, answer), assault({**HIDDEN, **french}, die, answer)
    assert one[0] == other[0], "both games are sent the same commands"
    assert one[2] != other[2], "the umpire sees the hidden fact"
    assert one[3] == other[3], "Austria learns what stands unseen behind the attacker"


def test_the_dice_reach_every_kind_of_end() -> None:
    """The test above is worth its name only if its dice reach the defender's DR choice (a retreat next to the unseen
    hex), an advance offered, the attacker's Ne test and its commander's refuge."""
    sent = [command for die in range(1, 7) for answer in (0, -1)
            for _, command in assault(HIDDEN, die, answer)[0]]
    assert {"dr_choice", "decline", "commander_refuge", "ne_choice"} <= {command["type"] for command in sent}
    assert {"type": "dr_choice", "choice": "retreat"} in sent
