"""The weather track as data, one model for both books (D29): what each box does to the rules the system asks about,
how the weather changes. Each game's file extends it (caldiero/loader.WeatherTable, arrivano/data_model.WeatherTrack)."""

from __future__ import annotations

from functools import cached_property

from arbitro.adjudicator.datafiles import StrictModel, Where
from arbitro.adjudicator.parabellum.data import Meta
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import Halving
from pydantic import Field


class WeatherBox(StrictModel):
    """One box of a weather track (caldiero §17: boxes 0-3; arrivano §17.2.7: Campotenese's 1-3) and what it does
    to the rules the system asks about (D29). Every effect defaults to the clear weather's, so a box states only what
    its book prints for it; `rule` is where it is printed."""

    box: int = Field(ge=0, le=3)
    name: str
    english: str
    rule: str
    artillery_range_max: int | None = Field(default=None, ge=0)  # every gun's range at most this (caldiero §17.1.1, arrivano §17.2.7)
    artillery_fires: bool = True  # guns may fire at all (caldiero §17.1.2-§17.1.3, arrivano §17.2.7)
    bombard_halved: Halving | None = None  # the guns' bombardment value halved, so rounded (caldiero §17.1.1, §1.4)
    command_range_halved: Halving | None = None  # commanders' ranges halved, so rounded (caldiero §17.1.3, §1.4)
    formations_defence: bool = False  # every formation takes a Defence order (caldiero §17.1.3)
    zoc: bool = True  # units exert zones of control (arrivano §17.2.7: none in the storm)
    move_one_hex_only: bool = False  # a unit moves one hex at most (arrivano §17.2.7)
    open_order_allowed: bool = True  # infantry may fire in open order (arrivano §17.2.7, optional §16.3)
    defence_efficiency_bonus: dict[str, int] = {}  # side -> added to the efficiency of its units in Defence (arrivano §17.2.7)
    movement_table: str | None = None  # the movement costs in force, a data file (arrivano §17.2.8, caldiero §17.1.3); None: the game's own
    terrain_cost_multiplier: int = Field(default=1, ge=1)  # costs multiplied but where the table spares a road (caldiero §17.1.2-§17.1.3)
    scaled_roads: list[str] = []  # roads multiplied too in this box: the ice storm spares only the main road (caldiero §17.1.3)
    off_road_mp_less: int = Field(default=0, ge=0)  # MP less for a move not wholly along roads (caldiero §17.1.1)
    artillery_roads_only: bool = False  # guns move only along roads and minor roads (caldiero §17.1.3)
    ooc_order_tests: bool = True  # out-of-command units may test for an order (caldiero §17.1.3 with §5.3.1: not here)
    assault_columns_left: int = Field(default=0, ge=0)  # every assault shifted left (caldiero §17.1.1-§17.1.3: 1, 2, 3)
    confusion_die: bool = False  # the attacker rolls the confusion die before the table (caldiero §17.2: boxes 1-3)
    end_phase_box: int | None = None  # the box the marker moves to at the turn's end (caldiero §17.1.3: the storm to 2)

    def cited(self) -> Rule:
        """The box's own section as the citation of what it forbids ("caldiero §17.1.3", summed up by its English
        name): a refusal the box causes cites the box in force, whichever box of a user's track it is."""
        book, _, section = self.rule.partition(" §")
        return Rule(book, section, self.english)

    def words(self) -> str:
        """The box as a refusal names it: "in this weather (Tempesta di Ghiaccio, caldiero §17.1.3)"."""
        return f"in this weather ({self.name}, {self.rule})"


class WeatherTrack(StrictModel):
    """A weather track (caldiero §17: boxes 0-3; arrivano §17.2.7: Campotenese's 1-3), one model for both books: the
    box the game starts in, what each box does (D29) and how the weather changes: `change`, the box after a die
    roll by the box in force (caldiero §17's table, a reconstruction; arrivano §17.2.7's transitions). When the die
    is rolled is each game's (caldiero §3.1 A.2, arrivano §17.2.7)."""

    meta: Meta
    start_box: int
    boxes: list[WeatherBox]
    change: dict[str, list[int]]
    change_provisional: bool = False

    def problems(self) -> list[tuple[Where, str]]:
        numbers = [b.box for b in self.boxes]
        found: list[tuple[Where, str]] = [(("boxes", i, "box"), f"box {n} is listed twice")
                                          for i, n in enumerate(numbers) if n in numbers[:i]]
        if self.start_box not in numbers:
            found.append((("start_box",), f"{self.start_box} is not a box"))
        found += [(("boxes", i, "end_phase_box"), f"{b.end_phase_box} is not a box") for i, b in enumerate(self.boxes)
                  if b.end_phase_box is not None and b.end_phase_box not in numbers]
        if sorted(self.change) != sorted(str(n) for n in numbers):
            found.append((("change",), "must have one entry per box"))
        return found + [(("change", box), f"must give 6 boxes (one per die face) among {sorted(numbers)}")
                        for box, results in self.change.items() if len(results) != 6 or set(results) - set(numbers)]

    def next_box(self, current: int, die: int) -> int:
        """The weather box after a die roll (caldiero §17, arrivano §17.2.7)."""
        return self.change[str(current)][die - 1]

    def box(self, number: int) -> WeatherBox:
        return self._by_number[number]

    def in_force(self, number: int) -> WeatherBox | None:
        """The box the state's weather `number` names; None where it names none (a scenario's weather 0)."""
        return self._by_number.get(number)

    @cached_property
    def _by_number(self) -> dict[int, WeatherBox]:
        """The boxes by number (unique: `problems`), made once: every ZoC and order asks the box in force, 26,000
        times per caldiero-tempo-regge verify (issue 15)."""
        return {b.box: b for b in self.boxes}
