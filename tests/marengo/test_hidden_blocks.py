"""Marengo's face-down blocks fuzzed (bench/nifuzz_blocks.py; marengo §4 "solo il giocatore proprietario può vedere
il fronte dei suoi pezzi"): two games differing only in two face-down blocks of one zone trading fronts, or one
block's strength, serve the other seat the same bytes until a rule shows a touched block (an assault's leaders,
§11 (1); a retreat, §12; a loss, §4; ...). Over a sample of logs/marengo-full.jsonl nothing differs; and a leak put
back is found: a front served in the view, a move served with its blocks' arms, the pursuit asked only of a winner
holding cavalry (the question itself would tell the loser, before any reveal, that a hidden cavalry took part:
adjudicator/marengo/assault.py asks it "whenever it is publicly possible")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.marengo import assault
from arbitro.events import marengo as ev
from arbitro.projections import marengo as projection
from bench import nifuzz_blocks
from bench.nifuzz import Game, replay

LOG = Path(__file__).resolve().parents[2] / "logs" / "marengo-full.jsonl"


@pytest.fixture(scope="module")
def game() -> Game:
    return replay(LOG)


def assault_commands(game: Game) -> list[int]:
    """The log's assaults and the defender's questions after them (found in the log, not pinned)."""
    out = [cmd for cmd, _, command, _ in game.positions
           if command.get("type") in ("assault", "defensive_artillery", "defending_leaders")]
    assert out, "no assault in the log any more: the tests compare nothing"
    return out


def test_the_blocks_fuzzer_finds_nothing_over_the_log(game: Game) -> None:
    """Every 9th command, and every command of the first assault (its comparisons cut where the rules show a
    touched block): no difference served."""
    sampled = nifuzz_blocks.fuzz(game, every=9, count=2)
    first = assault_commands(game)[0]
    around = nifuzz_blocks.fuzz(game, every=1, count=4, first=first, last=first + 2, seeded_answers=True)
    assert sampled.games > 0 and around.games > 0 and around.revealed.total() > 0
    assert sampled.found == [] and around.found == []


def test_a_front_served_in_the_view_is_found(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The enemy's face-down blocks served with their strength: found in the perturbed position's view."""
    block_view = projection.block_view

    def leaky(state: projection.MarengoState, bid: str, seat: str) -> dict[str, Any]:
        return {**block_view(state, bid, seat), "strength": state.blocks[bid].strength}
    monkeypatch.setattr(projection, "block_view", leaky)
    found = nifuzz_blocks.fuzz(game, every=1, count=2, first=20, last=22).found
    assert found and {d.channel for d in found} == {"position"}


def test_a_move_served_with_its_blocks_arms_is_found(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """`blocks_moved` served to the enemy with the moving blocks' arms (what §4 hides): found at a move."""
    redact = projection.MarengoProjection.redact

    def leaky(self: projection.MarengoProjection, event: Any, seat: str, state: Any) -> dict[str, Any] | None:
        data = redact(self, event, seat, state)
        if isinstance(event, ev.BlocksMoved) and data is not None:
            data["arms"] = sorted(state.blocks[r.block].arm for r in event.blocks)
        return data
    monkeypatch.setattr(projection.MarengoProjection, "redact", leaky)
    moves = [cmd for cmd, _, command, _ in game.positions if command.get("type") == "move"]
    found = [d for cmd in moves[:12] for d in nifuzz_blocks.fuzz(game, every=1, count=6, first=cmd, last=cmd).found]
    assert found and {d.channel for d in found} == {"log"}
    assert all("blocks_moved" in d.what for d in found)


def test_a_pursuit_asked_only_of_a_winner_holding_cavalry_is_found(game: Game,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The winner asked about a pursuit only where its participants that did not lead hold a cavalry (marengo §11
    (8) "Se il vincitore ha dei pezzi di cavalleria che hanno partecipato al combattimento, ma che non facevano parte
    del comando"): the question would tell the loser that a hidden block is cavalry. Found at one of the log's
    assaults, as a question one game opens and the other does not, before the pursuit shows anyone."""
    possible = assault._pursuit_possible
    monkeypatch.setattr(assault, "_pursuit_possible", lambda state, a, interp: possible(state, a, interp) and any(
        state.blocks[b].arm == "cavalry" for b in assault._pursuit_pool(state, a)))
    for cmd in assault_commands(game):
        if found := nifuzz_blocks.fuzz(game, every=1, count=40, first=cmd, last=cmd).found:
            assert any(d.channel == "log" and "decision_opened[pursuit]" in d.what for d in found)
            return
    pytest.fail("no assault of the log asks a pursuit a swap of fronts would withhold")


def test_the_tool_refuses_another_game_s_log_or_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit status 2, naming why: a Monferrato log (not Marengo's), a file that is not there."""
    assert nifuzz_blocks.main([str(LOG.parent / "monferrato-full.jsonl")]) == 2
    assert "a monferrato game, not Marengo" in capsys.readouterr().err
    assert nifuzz_blocks.main([str(tmp_path / "none.jsonl")]) == 2
    assert "no such log" in capsys.readouterr().err
