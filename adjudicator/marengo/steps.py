"""Marengo's steps on the engine's decision stack (arbitro §S.3; docs/ruleset-interface.md, "Decisions").

The bombardment's target choice (marengo §10) is answered here. Marengo's other decisions (losses, retreats,
manoeuvre blocking, the assault's stages) are still named by `procedure.pending` from its own state.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.decisions import Step, close_frame
from arbitro.adjudicator.marengo import bombardment, procedure
from arbitro.adjudicator.marengo import commands as C
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import core
from arbitro.events import marengo as ev
from arbitro.projections.game import GameState


class TargetStep(Step[ev.BombardTargetAwaited]):
    """marengo §10: no enemy blocker faces the artillery and none is in reserve: the bombarding side chooses
    which approach's blockers it fires at."""

    kind = bombardment.TARGET

    def options(self, state: GameState[Any], frame: core.Frame[ev.BombardTargetAwaited], seat: str) -> list[dict[str, Any]]:
        return [{"type": "bombard_target", "approach": a} for a in frame.ctx.choices]

    def answer(self, ctx: Decision[Any], frame: core.Frame[ev.BombardTargetAwaited], command: C.BombardTarget) -> None:
        close_frame(ctx, frame)
        bombardment.do_resolve(ctx, frame.ctx.side, ctx.interpretation, command.approach)
        procedure.run(ctx, ctx.interpretation)  # the losses it inflicts, then what follows


STEPS: dict[str, Step[Any]] = {TargetStep.kind: TargetStep()}
