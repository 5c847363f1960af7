"""marengo §6: set-up. Time at 6:00, morale from the track, the French At Start blocks drawn at random
(a draw only France sees) into the marked zones face down and unactivated, reinforcements face down in
their tables."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Interp, data
from arbitro.adjudicator.marengo.data_loader import check_scenario
from arbitro.adjudicator.marengo.sequence import begin_turn
from arbitro.events import marengo as ev
from arbitro.projections.marengo import POOL, SIDES, Block, MarengoState


def new_state() -> MarengoState:
    """The scenario's set-up from the data in force, which must then hold the scenario's invariants."""
    d = data()
    check_scenario(d)
    blocks: dict[str, Block] = {}
    for spec in d.armies.blocks:
        blocks[spec.id] = Block(side=spec.side, arm=spec.arm, strength=spec.strength, zone="at_start",
                                activated=spec.side != "france")
    for t in d.armies.reinforcements:
        for arr in t.arrivals:
            for bid in arr.blocks:
                blocks[bid].zone = f"{POOL}{t.id}"
                blocks[bid].hour = arr.hour
                blocks[bid].activated = True  # marengo §6: reinforcements need no activation
    time = d.armies.time
    return MarengoState(
        round=1, hour=time.first_hour, rounds=time.rounds, first_hour=time.first_hour,
        activation_hour=time.activation_free_hour, turn=0, phasing="austria", step="setup",
        blocks=dict(sorted(blocks.items())),
        morale={s: d.armies.sides[s].morale for s in SIDES},
        demoralised={s: False for s in SIDES}, bonus_given={s: False for s in SIDES},
        at_start_zones=[z.id for z in d.map.zones if z.at_start],
    )


def start(ctx: Any, interp: Interp) -> None:
    """The hidden At Start draw (only France sees it), then the first Austrian turn at 6:00."""
    d = data()
    population = sorted(d.armies.at_start.blocks)
    drawn = ctx.draw(population, len(population), purpose=f"{R.SETUP} French At Start blocks",
                     visible_to=("france",))
    placements = []
    i = 0
    for z in d.map.zones:
        for _ in range(z.at_start):
            placements.append(ev.Placement(block=drawn[i], token=f"b{i + 1:03d}", zone=z.id))
            i += 1
    ctx.emit(ev.AtStartPlaced(placements=tuple(placements), rule=str(R.SETUP)))
    begin_turn(ctx, 1, "austria", interp)
