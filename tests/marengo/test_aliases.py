"""A transcriber names places as the reference map does (issue 19 point 24): locale numbers for zones, "8/4" for
the approach of locale 8 toward locale 4 (Marengo toward Peterbona); the log keeps what was sent, the events the
zones."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.marengo.data_loader import load_data
from tests.marengo.harness import app, from_position, own_data, position


def test_the_reference_maps_8_4_names_the_approach_of_marengo_toward_pedrabona() -> None:
    assert load_data().map.locales == {"4": "pedrabona", "8": "marengo"}
    g = from_position(position({"AUT_HADDICK_A": ("pedrabona", "pedrabona/marengo"),
                                "FRA_GARDANNE_B": ("marengo", "marengo/pedrabona")}))
    events = g.send("austria", type="assault", approach="4/8", blocks=[g.tok("AUT_HADDICK_A")],
                    leaders=[g.tok("AUT_HADDICK_A")])
    declared = next(e for e in events if e["type"] == "assault_declared")
    assert (declared["approach"], declared["target"]) == ("pedrabona/marengo", "marengo/pedrabona")
    stored = [c.record.command for c in g.app.store.commands(g.id)][-1]
    assert stored["approach"] == "4/8"  # the log keeps what the table said


def test_a_locale_number_names_a_zone_in_moves_and_road_paths() -> None:
    g = from_position(position({"AUT_OTT_A": ("pedrabona", "reserve"), "AUT_FRIMONT": ("testa_di_ponte", "reserve"),
                                "FRA_WATRIN_A": ("castel_ceriolo", "reserve")}))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="8")
    assert g.block("AUT_OTT_A").zone == "marengo"
    g.send("austria", type="road_move", block=g.tok("AUT_FRIMONT"), road="strada_principale", path=["4"])
    assert g.block("AUT_FRIMONT").zone == "pedrabona"
    with pytest.raises(Rejected, match="99"):
        g.send("austria", type="move", blocks=[g.tok("AUT_FRIMONT")], to="99")


def test_a_data_folder_may_complete_the_table_and_a_bad_entry_is_a_data_error() -> None:
    def more(m: dict[str, Any]) -> None:
        m["locales"]["12"] = "castel_ceriolo"
    g = from_position(position({"AUT_OTT_A": ("marengo", "reserve"), "FRA_WATRIN_A": ("strada_tortona", "reserve")}),
                      own_data(map=more))
    g.send("austria", type="move", blocks=[g.tok("AUT_OTT_A")], to="12")
    assert g.block("AUT_OTT_A").zone == "castel_ceriolo"

    def wrong(m: dict[str, Any]) -> None:
        m["locales"]["13"] = "alessandria"
        m["locales"]["marengo"] = "marengo"
    with pytest.raises(DataError) as exc:
        app().create("marengo", "marengo", data=own_data(map=wrong))
    assert [p.path for p in exc.value.problems] == ["$.locales.13", "$.locales.marengo"]
