"""fix-h (rev-h H1 checked for Arrivano): an efficiency die's words (its `modifier`, the commander's -1 of arrivano
§13.2) depend only on the stack's own hex ("nello stesso esagono"), the hex the die is about (`Variant.bonus_reach`,
neutral): an officer of the formation standing next to an examined stack, out of Austria's sight (arrivano §11.3.2),
changes nothing Austria is served of the stack's die. Caldiero's general counts from the next hex too, so there the
die is about every neighbour (tests/caldiero/test_rev_h_fog_dice.py)."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import efficiency

from tests.arrivano.harness import RULESET, at_step, position, world
from tests.arrivano.test_fog_served import GRID, arrival, play


def recovering(officer_at: str) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when the disordered 6e-legere-i, in Austria's sight at F, tries to recover
    (a 6: it fails either way), the formation's officer gency standing at `officer_at`, out of Austria's sight."""
    a, f, s1, s2 = arrival()
    state = position({"6e-legere-i": f, "ir18-i": a}, leaders={"watrin": s2, "gency": officer_at},
                     orders={"W": "defence"})
    state.units["6e-legere-i"].status = "disordered"
    assert not RULESET.unexaminable(state, "austria", [f])
    assert RULESET.unexaminable(state, "austria", [s1, s2, officer_at]) == {s1, s2, officer_at}
    return play(at_step(state, "W", "combat"), [({"type": "recover", "hex": f}, [6])])


def far_out_of_sight() -> str:
    """A hex out of Austria's sight, not next to F."""
    a, f, *_ = arrival()
    state = position({"ir18-i": a})
    return next(h for h in sorted(GRID.neighbours(GRID.neighbour(f, 4) or f)) if GRID.distance(f, h) > 1
                and RULESET.unexaminable(state, "austria", [h]))


def test_an_officer_out_of_sight_next_to_an_examined_stack_is_not_told_by_its_die() -> None:
    _, f, s1, _ = arrival()
    near, far = recovering(s1), recovering(far_out_of_sight())
    assert near[1] != far[1], "the umpire sees where the officer stands"
    assert f'"hex":"{f}","modifier":0'.encode() in near[0], "Austria is served the examined stack's die with its words"
    assert near[0] == far[0], "Austria is told by the examined stack's die where an unseen officer stands"


def test_the_commander_s_modifier_reads_the_stack_s_hex_alone() -> None:
    """Why the die is about the stack's hex only (bonus_reach neutral): the -1 comes from the hex itself."""
    _, f, s1, _ = arrival()
    assert ARRIVANO_VARIANT.bonus_reach(world(position({})), f) == (f,)
    for officer_at, modifier in ((f, -1), (s1, 0)):
        state = position({"6e-legere-i": f}, leaders={"gency": officer_at}, orders={"W": "defence"})
        assert efficiency.die_modifier(ARRIVANO_VARIANT, world(state), ["6e-legere-i"]) == modifier
