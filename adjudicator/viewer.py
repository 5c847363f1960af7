"""The browser viewer's server side (issue 13): the headers the server serves its page with.

The page is one constant, self-contained HTML file (viewer.html, read by viewer_file: inline script and style, no
other origin): it holds nothing of any game, so it is served without a token. The seat's token is given in the
page's URL fragment (`#token=...`, which a browser never sends) or typed in; the page sends it only in the
Authorization header of its own calls to the seat-authorised endpoints (status, events, picture, stream), so it shows
exactly what the API serves that seat. Its Content-Security-Policy lets it run only its own script and reach only
this server."""

from __future__ import annotations

from arbitro.adjudicator.viewer_file import content_policy

# The page's policy as served (viewer_file.content_policy); the token never leaves in a Referer.
HEADERS = {
    "Content-Security-Policy": content_policy(served=True),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
