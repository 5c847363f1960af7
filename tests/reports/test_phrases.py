"""report_phrases (issue 13): each served event in plain words, from its own fields only; a field the seat was not
served is never guessed (the template needing it is skipped for the next, or the generic sentence)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.report_phrases import TEMPLATES, details, phrase


@pytest.mark.parametrize(("kind", "text", "names"), [(k, t, n) for k, ts in TEMPLATES.items() for t, n in ts])
def test_every_template_is_filled_from_the_fields_it_names(kind: str, text: str, names: frozenset[str]) -> None:
    event = {"type": kind, **{name: f"<{name}>" for name in names}}
    said = phrase(event)
    assert all(f"<{name}>" in said for name in names) and "{" not in said


def test_a_move_reads_as_a_path_and_the_rest_as_details() -> None:
    event = {"type": "units_moved", "units": ["fr-5-legere", "fr-grenadiers-1"], "path": ["1311", "1411", "1511"],
             "rule": "caldiero §9.1", "column": False, "cost_half": 8}
    assert phrase(event) == "fr-5-legere and fr-grenadiers-1 move along 1311 → 1411 → 1511"
    assert details(event) == "column no; cost half 8"


def test_a_field_not_served_is_never_guessed() -> None:
    """A Marengo block the seat sees by its token only; a roll hidden from the seat; a unit's name redacted."""
    blocks = {"type": "blocks_revealed", "side": "france", "blocks": [{"token": "b003"}], "rule": "marengo §9"}
    assert phrase(blocks) == "france reveals block b003"
    hidden = {"type": "dice_rolled", "count": 2, "sides": 6, "hidden": True, "purpose": "caricat §7.2.1"}
    assert phrase(hidden) == "a roll hidden from you (2d6)"
    draw = {"type": "items_drawn", "index": 1, "purpose": "marengo §6 French At Start blocks", "hidden": True}
    assert phrase(draw) == "a draw hidden from you, for marengo §6 French At Start blocks"
    moved = {"type": "unit_moved", "unit": None, "path": ["2111", "2211"]}
    assert phrase(moved) == "Unit moved: path along 2111 → 2211"


def test_an_event_with_no_template_is_told_by_its_type_and_fields() -> None:
    assert phrase({"type": "bridge_repaired", "hex": "3601", "rule": "x §1"}) == "Bridge repaired: hex 3601"
    assert details({"type": "bridge_repaired", "hex": "3601"}) == ""
