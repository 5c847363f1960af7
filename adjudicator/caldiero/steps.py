"""Caldiero's pending decisions on the engine's decision stack (arbitro §S.3; the kernel's parabellum/steps.py): for
each kind of frame, its lister (the answers `options` lists, which legal() returns while the frame is on top) and the
procedure that carries one out, after which the game goes on as after any command (flow.go_on).

The retreat (caldiero §12.6), the lone leader's escape (§8.2.3), the cavalry's retreat before combat (§14.1) and a
side's efficiency value on a tie (§12.3.1) are the kernel's (parabellum/retreat_frame.py, escape.py, before_combat.py,
assault_stages.py); the assault's other decisions (defensive fire §11.4.5, Ne §12.5.4, the Ex losses §12.5.4, the
advance §12.7) system_assault's, which opens them above the `assault` frame of the assault in progress: that frame
waits for them and nobody answers it.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import flow as F
from arbitro.adjudicator.caldiero import system_assault as A
from arbitro.adjudicator.parabellum.act import Game
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.parabellum import (advance, assault_stages, before_combat, bombardment, escape, results,
                                            retreat_frame)
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT
from arbitro.adjudicator.parabellum.steps import UNANSWERED, Row, procedures


# Each kind of Caldiero's frames, the kernel's row (parabellum/steps.Row): its answers and the procedure that carries one
# out with the frame closed (the retreat's revises or closes it itself: one unit answers at a time).
ROWS: dict[str, Row] = {
    # caldiero §12.6: the owner names one unit's retreat path at a time, among its legal paths
    retreat_frame.RETREAT: retreat_frame.ROW,
    # caldiero §8.2.3: a lone leader reached by an enemy unit flees up to his full movement (the kernel's)
    escape.ESCAPE: escape.ROW,
    # caldiero §14.1: defending cavalry retreats one hex before an infantry assault, hex by hex (the kernel's)
    before_combat.CAVALRY_RETREAT: Row(before_combat.answers, before_combat.answered, before_combat.refusal),
    # caldiero §11.4.5: the defenders' artillery bombards one hex of attackers, one gun at a time, or holds
    assault_stages.DEFENSIVE_FIRE: Row(lambda w, frame: bombardment.defensive_fire_answers(
        CALDIERO_VARIANT, w, frame.ctx.battery, per_stack=False) + [{"type": "decline"}], A.do_defensive_fire),
    # caldiero §12.3.1: a side's owner picks among its efficiency values tied for most SP, the attacker first (the
    # kernel's question, at the start of the combat, §12.3)
    assault_stages.EFFICIENCY_VALUE: assault_stages.EFFICIENCY_ROW,
    # caldiero §12.5.4 Ne: the attackers test (Ex if they pass, Ad if not), or the Ne stands
    results.NE_CHOICE: results.NE_ROW,
    # caldiero §12.5.4 Ex: the attacker names his unit lost, then the defender his (D26: the variant's
    # ex_attacker_losses, ex_defender_losses)
    results.EXCHANGE_LOSS: Row(lambda w, frame: [{"type": "exchange_loss", "units": list(units)} for units in frame.ctx.sets],
                               A.do_exchange_loss),
    # caldiero §12.7: one attacker in good order (or a stack with its general, §12.7.3) advances into a hex the
    # combat vacated, or none does
    advance.ADVANCE: Row(advance.listed, A.do_advance, advance.refusal, advance.ANSWERS),
    # caldiero §12: the assault in progress, waiting below the decisions it asked; flow.go_on runs its next stage
    # in the same command once they are answered, so nobody ever answers it
    ASSAULT: UNANSWERED,
}


def caldiero_steps(game: Game) -> dict[str, Step[Any]]:
    """Each kind of Caldiero's frames, carried out in a context made with `game` (the ruleset: parabellum/act.Act),
    after which the assault goes on, or the steps that need no choice run (go_on)."""
    return procedures(game, F.go_on, ROWS)
