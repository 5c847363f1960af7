"""The area-map kit (adjudicator/maps/areas.py) on a graph of its own, not Marengo's: the look-ups and the
cross-checks any area game's data goes through (Marengo's map is checked by tests/marengo/test_data.py)."""

from __future__ import annotations

from dataclasses import dataclass

from arbitro.adjudicator.maps.areas import AreaGraph, graph_problems


@dataclass(frozen=True)
class Zone:
    id: str


@dataclass(frozen=True)
class Approach:
    id: str
    zone: str
    toward: str
    impassable: bool = False


@dataclass(frozen=True)
class Road:
    id: str
    zones: tuple[str, ...]


def pair(a: str, b: str, *, closed_on: str | None = None) -> list[Approach]:
    return [Approach(f"{a}/{b}", a, b, closed_on == a), Approach(f"{b}/{a}", b, a, closed_on == b)]


ZONES = [Zone("asti"), Zone("alba"), Zone("bra"), Zone("casale")]
APPROACHES = [*pair("asti", "alba"), *pair("alba", "bra", closed_on="bra"), *pair("asti", "casale")]
ROADS = [Road("r1", ("casale", "asti", "alba"))]


def graph() -> AreaGraph[Zone, Approach, Road]:
    g: AreaGraph[Zone, Approach, Road] = AreaGraph()
    g.index(ZONES, APPROACHES, ROADS)
    return g


def problems(zones: list[Zone], approaches: list[Approach], roads: list[Road]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    graph_problems(zones, approaches, roads, lambda path, problem: found.append((path, problem)))
    return found


def test_look_ups() -> None:
    g = graph()
    assert g.neighbours("asti") == ("alba", "casale")  # sorted by approach id, not by listing order
    assert g.approach("alba", "bra").zone == "alba" and g.opposite("alba/bra").id == "bra/alba"
    assert g.roads_through("asti") == ("r1",) and g.roads_through("bra") == ()
    assert g.road_crosses("r1", "asti/alba") and g.road_crosses("r1", "alba/asti")
    assert not g.road_crosses("r1", "alba/bra")


def test_an_impassable_side_closes_the_pair_both_ways() -> None:
    g = graph()
    assert not g.is_passable("alba", "bra") and not g.is_passable("bra", "alba")  # closed on bra's side only
    assert g.is_passable("asti", "alba")
    assert not g.is_passable("asti", "bra")  # no approach at all


def test_a_clean_graph_has_no_problems() -> None:
    assert problems(ZONES, APPROACHES, ROADS) == []


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    found = problems(
        [*ZONES, Zone("asti")],
        [*APPROACHES, Approach("bra/casale", "bra", "casale"), Approach("x/y", "alba", "nowhere")],
        [Road("r2", ("casale", "bra")), Road("r3", ("alba", "bra")), Road("r4", ("asti", "alba", "asti"))],
    )
    assert ("$.zones[4].id", "duplicate zone 'asti'") in found
    assert ("$.approaches[6]", "approach 'bra/casale' has no opposite approach casale/'bra'") in found
    assert ("$.approaches[7].id", "must be 'zone/toward' = alba/'nowhere'") in found
    assert ("$.approaches[7].toward", "unknown zone 'nowhere'") in found
    assert ("$.approaches[7]", "approach 'x/y' has no opposite approach nowhere/'alba'") in found
    assert ("$.roads[0].zones[1]", "road 'r2' joins 'casale/bra', which is not an approach pair") in found
    assert ("$.roads[1].zones[1]", "road 'r3' crosses impassable 'alba/bra'") in found
    assert ("$.roads[2].zones", "road 'r4' visits a zone twice") in found
    assert len(found) == 8
