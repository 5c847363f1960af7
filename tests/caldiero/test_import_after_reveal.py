"""rev-p P1 through `import --as-id` (reread-a, eighteenth session): play taken back past the game's end salts its
later commands at random (projections.game.salting_key_public), but an import under another id re-salted every
command from the file's salt key, the one the end had made public, so each event made after the end became, in the
copy, a hash of hidden content a seat could test guesses against (arbitro §V.3). The copy's salts follow the game's:
derived from the key up to the command that revealed it, fresh after it."""

from __future__ import annotations

from arbitro.events import random as rnd
from tests.caldiero.test_fog_mid_game_reveal import hidden_move, massena_moving
from tests.caldiero.test_rev_p_play_after_reveal import ENDED


def test_an_import_under_another_id_salts_no_command_after_the_end_from_the_revealed_key() -> None:
    app = massena_moving()
    before_the_end = app.game("g").head_seq
    app.submit("g", "umpire", {"type": "ruling", "reason": "the game is over",
                               "patch": [{"op": "replace", "path": "/result", "value": ENDED}]})
    app.submit("g", "umpire", {"type": "undo", "to": before_the_end, "reason": "the end was ruled in error"})
    hidden_move(app, "1416")
    key = app.game("g").salt_key
    assert key is not None
    revealed_by = next(e["cmd"] for e in app.log("g") if e["type"] == "salt_key_revealed")
    copy = app.import_lines(list(app.export("g", "umpire")), "g.jsonl", seat="umpire", as_id="h")
    events = app.log(copy)
    after = [e for e in events if e["cmd"] > revealed_by]
    assert any(e["type"] == "units_moved" for e in after), "the hidden move is made after the end was taken back"
    assert all(e["salt"] != rnd.salt(key, copy, e["seq"]) for e in after), \
        "an event after the end, re-salted in the copy from the key its end made public"
    assert all(e["salt"] == rnd.salt(key, copy, e["seq"]) for e in events if e["cmd"] <= revealed_by), \
        "the salts up to the reveal derive from the key, as the original's"
    assert app.verify(copy).passed
