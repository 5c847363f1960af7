"""Long duel: the test ruleset (tests/foundation/duel.py) made endless and given a wargame-sized state,
so the benchmark can play a 100,000-event game with real adjudication.

Differences from duel, all for measurement only:
- hit points and rounds are so large that the game never ends within a benchmark;
- the state also carries a roster of counters (hex, strength, steps), about the size of a Marengo or
  Caldiero order of battle (40-70 units), so state copies, hashes and snapshots cost what a real game's do;
- rounds are not checkpoints: the engine's own CHECKPOINT_EVERY decides where snapshots fall, which is the
  slowest case for "state at any point" (the fold from the nearest snapshot is longest).
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.ruleset import Scenario
from tests.foundation.duel import SEATS, DuelRuleset, DuelState

ROSTER_SIZE = 80


class Counter(msgspec.Struct, kw_only=True):
    side: str
    hex: str
    strength: int
    steps: int
    status: str = "in_good_order"


class LongDuelState(DuelState, kw_only=True):
    roster: dict[str, Counter] = {}


class LongDuelRuleset(DuelRuleset):
    name = "longduel"
    title = "Long duel (benchmark ruleset)"
    State = LongDuelState

    def scenarios(self) -> dict[str, Scenario]:
        return {"endless": Scenario(name="endless", title="No end in sight", seats=SEATS)}

    def new_state(self, scenario: str, options: tuple[str, ...]) -> LongDuelState:
        roster = {
            f"unit-{i:03d}": Counter(side=SEATS[i % 2], hex=f"{10 + i % 30:02d}{10 + i // 30:02d}",
                                     strength=2 + i % 4, steps=2)
            for i in range(ROSTER_SIZE)
        }
        return LongDuelState(rounds=1 << 40, hp={s: 1 << 40 for s in SEATS}, played={s: False for s in SEATS},
                             bonus={s: 0 for s in SEATS}, roster=roster)

    def validate_position(self, state: Any) -> list[str]:
        return []

    def is_checkpoint(self, event: Any) -> bool:
        return False
