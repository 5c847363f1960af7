"""Position files: a game starts from one; semantic errors are reported precisely; any state round-trips."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.errors import BadPosition
from tests.marengo.harness import app, from_position, new_game, position


@pytest.mark.parametrize(("mutate", "words"), [
    (lambda s: s["blocks"]["AUT_OTT_A"].update(zone="genova"), "unknown zone 'genova'"),
    (lambda s: s["blocks"]["AUT_OTT_A"].update(place="marengo/spinetta"), "is not an approach of cascina_grossa"),
    (lambda s: s["blocks"]["AUT_OTT_A"].update(strength=3, arm="cavalry"), "differ from the order of battle"),
    (lambda s: s["blocks"]["AUT_OTT_B"].update(zone="cascina_grossa", token="b001"), "also used by"),
    (lambda s: s["blocks"]["FRA_WATRIN_A"].update(zone="cascina_grossa"), "held by both armies"),
    (lambda s: s.update(commands_used=5), "commands_used 5"),
])
def test_bad_positions_are_refused_precisely(mutate, words: str) -> None:
    pos = position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "AUT_OTT_B": ("strada_sale", "reserve"),
                    "FRA_WATRIN_A": ("san_giuliano", "reserve")})
    mutate(pos["state"])
    with pytest.raises(BadPosition) as exc:
        app().create("marengo", position=pos)
    assert words in str(exc.value)


def test_capacity_in_a_position() -> None:
    pos = position({b: ("strada_sale", "reserve") for b in ("AUT_OTT_A", "AUT_OTT_B", "AUT_OTT_C", "AUT_KAIM_A")})
    with pytest.raises(BadPosition) as exc:
        app().create("marengo", position=pos)
    assert "over capacity 3" in str(exc.value)


def test_any_state_is_a_position() -> None:
    g = new_game()
    g.send("austria", type="end_turn")
    pos = g.app.position(g.id, seat="umpire")
    h = from_position(pos)
    assert h.state == g.state
    assert h.legal("france") == g.legal("france")


def test_procedures_in_a_position_are_checked() -> None:
    pos = position({"AUT_OTT_A": ("cascina_grossa", "reserve"), "FRA_WATRIN_A": ("san_giuliano", "reserve")})
    pos["state"]["bombard"] = {"austria": {"block": "AUT_OTT_A", "approach": "cascina_grossa/nowhere", "declared_turn": 2}}
    with pytest.raises(BadPosition) as exc:
        app().create("marengo", position=pos)
    assert "is not its artillery" in str(exc.value) and "unknown approach" in str(exc.value)
