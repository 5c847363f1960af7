"""The Para Bellum system's shared state pieces: what both games' positions hold alike (issue 18). A variant's
projections/<game>.py keeps its own state, fold and views and takes these from here."""

from __future__ import annotations

from typing import Final

# A unit's condition (caldiero §15, arrivano §15): good order, disordered, routed.
STATUSES: Final = ("good", "disordered", "routed")
# One level worse: a second disorder routs (caldiero §15.1, arrivano §15.1.1); routed stays routed.
STATUS_WORSE: Final = {"good": "disordered", "disordered": "routed", "routed": "routed"}
# One level better on a passed recovery test (caldiero §15.3.1, arrivano §15.3.1).
STATUS_BETTER: Final = {"routed": "disordered", "disordered": "good", "good": "good"}
