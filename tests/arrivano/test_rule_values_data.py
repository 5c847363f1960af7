"""Arrivano's rule values are its data files' (issue 18), so a user's folder (`arbitro new arrivano --data DIR`) is
played as it says and the shipped one as the book prints: §4.5.3's commander lost on 1-2 (tables/rules.json
`leader_loss`, one copy for both scenarios), §6.1.1's initiative tie to the French (`initiative_tie_winner`, read before only for the order
sub-phase), the cavalry's doubled strength (§14.0.1, §14.2: crt.json `cavalry_multiplier`), its halving in woods
rounded up (§10.4 with §1.3: terrain.json `cavalry_halved`). A folder without them is refused at their JSON path."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from arbitro.adjudicator.arrivano import movement
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum import initiative
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.world import World
from tests.arrivano.harness import RULESET, position
from tests.parabellum.folders import Edit, edited_folder

CAV, FOE = "12e-hussards", "bach"


def _folder(tmp_path: Path, file: str, edit: Edit) -> Path:
    return edited_folder(ARRIVANO_DATA.folder, tmp_path, file, edit)


def _montebello(tmp_path: Path, file: str, edit: Edit) -> ScenarioData:
    return ARRIVANO_DATA.load(_folder(tmp_path, file, edit)).scenarios["montebello"]


def _world(data: ScenarioData, units: dict[str, str] | None = None) -> World:
    return World(position(units or {}), data, lambda name: "", variant=ARRIVANO_VARIANT)


def test_the_leader_loss_die_is_the_book_s(tmp_path: Path) -> None:
    """arrivano §4.5.3 "con un risultato di 1 o 2": the die's record says 1-2 shipped, 1-3 in a folder that says so."""
    def lost_on(data: ScenarioData) -> str | int:
        return ARRIVANO_VARIANT.leader_roll(_world(data), "ott", "a test")[1]["lost_on"]

    assert lost_on(RULESET.data.scenarios["montebello"]) == "1-2"
    assert lost_on(_montebello(tmp_path, "tables/rules.json",
                               lambda raw: raw["leader_loss"].update(lost_at_most=3))) == "1-3"


def test_an_initiative_tie_goes_to_the_scenario_s_side(tmp_path: Path) -> None:
    """arrivano §6.1.1: the French win a tie, the scenario's `initiative_tie_winner`; a folder naming Austria gives
    Austria the tie (before, the code gave it to the French whatever the file said)."""
    tie = {"france": 4, "austria": 4}
    assert initiative.winner(ARRIVANO_VARIANT, tie, _world(RULESET.data.scenarios["montebello"])) == "france"
    folder = _montebello(tmp_path, "montebello/scenario.json", lambda raw: raw.update(initiative_tie_winner="austria"))
    assert initiative.winner(ARRIVANO_VARIANT, tie, _world(folder)) == "austria"


def test_cavalry_s_doubled_strength_is_the_table_s_multiplier(tmp_path: Path) -> None:
    """arrivano §14.0.1 "raddoppiata se attaccano fanterie in Disordine": crt.json's `cavalry_multiplier`, 2
    shipped; a folder's 3 triples it."""
    def attacking(data: ScenarioData) -> tuple[int, int]:
        w = _world(data, {FOE: "2010", CAV: "2011"})
        w.state.units[FOE].status = "disordered"
        return ARRIVANO_VARIANT.combat_sp(w, CAV, True, [FOE], ["2010"]), w.strength(CAV)

    sp, printed = attacking(RULESET.data.scenarios["montebello"])
    assert sp == 2 * printed
    sp, printed = attacking(_montebello(tmp_path, "tables/crt.json", lambda raw: raw.update(cavalry_multiplier=3)))
    assert sp == 3 * printed


def test_cavalry_in_woods_is_halved_as_the_terrain_rounds(tmp_path: Path) -> None:
    """arrivano §10.4 "La cavalleria che combatte in Bosco ha la sua forza dimezzata", rounded up by §1.3 ("al numero
    intero più alto"): 3 SP of hussars defend in woods with 2; a folder whose woods round down, with 1."""
    def defending(data: ScenarioData) -> int:
        woods = next(h for h in sorted(data.map.hexes()) if "bosco" in data.map.hex(h).terrains)
        return ARRIVANO_VARIANT.combat_sp(_world(data, {CAV: woods}), CAV, False, [], [])

    assert defending(RULESET.data.scenarios["montebello"]) == 2
    assert defending(_montebello(tmp_path, "tables/terrain.json",
                                 lambda raw: raw["terrain"]["bosco"]["cavalry_halved"].update(rounding="down"))) == 1


