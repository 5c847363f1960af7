"""legal() and decide() agree on every ruleset (issue 19, "Legal listings"; docs/ruleset-interface.md, "Reachable from
the listing"): a sample of the sweep of tests/agreement.py at positions of a shipped log and of seeded self-play,
also under each interpretation's other readings. The full sweep is `python -m bench.agreement`. A discrepancy known
and owned by others (the Para Bellum rules' kernel code) is pinned at its position by a strict xfail test, named by
its issue item, which turns green (and so fails, as strict) once it is fixed, and listed in KNOWN where the sample
sweep meets it, so that the sample lets it pass. None is known today (items 7 and 9, once pinned so, are fixed: their
tests below are plain), so KNOWN is empty and the sample fails on any discrepancy it finds."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, NamedTuple

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.engine import Adjudicator, NoHistory
from arbitro.adjudicator.errors import BadInput, Rejected
from arbitro.adjudicator.randomness import SeededSupply
from tests.agreement import (
    ANY_SEED, LOGS, Discrepancy, Position, documented, judge, log_positions, other_readings, reachable, selfplay_positions,
    sweep, with_reading,
)
from tests.foundation.duel import DuelRuleset, DuelState

EXAMPLES = 200  # candidates per ruleset in the suite; the bench draws thousands


PER_LOG = 3  # positions of each shipped log (spread over it) in the suite's sample
SELFPLAY = 40  # commands of seeded self-play in the suite's sample (a position every 20)


def commands_in(log: Any) -> int:
    with open(log, encoding="utf-8") as f:
        return int(json.loads(f.readline())["head_cmd"])


def sample_positions(ruleset: str) -> list[Position]:
    """A few positions spread over each of the ruleset's shipped logs and of seeded self-play of its first scenario,
    and the first and the last position of its first log (of the self-play where it has none) under each other reading
    (the last in play, where the readings of combat and retreats are asked, not only those of a set-up)."""
    logs = sorted(LOGS.glob(f"{ruleset}-*.jsonl"))
    logged = [list(log_positions(log, every=max(1, (commands_in(log) - 20) // PER_LOG), first=20)) for log in logs]
    scenario = next(iter(registry.get(ruleset).scenarios()))
    played = list(selfplay_positions(ruleset, scenario, "agreement-suite", every=20, steps=SELFPLAY))
    found = [p for positions in logged for p in positions] + played
    first = logged[0] if logged else played
    anchors = [first[0]] if len(first) == 1 else [first[0], first[-1]]
    return found + [other for anchor in anchors for other in other_readings(anchor)]


class Known(NamedTuple):
    """A discrepancy known and owned by others: the ruleset, the issue 19 item, what it is, and how to recognise
    one (the command's type and the fields in which it differs from the nearest listed command)."""

    ruleset: str
    item: str
    what: str
    type: str
    differs: tuple[str, ...]

    def matches(self, ruleset: str, d: Discrepancy) -> bool:
        return (ruleset == self.ruleset and d.kind == "accepted but unreachable" and d.type == self.type
                and set(d.differs) <= set(self.differs))


KNOWN: list[Known] = [  # a known discrepancy the sample meets, pinned by its strict xfail test below: none today
]


def known(ruleset: str, d: Discrepancy) -> bool:
    return any(k.matches(ruleset, d) for k in KNOWN)


RULESETS = sorted(n for n, rs in registry.available().items() if not isinstance(rs, str) and n in (*registry.SHIPPED, "duel"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_nothing_listed_is_refused_and_nothing_accepted_is_unreachable(ruleset: str) -> None:
    found = sweep(sample_positions(ruleset), EXAMPLES, listed_per_seat=40)
    new = [str(d) for d in found if not known(ruleset, d)]
    assert new == [], f"{len(new)} discrepancies between legal() and decide(), e.g.:\n" + "\n".join(new[:10])


def position_at(log: str, cmd: int) -> Position:
    (found,) = log_positions(LOGS / f"{log}.jsonl", every=1, first=cmd, last=cmd)
    return found


def assert_agrees(position: Position, seat: str, command: dict[str, Any]) -> None:
    """`command` is judged at `position` as the listing says: accepted exactly when reachable from it."""
    listed = [position.normalised(c) or c for c in position.legal(seat)]
    discrepancy = judge(position, seat, command, listed)
    assert discrepancy is None, str(discrepancy)


def test_caldiero_elan_of_any_attack_order_unit_of_the_group_is_listed_item_6() -> None:
    """caldiero §16.1: the French unit named tries Elan, whichever attacker of the group it is."""
    assert_agrees(position_at("caldiero-full", 102), "france", {
        "type": "attack", "attackers": ["fr-18-legere", "fr-carabiniers"], "defenders": ["1716", "1717"],
        "elan": "fr-carabiniers", "use_general": True})


# --- the check catches what it is for ------------------------------------------------------------------------------
class ShyDuel(DuelRuleset):
    """Lists no low attack, though decide accepts one."""

    def legal(self, state: DuelState, seat: str) -> list[dict[str, Any]]:
        return [c for c in super().legal(state, seat) if c != {"type": "attack", "aim": "low"}]


class BoastfulDuel(DuelRuleset):
    """Lists a card to play once it is played, which decide refuses."""

    def legal(self, state: DuelState, seat: str) -> list[dict[str, Any]]:
        listed = super().legal(state, seat)
        return listed + [{"type": "play_card"}] if listed and state.played.get(seat) else listed


def test_the_sweep_finds_an_accepted_command_left_unlisted_and_a_listed_command_refused() -> None:
    duel = list(selfplay_positions("duel", "standard", "kit", every=3, steps=30))
    shy = [Position(p.label, Adjudicator(ShyDuel()), p.state, p.context) for p in duel]
    assert any(d.kind == "accepted but unreachable" and json.loads(d.command) == {"type": "attack", "aim": "low"}
               for d in sweep(shy, 80))
    boastful = [Position(p.label, Adjudicator(BoastfulDuel()), p.state, p.context) for p in duel]
    assert any(d.kind == "listed but refused" and json.loads(d.command) == {"type": "play_card"}
               for d in sweep(boastful, 10))
    assert sweep(duel, 80) == []


def test_a_listed_template_reaches_every_choice_of_its_domain_within_its_bounds() -> None:
    template = {"type": "form_column", "units": ["a", "b", "c"], "hex": "1010",
                "choose": {"units": {"min": 2, "max": 3}}}
    assert reachable({"type": "form_column", "units": ["c", "a"], "hex": "1010"}, [template], False)
    assert not reachable({"type": "form_column", "units": ["a"], "hex": "1010"}, [template], False)  # too few
    assert not reachable({"type": "form_column", "units": ["a", "d"], "hex": "1010"}, [template], False)
    assert not reachable({"type": "form_column", "units": ["a", "a"], "hex": "1010"}, [template], False)
    assert not reachable({"type": "form_column", "units": ["a", "b"], "hex": "1011"}, [template], False)


def test_caldiero_attackers_in_any_order_are_reachable_item_7() -> None:
    """Two of the group's attackers named in another order than listed: within the listed template (issue 19 item 7)."""
    assert_agrees(position_at("caldiero-full", 102), "france", {
        "type": "attack", "attackers": ["fr-carabiniers", "fr-18-legere"], "defenders": ["1716", "1717"],
        "elan": "fr-18-legere", "use_general": True})


def refusal(position: Position, seat: str, command: dict[str, Any]) -> str | None:
    """What `decide` says refusing `command` at `position` (None: accepted)."""
    try:
        position.adjudicator.decide(position.state, seat, command, position.context, NoHistory(), SeededSupply(ANY_SEED))
    except Rejected as e:
        return str(e)
    return None


def test_caldiero_set_up_that_changes_nothing_is_refused_item_9() -> None:
    """Issue 19 item 9: a set-up command that leaves the position as it is (a formation's order set to the one it has,
    a piece placed on the hex it holds) is refused, as legal() never lists it (docs/ruleset-interface.md)."""
    position = position_at("caldiero-full", 3)
    if position.state.rules.formations["massena"].order != "attack" or \
            position.state.rules.units["fr-18-legere"].hex != "1119":  # the position, not the defect: fail
        pytest.fail("caldiero-full #cmd3 no longer has Massena on Attack and fr-18-legere at 1119: choose anew")
    same_order = {"type": "change_order", "formation": "massena", "order": "attack"}
    same_hex = {"type": "place", "piece": "fr-18-legere", "hex": "1119"}
    for command in (same_order, same_hex):
        assert_agrees(position, "france", command)
    assert "massena's order is already attack" in str(refusal(position, "france", same_order))
    assert "fr-18-legere is already at 1119" in str(refusal(position, "france", same_hex))
    listed = position.legal("france")
    assert {"type": "change_order", "formation": "massena", "order": "defence"} in listed
    assert {"type": "place", "piece": "fr-18-legere", "hex": "1118"} in listed


GROUPINGS = {"arrivano": ("assault", "targets"), "caldiero": ("attack", "defenders")}


def attack_choices(position: Position) -> tuple[str, list[dict[str, Any]], list[str], list[str]] | None:
    """The seat that may attack at `position`, its normalised listing, and the units and hexes its attacks name."""
    kind, aimed_at = GROUPINGS[position.ruleset]
    for seat in position.seats():
        listed = [position.normalised(c) or c for c in position.legal(seat)]
        attacks = [c for c in listed if c["type"] == kind]
        if attacks:
            return (seat, listed, sorted({u for c in attacks for u in c["attackers"]}),
                    sorted({t for c in attacks for t in c[aimed_at]}))
    return None


def first_attack_from(log: str, cmd: int, units: int, hexes: int) -> Position:
    """The first position of `log` from command `cmd` on where some seat may attack with at least `units` units on at
    least `hexes` hexes. Found, not fixed, so that playing a log again after a rule fix does not lose the case."""
    for position in log_positions(LOGS / f"{log}.jsonl", every=1, first=cmd):
        choices = attack_choices(position)
        if choices is not None and len(choices[2]) >= units and len(choices[3]) >= hexes:
            return position
    raise AssertionError(f"{log}: no attack by {units}+ units on {hexes}+ hexes after #cmd{cmd}: choose anew")


@pytest.mark.parametrize("log, cmd, min_hexes, reading", [
    ("arrivano-montebello-options", 72, 2, None),
    ("caldiero-full", 55, 1, None),
    ("caldiero-full", 55, 1, ("forced_attack_below_1_5", "auto_ae"))])
def test_every_grouping_of_an_attack_is_refused_or_reachable_item_7(log: str, cmd: int, min_hexes: int,
                                                                    reading: tuple[str, str] | None) -> None:
    """Every attack by up to four of the listed attackers (in either order) on up to three of the listed hexes is
    refused or reachable from the listing (§12.2.1, §12.4.1 in both books; docs/ruleset-interface.md, the attackers'
    templates): in arrivano-montebello-options from #cmd72 subsets of three attackers on one or two hexes (the
    only position of the Arrivano logs listing a real grouping of three since they were played again in the
    nineteenth session; #cmd189 and #cmd621 before, arrivano-montebello's #cmd183 and #cmd1100 earlier); in caldiero-full from #cmd55 subsets of three French units
    on one or two hexes, Elan named for another attacker than the first; there too under forced_attack_below_1_5=
    auto_ae, where a group is refused for one Advance-order unit among its attackers (caldiero §12.4.2, D24)."""
    position = first_attack_from(log, cmd, units=3, hexes=min_hexes)
    if reading is not None:
        position = with_reading(position, *reading)
    kind, aimed_at = GROUPINGS[position.ruleset]
    choices = attack_choices(position)
    assert choices is not None
    seat, listed, units, hexes = choices
    candidates = [{"type": kind, "attackers": list(order), aimed_at: list(aimed)}
                  | ({"elan": order[-1]} if kind == "attack" and seat == "france" else {})
                  for k in range(1, min(len(units), 4) + 1) for group in combinations(units, k)
                  for order in {group, group[::-1]}
                  for j in range(1, min(len(hexes), 3) + 1) for aimed in combinations(hexes, j)]
    accepted = [c for c in candidates if position.accepts(seat, c)]
    assert any(1 < len(c["attackers"]) < len(units) for c in accepted)  # the check judged real groupings
    found = [str(d) for c in accepted if (d := judge(position, seat, c, listed)) is not None]
    assert found == []


def test_a_documented_template_reaches_its_subsets_item_8() -> None:
    """Arrivano's form_column is a template (docs/ruleset-interface.md, item 8): any non-empty subset of its listed
    units is reachable, a unit it does not list is not."""
    listed = [{"type": "form_column", "officer": "mainoni", "units": ["28e-i", "28e-ii"], "order": "advance"}]
    one = {"type": "form_column", "officer": "mainoni", "units": ["28e-i"], "order": "advance"}
    assert documented("arrivano", one, listed) and not documented("caldiero", one, listed)
    assert not documented("arrivano", {**one, "units": ["6e-leger"]}, listed)


def test_caldiero_a_leader_move_with_a_path_that_does_not_lead_there_is_refused_item_9() -> None:
    """Found by the full sweep (`python -m bench.agreement --readings`, 2026-11-29): at caldiero-full #cmd241 France's
    move of Bonaparte to 1215 named with a path from 1911 to 2011, which neither starts at his hex nor ends at 1215, is
    accepted (and moves him by another path), though no listed command carries it. A path given must be the one
    walked (refused otherwise), or be documented as free (docs/ruleset-interface.md, "Reachable from the listing").
    Since the log was played again (sixteenth session, the §4.3.1 die) the position is #cmd300, Bonaparte at 1214 to 1213."""
    position = position_at("caldiero-full", 300)
    command = {"type": "move_leader", "leader": "bonaparte", "to": "1213", "path": ["1911", "2011"]}
    assert {"type": "move_leader", "leader": "bonaparte", "to": "1213"} in position.legal("france")
    assert_agrees(position, "france", command)


def test_caldiero_an_attack_on_two_hexes_named_in_another_order_is_reachable_item_7() -> None:
    """Found by the full sweep (2026-11-29): caldiero-full #cmd121, France: fr-5-legere's attack on 1611 and 1512 was
    accepted, the listing naming the hexes only as 1512, 1611. The hexes attacked are a set (caldiero §12.4.1): the
    command model stores them in hex order, as listed, and refuses a hex named twice as malformed."""
    position = position_at("caldiero-full", 121)
    attack = {"type": "attack", "attackers": ["fr-5-legere"], "defenders": ["1611", "1512"],
              "elan": "fr-5-legere", "use_general": True}
    assert_agrees(position, "france", attack)
    assert position.normalised(attack) == {**attack, "defenders": ["1512", "1611"]}
    with pytest.raises(BadInput, match="names 1611 more than once"):
        position.adjudicator.parse({**attack, "defenders": ["1611", "1512", "1611"]})
    with pytest.raises(BadInput, match="names fr-5-legere more than once"):  # accepted, collapsed, before
        position.adjudicator.parse({**attack, "attackers": ["fr-5-legere", "fr-5-legere"]})


def test_caldiero_a_group_move_named_in_another_order_is_reachable_item_9() -> None:
    """Found by the full sweep (2026-11-29): caldiero-full #cmd61, France: fr-carabiniers and fr-18-legere moving
    together to 1616 were accepted, the listing naming the pair only as fr-18-legere, fr-carabiniers. The units moving
    together are a set (caldiero §9.1): the command model stores them in one order, the listing's."""
    position = position_at("caldiero-full", 61)
    move = {"type": "move", "units": ["fr-carabiniers", "fr-18-legere"], "to": "1616", "path": None, "column": False,
            "charge": False}
    assert_agrees(position, "france", move)
    assert {**move, "units": ["fr-18-legere", "fr-carabiniers"]} in position.legal("france")
    with pytest.raises(BadInput, match="names fr-18-legere more than once"):
        position.adjudicator.parse({**move, "units": ["fr-18-legere", "fr-18-legere"]})


def test_caldiero_reinforcements_entering_together_are_listed_item_9() -> None:
    """Found by fix-agree (2026-11-29) probing the entry groups: at caldiero-full #cmd89 Austria's two reserve 12-pdr
    batteries, due at the same entry hex, may enter together (caldiero §15.4, §9.1), yet the listing named arriving
    units one at a time only. Each pair due at one entry is now listed, and every one listed is accepted."""
    position = position_at("caldiero-full", 89)
    assert_agrees(position, "austria", {"type": "move", "units": ["au-reserve-12pdr-1", "au-reserve-12pdr-2"],
                                        "to": "2714"})
    entering = [c for c in position.legal("austria") if c["type"] == "move"
                and c["units"] == ["au-reserve-12pdr-1", "au-reserve-12pdr-2"]]
    assert entering and all(position.accepts("austria", c) for c in entering)
