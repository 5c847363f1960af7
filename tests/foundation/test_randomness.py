"""Where the engine's dice come from (adjudicator/randomness.py, arbitro §R), one supply at a time: a seeded
game rolls and draws by the published derivation and refuses both once its seed is public; a game held
without its seed refuses both; entered values are checked against what was asked; a verification replays
recorded values in order; and the dice audit says who the dice are protected against."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.randomness import (HOST_WARNING, BadEntry, DiceUnavailable, EnteredSupply, NeedRandom,
                                            NoSeedSupply, RecordedSupply, Reroll, SeededSupply, audit_dice,
                                            describe_rerolls, unrecorded)
from arbitro.events import core
from arbitro.events import random as rnd
from arbitro.events.records import EventBody
from arbitro.projections.game import CoreState

SEED = "ab" * 32
MIX = rnd.mix_entropy("", "red", "red's entropy")
DECK = ("a", "b", "c", "d", "e")


def test_a_seeded_supply_rolls_and_draws_by_the_derivation_at_the_index_and_mix_of_the_game() -> None:
    supply, state = SeededSupply(SEED), CoreState(seq=4, rolls=3, mix=MIX)
    assert supply.roll(state, 3, 4, 6, "test") == (rnd.roll(SEED, MIX, 3, 4, 6), "seed")
    assert supply.draw(state, 3, DECK, 3, "test") == (rnd.draw(SEED, MIX, 3, DECK, 3), "seed")
    # the mix is the game's, not the empty one: another mix gives other dice at the same index
    assert supply.roll(CoreState(), 3, 4, 6, "test")[0] != supply.roll(state, 3, 4, 6, "test")[0]


@pytest.mark.parametrize("kind", ["roll", "draw"])
def test_once_the_seed_is_revealed_neither_a_roll_nor_a_draw_is_made_from_it(kind: str) -> None:
    """A hidden draw from a public seed would show every seat the other's hidden card: both are refused under
    arbitro §R.3, with the fork command to go on from the game's last event."""
    supply, revealed = SeededSupply(SEED), CoreState(seq=12, seed=SEED)
    with pytest.raises(DiceUnavailable, match=r"seed was revealed.*continue in a fork") as refused:
        if kind == "roll":
            supply.roll(revealed, 0, 1, 6, "test")
        else:
            supply.draw(revealed, 0, DECK, 1, "test")
    assert refused.value.rule == "arbitro §R.3" and refused.value.explained("g7", 12).endswith(": arbitro fork g7 --at 12")


@pytest.mark.parametrize("kind", ["roll", "draw"])
def test_a_game_held_without_its_seed_refuses_to_roll_or_draw_and_says_where_it_can(kind: str) -> None:
    supply = NoSeedSupply("g7")
    with pytest.raises(DiceUnavailable, match="game g7 was imported without its seed.*--with-seed") as refused:
        if kind == "roll":
            supply.roll(CoreState(), 0, 1, 6, "test")
        else:
            supply.draw(CoreState(), 0, DECK, 1, "test")
    assert refused.value.rule == "arbitro §R.1"


def test_entered_values_are_used_in_order_and_then_asked_for_with_what_is_needed() -> None:
    supply = EnteredSupply((("1", "6"), ("c", "a")))
    assert supply.roll(CoreState(), 0, 2, 6, "combat") == ((1, 6), "entered")  # both ends of the die
    assert supply.draw(CoreState(), 1, DECK, 2, "cards") == (("c", "a"), "entered")
    with pytest.raises(NeedRandom, match="roll needed: morale") as roll_needed:
        supply.roll(CoreState(), 2, 3, 10, "morale")
    need = roll_needed.value
    assert (need.kind, need.count, need.sides, need.population, need.purpose) == ("roll", 3, 10, (), "morale")
    with pytest.raises(NeedRandom, match="draw needed: deal") as draw_needed:
        supply.draw(CoreState(), 2, DECK, 2, "deal")
    need = draw_needed.value
    assert (need.kind, need.count, need.sides, need.population, need.purpose) == ("draw", 2, 0, DECK, "deal")


