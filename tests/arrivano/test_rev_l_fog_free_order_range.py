"""rev-l (fifteenth session), Arrivano's mirror of L6 (tests/caldiero/test_rev_l_fog_chief_range.py): under the
reading dangling_4_3_2: caldiero_4_3_1 (arrivano §4.4 "(vedi anche 4.3.2)"), a formation's out-of-command units in
their commander in chief's range choose their order (`free_order`), asked only where one is in range. Whether France
is asked tells Austria, which sees 6e-legere-i (out of Watrin's command at 1403), whether Lannes, out of its sight,
stands within his command range of it (arrivano §11.3.2: a commander's place is the stack's, examined only with LoS). Fixed (sixteenth session): the owner is asked at every activation under the reading
(arrivano/activation.free_order_units), the frame's units are his (the kernel's ParaBellumRuleset.redact_frame since the twenty-second session), and the orders it sets are
served to the enemy not at all (ParaBellumRuleset.owner)."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, position
from tests.arrivano.test_fog_served import SEEN, SEER, X, line

IN_RANGE, OUT_OF_RANGE = "1302", "0812"


def activated(lannes: str) -> tuple[tuple[str, ...], bytes, bytes]:
    """The free order's units, and what Austria and the umpire are served of W's activation and France's answer."""
    a = line(X, n=7)
    state = position({"6e-legere-i": SEEN, "ir18-i": SEER}, leaders={"watrin": a[0], "lannes": lannes},
                     orders={"W": "manoeuvre"})
    assert RULESET.unexaminable(state, "austria", [SEEN, lannes, a[0]]) == {lannes, a[0]}, "Lannes unseen, the 6e seen"
    t = Table(state, interpretations={"dangling_4_3_2": "caldiero_4_3_1"})
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "activate", "formation": "W"}))]
    pending = t.pending()
    assert pending is not None and pending.kind == "free_order", "asked wherever Lannes stands"
    units = t.game.core.decisions[-1].ctx.units
    made.append(("france", t.send("france", {"type": "free_order", "order": "attack"})))
    return units, *(served(RULESET, FOLD, before, made, s) for s in ("austria", UMPIRE))


def test_whether_the_unseen_chief_is_in_range_is_not_served_by_the_free_order() -> None:
    near, far = activated(IN_RANGE), activated(OUT_OF_RANGE)
    assert (near[0], far[0]) == (("6e-legere-i",), ()), "the premise: the 6e takes the free order only in range"
    assert near[2] != far[2], "the umpire sees the hidden fact"
    assert near[1] == far[1], "Austria learns whether Lannes stands within range of the 6e-legere-i"
