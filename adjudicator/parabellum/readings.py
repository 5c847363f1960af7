"""The readings of the rules a book leaves open, one data shape for both games (docs/engine-rules.md §U): each game's
interpretations.json (caldiero/data, arrivano/data) names every interpretation, the rule and the Italian phrase it
rests on, its default and the readings an umpire's ruling may choose; a user's data folder may change a default
(creation.folder_readings)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType

from arbitro.adjudicator.datafiles import StrictModel, Where
from arbitro.adjudicator.parabellum.data import Meta
from arbitro.adjudicator.ruleset import Interpretation
from pydantic import Field


class InterpretationData(StrictModel):
    """One interpretation: its name, the rule and the phrase it reads, its default and every reading it allows."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    rule: str
    phrase: str = Field(min_length=1)
    default: str
    choices: list[str] = Field(min_length=1)
    explanation: str

    def problems(self) -> list[tuple[Where, str]]:
        if self.default not in self.choices:
            return [(("default",), f"default {self.default!r} is not one of the choices {self.choices}")]
        return []


class InterpretationsFile(StrictModel):
    """A game's interpretations.json: every interpretation once."""

    meta: Meta
    interpretations: list[InterpretationData]

    def checks(self) -> list[tuple[str, str]]:
        names = Counter(i.name for i in self.interpretations)
        return [("$.interpretations", f"duplicate name {name!r}") for name, count in sorted(names.items()) if count > 1]

    @cached_property
    def offered(self) -> Mapping[str, Interpretation]:
        """Every interpretation as the ruleset interface offers it, by name (worked out once per loaded file): read
        only, since every reading in force asks it (`interpretation_in_force`, ~5,800 times a montebello verify) and
        a copy each time was ~1 us of each (issue 15)."""
        return MappingProxyType({i.name: Interpretation(name=i.name, default=i.default, choices=tuple(i.choices),
                                                        rule=i.rule, phrase=i.phrase, explanation=i.explanation)
                                 for i in sorted(self.interpretations, key=lambda i: i.name)})
