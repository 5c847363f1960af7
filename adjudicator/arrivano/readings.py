"""The readings in force (docs/rulesets/arrivano.md §4): the one way `decide`, `pending` and `legal` ask which
reading of an interpretation applies.

The umpire's rulings live in the core state; `ArrivanoRuleset.note_interpretations` mirrors them into
`ArrivanoState.interpretations` (at creation from a position, and at every ruling), so a pure function of the
state answers for the adjudication and for the commands offered alike, from the ruling's event onward.
"""

from __future__ import annotations

from functools import cache

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.projections.arrivano import ArrivanoState


@cache
def defaults() -> dict[str, str]:
    """Each declared interpretation's default reading (adjudicator/arrivano/data/interpretations.json)."""
    return {i.name: i.default for i in ARRIVANO_DATA.shipped().interpretations.interpretations}


def in_force(state: ArrivanoState, name: str) -> str:
    """The reading of `name` in force in `state`: the umpire's ruling, else the default. An unknown name is a
    programming error (KeyError), never a silent default."""
    known = defaults()
    if name not in known:
        raise KeyError(f"arrivano has no interpretation {name!r}")
    return state.interpretations.get(name, known[name])
