"""The browser viewer's server side (issue 13): the page `GET /games/{id}/viewer` serves, and the served events in
plain words for it.

The page is one constant, self-contained HTML file (viewer.html: inline script and style, no other origin): it
holds nothing of any game, so it is served without a token. The seat's token is given in the page's URL fragment
(`#token=...`, which a browser never sends) or typed in; the page sends it only in the Authorization header of its
own calls to the seat-authorised endpoints (status, events, picture, stream), so it shows exactly what the API
serves that seat. Its Content-Security-Policy lets it run only its own script and reach only this server."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arbitro.adjudicator.report_phrases import phrase, told

PAGE = (Path(__file__).parent / "viewer.html").read_text(encoding="utf-8")
_SCRIPT = re.search(r"<script>(.*?)</script>", PAGE, re.S)
assert _SCRIPT is not None, "viewer.html holds its one inline script"
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.group(1).encode()).digest()).decode()

# Only the page's own script runs (an SVG or event text that held markup could run nothing); its calls go to this
# server only; nothing is framed or loaded from elsewhere; the token never leaves in a Referer.
HEADERS = {
    "Content-Security-Policy": (f"default-src 'none'; script-src 'sha256-{_SCRIPT_HASH}'; style-src 'unsafe-inline'; "
                                "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

HIDDEN_WORDS = "an event hidden from you"


def worded(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each served event with `words` (report_phrases' sentence, built only from what was served) and `told`
    (False for the engine's bookkeeping, which the viewer dims)."""
    out = []
    for event in events:
        data = event.get("event") or {}
        words = phrase(data) if data else HIDDEN_WORDS
        out.append({**event, "words": words, "told": bool(data) and told(str(data.get("type", "")))})
    return out
