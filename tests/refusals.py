"""The one check that a command is refused: the cited rule, the words, and nothing appended (the rulesets' test
harnesses call it rather than each keeping a copy)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.service import Arbitro


def refused(app: Arbitro, game_id: str, seat: str, rule: str, words: str, command: dict[str, Any]) -> Rejected:
    """`command` sent as `seat` is refused citing `rule`, with `words` in the message; the log is unchanged."""
    head = app.game(game_id).head_seq
    with pytest.raises(Rejected) as exc:
        app.submit(game_id, seat, command)
    assert exc.value.rule == rule, (exc.value.rule, str(exc.value))
    assert words in exc.value.message, exc.value.message
    assert app.game(game_id).head_seq == head
    return exc.value