@pytest.mark.parametrize("entry", [("3",), ("3", "4", "5"), ("0", "3"), ("3", "7"), ("x", "3"), ("-1", "3")])
def test_an_entered_roll_must_be_as_many_values_as_dice_each_a_face_of_the_die(entry: tuple[str, ...]) -> None:
    with pytest.raises(BadEntry, match=r"combat: enter 2 value\(s\) from 1 to 6"):
        EnteredSupply((entry,)).roll(CoreState(), 0, 2, 6, "combat")


@pytest.mark.parametrize("entry", [("a",), ("a", "b", "c"), ("a", "a"), ("a", "z")])
def test_an_entered_draw_must_be_as_many_distinct_items_of_the_population_as_drawn(entry: tuple[str, ...]) -> None:
    with pytest.raises(BadEntry, match=r"deal: enter 2 distinct item\(s\) from"):
        EnteredSupply((entry,)).draw(CoreState(), 0, DECK, 2, "deal")


def test_a_recorded_supply_replays_the_log_in_order_and_says_when_it_has_no_more() -> None:
    supply = RecordedSupply(iter([(2, 5), ("b", "a")]))
    assert supply.roll(CoreState(), 0, 2, 6, "x") == ((2, 5), "seed")
    assert supply.draw(CoreState(), 1, DECK, 2, "x") == (("b", "a"), "seed")
    with pytest.raises(NeedRandom, match=r"a roll the log does not record \(morale\)"):
        supply.roll(CoreState(), 2, 1, 6, "morale")


def body(seq: int, event: Any) -> EventBody[Any]:
    return EventBody(game="g", seq=seq, cmd=seq, cmd_hash="0" * 64, seat="umpire", salt="0" * 32, prev="0" * 64,
                     event=event)


def created(**kwargs: Any) -> EventBody[Any]:
    fields: dict[str, Any] = {"ruleset": "duel", "version": "1", "scenario": "standard", "options": (),
                              "kind": "generated", "seats": ("red", "blue"), "seed_commitment": rnd.commitment(SEED),
                              "data_hash": "0" * 64, "origin": {}, "initial": {}, **kwargs}
    return body(0, core.GameCreated(**fields))


def test_the_audit_names_who_the_dice_are_protected_against() -> None:
    seats = ("red", "blue")
    assert audit_dice([created()]).protection == "host"
    assert HOST_WARNING in audit_dice([created()]).summary
    waiting = audit_dice([created(entropy_seats=seats)])
    assert (waiting.protection, waiting.mixed) == ("seats", None) and "once red, blue have revealed" in waiting.summary
    mixed = audit_dice([created(entropy_seats=seats), body(5, core.EntropyMixed(seats=("red",), mix=MIX, rule="r")),
                        body(4, core.EntropyWaived(seats=("blue",), reason="gone", rule="r"))])
    assert mixed.mixed == ("red",) and mixed.entropy_seats == seats
    assert "committed entropy of red" in mixed.summary and "proceed without blue" in mixed.summary
    assert [(w.seq, w.seats, w.reason) for w in mixed.waivers] == [(4, ("blue",), "gone")]
    assert audit_dice([created(kind="transcribed")]).protection == "entered"
    public = audit_dice([created(origin={"fork": "p", "keep_dice": True, "seed_public": True})])
    assert public.protection == "public" and "game p" in public.summary
    early = audit_dice([created(origin={"fork": "p", "keep_dice": True})])
    assert early.protection == "host" and "could show that game's rolls in advance" in early.summary


def test_the_audit_lists_only_undos_that_voided_dice_and_describes_each() -> None:
    undo = core.Undone(by="umpire", to_seq=3, reason="misclick", voided_indices=(4, 5), rule="arbitro §U.1")
    audit = audit_dice([created(), body(9, undo),
                        body(10, core.Undone(by="umpire", to_seq=8, reason="nothing rolled", rule="arbitro §U.1"))])
    assert [(r.seq, r.by, r.to_seq, r.voided_indices, r.reason, r.rule) for r in audit.rerolls] == [
        (9, "umpire", 3, (4, 5), "misclick", "arbitro §U.1")]
    assert describe_rerolls(audit.rerolls) == ("1 undo(s) voided dice, so those rolls were made again: "
                                               "#9 by umpire back to #3 voided 2 (random index 4, 5)")
    assert describe_rerolls([]) == "no undo voided a roll or draw"
    two = [Reroll(seq=2, by="red", to_seq=1, voided_indices=(0,), reason="", rule=""), audit.rerolls[0]]
    assert describe_rerolls(two).startswith("2 undo(s) voided dice") and "; #9 by umpire" in describe_rerolls(two)


