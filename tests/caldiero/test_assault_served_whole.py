"""A whole assault under Caldiero's fog of war (caldiero §20.4, an optional rule) serves the attacker nothing of what it
may not examine (engine-rules §V.4-§V.6): its declaration, the table's result for every die (§12.5.4), each seat's
answers (the defender's taken each way), retreats, exchanges and advances, up to the step's return (as
tests/arrivano/test_assault_served_whole.py for Arrivano).

Gyulai's battalion holds 1517 against the 18e de Ligne from 1417, Austrian infantry on both flanks (attacked with it,
§12.2.1). Behind it, 1621 is out of France's sight (1618, nearer, is seen once 1517 empties: rightly, so not used); two
games differ only in which of two identical battalions (Callenberg or Colloredo: one formation, strength, efficiency and
movement) stands there and which far off at 2618, also unseen. France declines every advance and takes every last answer
it is offered. Every command of both games is the same, and France must be served the same bytes (its log item per
command, its view and what status tells it); the umpire's differ (the control). The same holds from the defender's side
for French battalions out of Austria's sight behind the attacker."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET
from tests.caldiero.test_combat import ATT, DEF, FLANKS_HELD, table
from tests.caldiero.test_fog_served import FOG

BEHIND, AWAY = "1621", "2618"
HIDDEN = {"au-callenberg": BEHIND, "au-colloredo": AWAY, "au-banal-grenz": AWAY}
FRENCH = {"fr-4-ligne": "1013", "fr-75-ligne": "1012", "fr-25-ligne": "1012"}  # identical battalions, unseen
ATTACK = {"type": "attack", "attackers": ["fr-18-ligne"], "defenders": [DEF, *FLANKS_HELD.values()]}


def assault(hidden: dict[str, str], die: int, answer: int, french: dict[str, str] | None = None,
            ) -> tuple[list[tuple[str, dict[str, Any]]], bytes, bytes, bytes]:
    """The assault with every die `die`, Austria answering its `answer`-th option (first or last), France its last,
    until no decision is awaited: the commands sent, and what France, the umpire and Austria are served of them.
    `hidden`: Austrian pieces out of France's sight; `french`: French pieces out of Austria's."""
    french = FRENCH if french is None else french
    t = table({"fr-18-ligne": ATT, **french}, {"au-gyulai": DEF, **FLANKS_HELD, **hidden}, options=FOG)
    assert RULESET.unexaminable(t.state, "france", hidden.values()) == set(hidden.values()), "out of France's sight"
    assert RULESET.unexaminable(t.state, "austria", french.values()) == set(french.values()), "out of Austria's"
    before = FOLD.copy(t.game)
    sent: list[tuple[str, dict[str, Any]]] = [("france", ATTACK)]
    made = [("france", t.send("france", ATTACK, pad=die))]
    while (awaited := t.awaited()) is not None and len(made) < 12:
        seat = awaited.seats[0]
        command = t.legal(seat)[answer if seat == "austria" else -1]
        sent.append((seat, command))
        made.append((seat, t.send(seat, command, pad=die)))
    assert t.awaited() is None, "the assault ends"
    return sent, *(served(RULESET, FOLD, before, made, seat) for seat in ("france", UMPIRE, "austria"))


@pytest.mark.parametrize("answer", [0, -1])
@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("hidden", [{"au-colloredo": BEHIND, "au-callenberg": AWAY, "au-banal-grenz": AWAY},  # who
                                    {"au-callenberg": BEHIND, "au-colloredo": BEHIND, "au-banal-grenz": AWAY}],  # many
                         ids=["who", "how-many"])
def test_a_whole_assault_tells_the_attacker_nothing_unseen(hidden: dict[str, str], die: int, answer: int) -> None:
    """`who`: which battalion stands behind the defender; `how-many`: one or two (France sees a stack's marker,
    §20.4, never what it holds)."""
    one, other = assault(HIDDEN, die, answer), assault(hidden, die, answer)
    assert one[0] == other[0], "both games are sent the same commands"
    assert one[2] != other[2], "the umpire sees the hidden fact"
    assert one[1] == other[1], "France learns what stands unseen behind the defender"


@pytest.mark.parametrize("answer", [0, -1])
@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("french", [{"fr-75-ligne": "1013", "fr-4-ligne": "1012", "fr-25-ligne": "1012"},  # who
                                    {"fr-4-ligne": "1013", "fr-75-ligne": "1013", "fr-25-ligne": "1012"}],  # many
                         ids=["who", "how-many"])
def test_a_whole_assault_tells_the_defender_nothing_unseen(french: dict[str, str], die: int, answer: int) -> None:
    """The same assault seen from Austria: two games differ only in which French battalions, or how many, stand out of
    its sight behind the attacker (the frames an assault asks it name the attackers it sees, nothing else)."""
    one, other = assault(HIDDEN, die, answer), assault(HIDDEN, die, answer, french)
    assert one[0] == other[0], "both games are sent the same commands"
    assert one[2] != other[2], "the umpire sees the hidden fact"
    assert one[3] == other[3], "Austria learns what stands unseen behind the attacker"


def test_the_dice_reach_the_results_that_move_pieces() -> None:
    """The test above is worth its name only if its dice reach answers of both seats after the table (a retreat or an
    exchange next to the unseen hex)."""
    sent = [(seat, command["type"]) for die in range(1, 7) for answer in (0, -1)
            for seat, command in assault(HIDDEN, die, answer)[0][1:]]
    assert {("austria", "exchange_loss"), ("austria", "retreat"), ("france", "ne_choice"),
            ("france", "decline")} <= set(sent)
