"""fog15b: Caldiero's mirror of rev-j's R-j-10 (tests/arrivano/test_rev_j_retreat_wait.py), found clean. Every seat
is served which seat the game awaits, and a retreat's lines end only where the stack fits, going on past a full hex
(caldiero §7.1, §12.6.2), so their number hangs on the retreating side's stacks out of the enemy's sight (§20.4).
Arrivano settled a retreat with one line by itself and so told the enemy whether an unseen hex was full; Caldiero
waits for every decision's seat, even with one answer (the kernel's ParaBellumRuleset.settle_decision), so the count
never shows. This test keeps it so should the two games' settling be made one (issue 18).

Gyulai at 1517 assaulted by two French battalions from 1417 (Dr with every die a 6, weather 2: the sight's reach
cut to 2, §20.4.1) retreats one hex to 1518, tests, routs and retreats two more (§15.2.1). 1620 and 1719, both out of
France's sight from start to end, hold one Austrian battalion each: routed in one game, so the rout may end with them,
in good order in the other, so its lines go on past them (§7.1.1: a routed unit stacks only with routed ones; four
lines against seven). France sees a stack marker in each either way, never the units' status. Austria takes its first answer each time (the same lines in
both), France declines the advance: France is served the same bytes."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET
from tests.caldiero.test_combat import ATT, DEF, table, tie
from tests.caldiero.test_fog_served import FOG

ATTACKERS = {"fr-18-ligne": ATT, "fr-40-ligne": ATT}
ATTACK = {"type": "attack", "attackers": sorted(ATTACKERS), "defenders": [DEF]}
HIDDEN = {"au-callenberg": "1620", "au-banal-grenz": "1719"}  # France sees a stack marker in each (§20.4), no more
ROUTED_AT = "1518"


def played(status: str) -> tuple[list[tuple[str, dict[str, Any]]], int, bytes, bytes]:
    """The commands sent, Gyulai's count of rout lines, and what France and the umpire are served, the HIDDEN
    battalions in `status`."""
    hidden = HIDDEN
    t = table(ATTACKERS, {"au-gyulai": DEF, **hidden}, options=FOG, weather=2)
    for u in hidden:
        t.state.units[u].status = status
    before = FOLD.copy(t.game)
    sent, made, counts = [("france", ATTACK)], [("france", t.send("france", ATTACK, pad=6))], []
    while (awaited := t.awaited()) is not None and len(made) < 8:
        seat = awaited.seats[0]
        if seat == "austria" and t.unit("au-gyulai").hex == ROUTED_AT:
            counts.append(len(lines(CALDIERO_VARIANT, RULESET.world(t.state), ["au-gyulai"], 2)))
        command = t.legal(seat)[0 if seat == "austria" else -1]
        sent.append((seat, command))
        made.append((seat, t.send(seat, command, pad=6)))
    assert t.awaited() is None
    assert RULESET.unexaminable(t.state, "france", hidden.values()) == set(hidden.values()), "unseen to the end"
    return sent, *counts, *(served(RULESET, FOLD, before, made, seat) for seat in ("france", UMPIRE))


def test_how_many_lines_unseen_stacks_leave_a_rout_is_not_told_by_the_wait() -> None:
    far, behind = played("routed"), played("good")
    assert (far[1], behind[1]) == (4, 7), "the premise: the count of lines hangs on the unseen stacks"
    assert ("austria", {"type": "retreat", "unit": "au-gyulai", "path": ["1519", "1520"]}) in far[0]
    assert far[0] == behind[0], "both games are sent the same commands"
    assert far[3] != behind[3], "the umpire sees the hidden fact"
    assert far[2] == behind[2], "France learns how many lines the unseen stacks leave Gyulai"


def test_a_retreat_left_with_one_line_still_waits_for_its_seat() -> None:
    """rev-k K8: the test above compares 4 lines with 7, so it cannot catch a kernel that settles a one-answer
    retreat by itself (Arrivano's way, R-j-10: 1 line against 2+). No Caldiero geometry found gives one line in one
    game and more in the other with the stack that decides it out of the attacker's sight (searched, one hidden
    stack next to the defender, every hex of the map: at weather 3, the sight's reach 1, every formation takes Defence,
    caldiero §17.1.3, so nobody assaults; at reach 2 that stack was always in the attacker's sight). So the one-line case is held here directly: Gyulai at 1521, on
    the map's edge (three hexes around it: 1421, 1520, 1621), assaulted from 1421 (Dr, every die a 6), may retreat
    only to 1621 (1520 is no farther from the attackers, §12.6), and the game waits for Austria's one answer under
    the fog as with several. With the test above: the count of lines is never told. Mutation-checked: a kernel that
    settles a one-line retreat by itself fails this test and passes the one above."""
    t = table({"fr-18-ligne": "1421", "fr-40-ligne": "1421"}, {"au-gyulai": "1521"}, options=FOG, weather=2,
              leaders={"massena": "1421"})
    t.send("france", {"type": "attack", "attackers": ["fr-18-ligne", "fr-40-ligne"], "defenders": ["1521"]}, pad=6)
    tie(t, pad=6)  # their efficiency 3 and 4 tie (§12.3.1): the best picked, then the table
    awaited = t.awaited()
    assert awaited is not None and (awaited.kind, awaited.seats) == ("retreat", ("austria",)), "not asked: settled"
    assert t.legal("austria") == [{"type": "retreat", "unit": "au-gyulai", "path": ["1621"]}], "the premise: one line"
    assert t.unit("au-gyulai").hex == "1521"
