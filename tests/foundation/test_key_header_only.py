"""rev-s S3: a registration the file's header alone makes (a store row no `key_registered` chains) is reported as the
header's word, by seat, even when the chain registers another seat's key: the legacy rule (a game registered before
registrations were chained) lets one pass whose since precedes the first chained registration, and the report must
not present it as a registration the chain shows (arbitro §L.6)."""

from __future__ import annotations

from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.verify_signatures import HEADER_ONLY, LEGACY
from arbitro.events.signing import new_private_key, public_key

from .test_key_withdrawal import signed


def seat_signatures(app: Arbitro) -> tuple[str, str]:
    (check,) = [c for c in app.verify("g").checks if c.name == "seat signatures"]
    return check.status, check.detail


def test_a_header_only_registration_beside_a_chained_one_is_named_as_the_headers_word(app: Arbitro) -> None:
    """The host writes a row for blue (its own key, since 0) before any command and signs blue's commands itself; red
    registers through the chain. verify passes (the legacy rule), but says blue's registration is the header's alone,
    and red's is not named so."""
    app.create("duel", "standard", game_id="g")
    host, red = new_private_key(), new_private_key()
    with app.store.conn:  # type: ignore[attr-defined]
        app.store.conn.execute("INSERT INTO seat_keys VALUES (?, ?, ?, ?)",  # type: ignore[attr-defined]
                               ("g", "blue", public_key(host), 0))
    app.register_key("g", "red", public_key(red))
    signed(app, "g", "red", red, "red-1")
    status, detail = seat_signatures(app)
    assert status == "passed" and detail.endswith(f"; blue: {HEADER_ONLY}"), detail
    assert "red:" not in detail and LEGACY not in detail


def test_every_registration_chained_is_said_as_before(app: Arbitro) -> None:
    app.create("duel", "standard", game_id="g")
    red = new_private_key()
    app.register_key("g", "red", public_key(red))
    signed(app, "g", "red", red, "red-1")
    status, detail = seat_signatures(app)
    assert status == "passed" and HEADER_ONLY not in detail and LEGACY not in detail, detail
