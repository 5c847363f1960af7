"""Which picture draws each ruleset's games (model.Picturing), by ruleset name: `arbitro render`, the report and the
viewer look a game's picture up here. Each picture is its game's own, in its package's picture.py (Caldiero's and
Arrivano's are the Para Bellum system's, in the kernel's package: parabellum/picture.py); this module only names
them. Each reads only the seat's view and the game's public printed data: a piece the view does not name is never
drawn, and an unexamined stack is a marker."""

from __future__ import annotations

from pathlib import Path

from arbitro.adjudicator.caricat.picture import caricat_picture
from arbitro.adjudicator.marengo.picture import marengo_picture
from arbitro.adjudicator.monferrato.picture import monferrato_picture
from arbitro.adjudicator.parabellum.picture import parabellum_picture
from arbitro.adjudicator.pictures.model import Picturing

ADJUDICATOR = Path(__file__).resolve().parents[1]

PICTURES: dict[str, Picturing] = {
    "marengo": marengo_picture,
    "monferrato": monferrato_picture,
    "caldiero": parabellum_picture("Caldiero 1796", ADJUDICATOR / "caldiero" / "data", lambda version: "caldiero"),
    "arrivano": parabellum_picture("Arrivano i Francesi!", ADJUDICATOR / "arrivano" / "data"),
    "caricat": caricat_picture,
}
