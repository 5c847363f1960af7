"""rev-f's F1 (thirteenth session review): caldiero §20.1's option formation validated at load (F0's tests are
f0fix's tests/caldiero/test_rev_f_fog_command.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from arbitro.adjudicator.datafiles import DataError
from tests.caldiero.harness import RULESET


def _refused(change: Callable[[dict[str, Any]], None]) -> list[str]:
    files = RULESET.read_data(RULESET.folder.folder)
    raw = json.loads(files["caldiero/scenario.json"])
    change(raw["options"]["bonaparte_intervention"])
    files["caldiero/scenario.json"] = json.dumps(raw)
    with pytest.raises(DataError) as caught:
        RULESET.folder.from_files(files)
    return [str(p) for p in caught.value.problems]


def test_f1_the_option_formation_s_general_is_checked() -> None:
    """2e57d3d says the option formation's general is checked by the kernel's name check: FormationData.general is a
    plain str, so 'napoleone' (no leader) and 'alvinczy' (an Austrian, for a French formation) load."""
    problems = _refused(lambda o: o["formation"].update(general="napoleone"))
    assert any("$.options.bonaparte_intervention.formation.general" in p for p in problems)


def test_f1_an_option_formation_may_not_replace_a_printed_one() -> None:
    """id 'massena' loads, and new_state silently replaces Massena's formation (general bonaparte) and gives it the
    reserve's units."""
    problems = _refused(lambda o: o["formation"].update(id="massena"))
    assert any("$.options.bonaparte_intervention.formation.id" in p for p in problems)


def test_f1_a_folder_without_the_formation_is_not_played_without_bonaparte_s_formation() -> None:
    """An old folder is told only '$.french_entry: Extra inputs are not permitted'; with that key deleted (what the
    message asks) it loads without `formation`/`takes` (both optional) and caldiero §20.1 is played with the reserve
    left to join Massena and Augereau (§15.4.3) and no Bonaparte formation, the Austrian +3 still counted."""
    def old(o: dict[str, Any]) -> None:
        del o["formation"], o["takes"]
    problems = _refused(old)
    assert any("bonaparte_intervention" in p for p in problems)


def test_f1_the_option_formation_s_general_is_of_its_side() -> None:
    """Since 56f20b9 an unknown general is refused; an Austrian one (Alvinczy) for the French formation still loads, and
    new_state gives the reserve's units to a formation Alvinczy commands."""
    problems = _refused(lambda o: o["formation"].update(general="alvinczy"))
    assert any("$.options.bonaparte_intervention.formation.general" in p for p in problems)