# --- the exact words: each is what status, verify or a refusal prints -------------------------------
def test_the_refusals_say_exactly_why_and_what_to_do() -> None:
    with pytest.raises(DiceUnavailable) as public:
        SeededSupply(SEED).roll(CoreState(seq=12, seed=SEED), 0, 1, 6, "test")
    assert public.value.explained("g7", 11) == ("the dice seed was revealed, so further rolls would be predictable: "
                                                "continue in a fork, which draws a new seed: arbitro fork g7 --at 11")
    with pytest.raises(DiceUnavailable) as no_seed:
        NoSeedSupply("g7").draw(CoreState(), 0, DECK, 1, "test")
    assert str(no_seed.value) == ("game g7 was imported without its seed, so this database cannot roll its dice; "
                                  "adjudicate it where it was created, or import an export made with --with-seed")
    assert no_seed.value.explained("g7", 11) == str(no_seed.value)  # a fork would not help here: none is suggested


def test_an_entered_draw_of_every_item_is_a_shuffle_and_is_accepted() -> None:
    assert EnteredSupply((tuple(reversed(DECK)),)).draw(CoreState(), 0, DECK, len(DECK), "deal") == \
        (tuple(reversed(DECK)), "entered")


@pytest.mark.parametrize("kind", ["roll", "draw"])
def test_a_recorded_supply_that_runs_out_asks_for_a_roll_naming_what_it_was_for(kind: str) -> None:
    supply = RecordedSupply(iter([]))
    with pytest.raises(NeedRandom) as needed:
        if kind == "roll":
            supply.roll(CoreState(), 0, 2, 6, "morale")
        else:
            supply.draw(CoreState(), 0, DECK, 2, "morale")
    need = needed.value
    assert (need.kind, need.count, need.sides, need.population) == ("roll", 0, 0, ())
    assert need.purpose == "a roll the log does not record (morale)"


def test_a_roll_the_log_does_not_record_is_said_once_however_often_its_purpose_is_passed_on() -> None:
    """verify names the purpose of the roll it misses; a recorded supply's purpose already says the log lacks it."""
    assert unrecorded("morale") == "a roll the log does not record (morale)"
    assert unrecorded(unrecorded("morale")) == "a roll the log does not record (morale)"
    assert unrecorded("a roll for morale") == "a roll the log does not record (a roll for morale)"


def test_a_log_without_game_created_has_no_dice_audit() -> None:
    with pytest.raises(AssertionError, match="^a game's log starts with game_created$"):
        audit_dice([body(3, core.EntropyMixed(seats=(), mix="", rule="r"))])


def test_the_audit_summaries_word_for_word() -> None:
    seats = ("red", "blue")
    assert audit_dice([created(kind="transcribed")]).summary == \
        "entered from the table: the engine rolls nothing (arbitro §R.4)"
    assert audit_dice([created(origin={"fork": "p", "keep_dice": True, "seed_public": True})]).summary == \
        ("public: this fork replays the dice of game p, whose seed is revealed; anyone can predict them "
         "(for analysis, arbitro §R.3)")
    assert audit_dice([created(origin={"fork": "p", "keep_dice": True})]).summary == \
        ("dice not protected against the host: this fork shares the secret seed of game p, kept before that "
         "game's reveal, so it could show that game's rolls in advance (arbitro §R.3)")
    assert audit_dice([created()]).summary == \
        ("dice not protected against the host: they rest on the server's seed alone, since no seat committed "
         "entropy at creation (arbitro §R.2)")
    both = audit_dice([created(entropy_seats=seats), body(6, core.EntropyMixed(seats=seats, mix=MIX, rule="r"))])
    assert both.summary == "protected against the host by the committed entropy of red, blue (arbitro §R.2)"
    waived = [body(5, core.EntropyWaived(seats=("red", "blue"), reason="both gone", rule="r")),
              body(6, core.EntropyMixed(seats=(), mix="", rule="r"))]
    assert audit_dice([created(entropy_seats=seats), *waived]).summary == \
        ("protected against the host by the committed entropy of no seat (arbitro §R.2); the umpire ruled to "
         "proceed without blue, red")
