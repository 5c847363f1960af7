"""The Para Bellum system's stored events: the facts both games of the system (Caldiero 1796, Arrivano i
Francesi!) record alike, one class per fact. A variant's events/<game>.py holds only what its game adds and
lists these in its union (issue 18). Tags are unchanged, so stored games read as before."""

from __future__ import annotations

from arbitro.events.core import Event


class WeatherChanged(Event, tag="weather_changed"):
    """The weather track moved to `box` (caldiero §17: the Command phase roll, the ice storm's aftermath;
    arrivano §17.2.7: Campotenese's end-of-turn roll). What a box does is the variant's (D29)."""

    box: int
    rule: str
