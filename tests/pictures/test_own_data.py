"""A game played on its own data (a user's data folder, data an override changed) is drawn on that data, not on the
shipped map and counters (issue 19): an overridden hex's terrain, a counter's printed value, a zone's star show in
its picture, for every ruleset with a picture."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.render import render
from arbitro.adjudicator.service import Arbitro
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.base import UMPIRE

SVG = "{http://www.w3.org/2000/svg}"


def overridden(ruleset: str, scenario: str, *overrides: dict[str, Any]) -> tuple[Arbitro, str, str]:
    """A standard game and one from its set-up with `overrides`, in one store."""
    app = Arbitro(SQLiteStore(":memory:"))
    standard = app.create(ruleset, scenario)
    position = app.position(standard, seat=UMPIRE)
    return app, standard, app.create(ruleset, position={**position, "overrides": list(overrides)})


def counter(app: Arbitro, game: str, piece: str, seat: str = UMPIRE) -> str:
    drawn = render(app, game, seat).drawn
    return next(c["values"] for c in drawn.get("counters", drawn.get("blocks", [])) if c["id"] == piece)


def terrain(app: Arbitro, game: str, hex_id: str) -> str | None:
    return next((p.get("data-terrain") for p in ET.fromstring(render(app, game, UMPIRE).svg).iter()
                 if p.get("data-terrain") and p.get("data-hex") == hex_id), None)


@pytest.mark.parametrize("ruleset, scenario, unit, ground", [("caldiero", "historical", "fr-augereau-v-6pdr", "palude"),
                                                              ("arrivano", "montebello", "lobkowitz-3", "bosco")])
def test_a_para_bellum_game_draws_its_own_counters_and_terrain(ruleset: str, scenario: str, unit: str,
                                                               ground: str) -> None:
    app, standard, _ = overridden(ruleset, scenario)
    where = app.state_at(standard).rules.units[unit].hex
    shipped_values, shipped_terrain = counter(app, standard, unit), terrain(app, standard, where)
    assert shipped_values and shipped_terrain not in (None, ground)
    overrides = [{"kind": "unit", "unit": unit, "efficiency": 1}, {"kind": "hex", "hex": where, "terrain": ground}]
    game = app.create(ruleset, position={**app.position(standard, seat=UMPIRE), "overrides": overrides})
    strength, _, movement = shipped_values.split("-")
    assert counter(app, game, unit) == f"{strength}-1-{movement}"
    assert terrain(app, game, where) == ground
    assert (counter(app, standard, unit), terrain(app, standard, where)) == (shipped_values, shipped_terrain)


def test_a_caricat_game_draws_its_own_counters() -> None:
    app, standard, game = overridden("caricat", "pastrengo", {"kind": "unit", "unit": "piemonte4", "morale": 2})
    assert (counter(app, standard, "piemonte4"), counter(app, game, "piemonte4")) == ("4-3/5", "4-3/2")


def test_a_monferrato_game_draws_its_own_counters() -> None:
    app, standard, game = overridden("monferrato", "1628", {"kind": "unit", "unit": "gon_inf2", "fire": 6})
    assert (counter(app, standard, "gon_inf2"), counter(app, game, "gon_inf2")) == ("I3", "I6")


def stars(app: Arbitro, game: str) -> set[str]:
    return {t.text[2:] for t in ET.fromstring(render(app, game, UMPIRE).svg).iter(f"{SVG}text")
            if t.text and t.text.startswith("★ ")}


def test_a_marengo_game_on_its_own_data_folder_draws_its_own_map() -> None:
    """A data folder (`arbitro new marengo --data DIR`) whose map names a zone otherwise and moves a star."""
    ruleset = registry.get("marengo")
    files = ruleset.shipped_data()
    board = json.loads(files["map.json"])
    starred = next(z for z in board["zones"] if z.get("star"))
    plain = next(z for z in board["zones"] if not z.get("star") and z["id"] != "marengo")
    plain["star"], starred["star"], plain["name"] = starred["star"], None, "Cascina del Quesito"  # the star moved
    app = Arbitro(SQLiteStore(":memory:"))
    standard = app.create("marengo", "marengo")
    game = app.create("marengo", "marengo", data={**files, "map.json": json.dumps(board)})
    assert starred["name"][:26] in stars(app, standard) and "Cascina del Quesito" not in stars(app, standard)
    assert "Cascina del Quesito" in stars(app, game) and starred["name"][:26] not in stars(app, game)
