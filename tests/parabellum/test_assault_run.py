"""The kernel's stage runner (parabellum/assault.run), one for both games: each stage is a function of the procedure
and the assault, given without the units eliminated since its frame was revised; END is the game's too (the kernel's
default that closed the frame, used by neither game, went in the twentieth session); the decision stack is the one the procedure's variant names (Act.assault_frames)."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault
from arbitro.events.arrivano import ARRIVANO_CONTEXTS, ASSAULT_KINDS
from arbitro.events.parabellum import AssaultUnderway


@dataclass
class Where:
    off: set[str]

    def on_map(self, u: str) -> bool:
        return u not in self.off


@dataclass
class Frames:
    """The assault's frame alone on the stack: `current` its context, `revise` the next stage, `end` closes it."""

    c: AssaultUnderway | None

    def current(self) -> AssaultUnderway | None:
        return self.c

    def on_top(self) -> bool:
        return True

    def revise(self, stage: str) -> None:
        assert self.c is not None
        self.c = AssaultUnderway(**{**{f: getattr(self.c, f) for f in self.c.__struct_fields__}, "stage": stage})

    def end(self) -> None:
        self.c = None


@dataclass
class Procedure:
    frames: Frames
    off: set[str]
    seen: list[AssaultUnderway] = field(default_factory=list)

    def world(self) -> Where:
        return Where(self.off)

    def assault_frames(self) -> Frames:
        return self.frames


def test_each_stage_is_given_the_assault_without_its_eliminated_units_and_end_closes_it() -> None:
    c = AssaultUnderway(stage=assault.DECLARED, attacker_side="a", attackers=("x", "gone"), targets=("0101",),
                        defenders=("y", "lost"))
    p = Procedure(Frames(c), off={"gone", "lost"})

    def declared(q: Procedure, now: AssaultUnderway) -> None:
        q.seen.append(now)
        q.frames.revise(assault.END)

    assault.run(p, {assault.DECLARED: declared, assault.END: lambda q, now: (q.seen.append(now), q.frames.end())})
    assert [(s.stage, s.attackers, s.defenders) for s in p.seen] == [
        (assault.DECLARED, ("x",), ("y",)), (assault.END, ("x",), ("y",))]
    assert p.frames.c is None  # the game's END closed it


def test_each_variant_names_the_kinds_its_assault_frames_lift() -> None:
    assert (tuple(CALDIERO_VARIANT.assault_kinds), tuple(CALDIERO_VARIANT.decision_kinds)) == (("assault",), ("assault",))
    assert ARRIVANO_VARIANT.assault_kinds == ASSAULT_KINDS and ARRIVANO_VARIANT.decision_kinds == ARRIVANO_CONTEXTS
