"""rev-o O6's rest: a request body that is not UTF-8 is refused in the CLI's words (errors.not_utf8: what, the byte,
where it is, what to do), not "the request body is not UTF-8 text (byte 0)"."""

from __future__ import annotations

from .conftest import Server


def test_a_body_not_in_utf8_is_refused_naming_the_byte_and_the_fix(server: Server) -> None:
    game = server.new()
    refused = server.client("red", game).post("/verify", content=b'\xff{"type": "end_turn"}')
    assert refused.status_code == 400, refused.text
    assert refused.json()["message"] == "the request body: not UTF-8 text (byte 0xff at offset 0); send it as UTF-8"