def test_a_commander_s_die_modifier_is_the_book_s(tmp_path: Path) -> None:
    """arrivano §13.2 "Si applica un modificatore di -1 al dado": Lannes in the 28e's hex gives its efficiency die -1
    shipped, -2 in a folder whose tables/rules.json says so (one value for both scenarios)."""
    def modifier(data: ScenarioData) -> int:
        w = World(position({"28e-i": "2010"}, leaders={"lannes": "2010"}), data, lambda name: "",
                  variant=ARRIVANO_VARIANT)
        return ARRIVANO_VARIANT.commander_die_modifier(w, "28e-i")

    assert modifier(RULESET.data.scenarios["montebello"]) == -1
    assert modifier(_montebello(tmp_path, "tables/rules.json",
                                lambda raw: raw.update(commander_die_modifier=-2))) == -2


@pytest.mark.parametrize(("file", "edit", "where"), [
    ("tables/rules.json", lambda raw: raw.pop("leader_loss"), "$.leader_loss"),
    ("tables/rules.json", lambda raw: raw.pop("commander_die_modifier"), "$.commander_die_modifier"),
    ("tables/rules.json", lambda raw: raw["leader_loss"].update(lost_at_most=7), "$.leader_loss.lost_at_most"),
    ("campotenese/scenario.json", lambda raw: raw.update(commander_die_modifier=-1), "$.commander_die_modifier"),
    ("tables/crt.json", lambda raw: raw.pop("cavalry_multiplier"), "$.cavalry_multiplier"),
    ("tables/terrain.json", lambda raw: raw["terrain"]["bosco"].update(cavalry_halved=True),
     "$.terrain.bosco.cavalry_halved")])
def test_a_folder_without_a_rule_value_is_refused_at_its_path(tmp_path: Path, file: str,
                                                            edit: Edit, where: str) -> None:
    """A folder from before these values were data (or with a face no die shows) is refused where the value goes."""
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(_folder(tmp_path, file, edit))
    assert [(p.file, p.path) for p in caught.value.problems] == [(file, where)]


def test_a_charge_where_the_scenario_forbids_them_cites_its_rule(tmp_path: Path) -> None:
    """arrivano §17.2.5 (Campotenese: no charges): the refusal cites the scenario's `charges_rule`, whatever a folder
    says it is."""
    def refused(data: ScenarioData) -> tuple[str, str]:
        game = SimpleNamespace(data=data, world=lambda: None, reject=_reject)
        with pytest.raises(IllegalCommand) as caught:
            movement.charge(game, "any", "2010", "2011")  # type: ignore[arg-type]
        return caught.value.rule, caught.value.message

    assert refused(RULESET.data.scenarios["campotenese"]) == (
        "arrivano §17.2.5", "there are no cavalry charges in this scenario (arrivano §17.2.5)")
    folder = ARRIVANO_DATA.load(_folder(tmp_path, "campotenese/scenario.json",
                                        lambda raw: raw.update(charges_rule="arrivano §17.2"))).scenarios["campotenese"]
    assert refused(folder)[0] == "arrivano §17.2"


def _reject(rule: object, message: str) -> None:
    raise IllegalCommand(message, rule=str(rule))


@pytest.mark.parametrize(("file", "edit", "where"), [
    ("campotenese/scenario.json", lambda raw: raw.pop("charges_rule"), "$.charges_rule"),
    ("montebello/scenario.json", lambda raw: raw.update(minutes_per_turn=60), "$.minutes_per_turn"),
    ("montebello/scenario.json", lambda raw: raw["march_direction"].update(place="Direction Pavia"),
     "$.march_direction.place"),
    ("montebello/scenario.json", lambda raw: raw["march_direction"].update(map_edge="lower_columns"),
     "$.march_direction.map_edge")])
def test_scenario_fields_read_or_held(tmp_path: Path, file: str, edit: Edit, where: str) -> None:
    """Fields once loaded and never read: `charges_rule` is required where charges are forbidden (§17.2.5: it is the
    refusal's citation); `minutes_per_turn` is held to §17.1.1's and §17.2's 30 (no rule reads it); §17.1.5's
    `march_direction` names a place of the map on the edge it says."""
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(_folder(tmp_path, file, edit))
    assert [(p.file, p.path) for p in caught.value.problems] == [(file, where)]
