"""Duel: a tiny ruleset that lives in tests only, to prove the foundation end to end.

Two seats, red and blue, alternate turns for six rounds. On its turn a seat may play its hidden card once
(+1 damage to its next attack; playing reveals it), then attacks (aiming high or low) or ends its turn.
The defender must then choose a guard (a pending decision of the other seat); 2d6 decide the damage:
1 below 7, 2 from 7, +1 if the guard misses the aim, +1 for a played card. A seat at 0 hit points loses;
after round 6 the higher hit points win. Citations use "duel §N" as a real rulebook's would.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec
from pydantic import BaseModel, ConfigDict, Field

from arbitro.adjudicator.ruleset import Decision, Interpretation, Pending, Rule, Ruleset, Scenario
from arbitro.events.core import Event
from arbitro.projections.base import Outcome

SEATS = ("red", "blue")
# Each seat draws from its own deck, so its draw's population never names the other seat's card.
DECKS = {"red": ("ruby-falcon", "coral-wolf", "amber-lynx"), "blue": ("jade-otter", "onyx-heron", "slate-viper")}
R_TURN = Rule("duel", "2", "seats alternate; red first")
R_CARD = Rule("duel", "3", "a hidden card, played once before attacking")
R_ATTACK = Rule("duel", "4", "attack, then the defender guards")
R_DAMAGE = Rule("duel", "5", "damage by 2d6")
R_END = Rule("duel", "6", "six rounds; 0 hit points loses")


# --- events ----------------------------------------------------------------------------------
class CardDealt(Event, tag="card_dealt"):
    seat: str
    card: str
    rule: str


class CardPlayed(Event, tag="card_played"):
    seat: str
    card: str
    rule: str


class AttackDeclared(Event, tag="attack_declared"):
    seat: str
    aim: str
    rule: str


class GuardChosen(Event, tag="guard_chosen"):
    seat: str
    stance: str
    rule: str


class DamageDealt(Event, tag="damage_dealt"):
    target: str
    amount: int
    rule: str


class TurnEnded(Event, tag="turn_ended"):
    seat: str
    rule: str


class RoundEnded(Event, tag="round_ended"):
    round: int
    rule: str


DuelEvent = Union[CardDealt, CardPlayed, AttackDeclared, GuardChosen, DamageDealt, TurnEnded, RoundEnded]


# --- state -------------------------------------------------------------------------------------
class Attack(msgspec.Struct):
    attacker: str
    aim: str


class DuelState(msgspec.Struct, kw_only=True):
    round: int = 1
    rounds: int = 6
    active: str = "red"
    hp: dict[str, int] = {}
    cards: dict[str, str] = {}
    played: dict[str, bool] = {}
    bonus: dict[str, int] = {}
    attack: Attack | None = None


# --- commands ----------------------------------------------------------------------------------
class _C(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AttackCmd(_C):
    type: Literal["attack"]
    aim: Literal["high", "low"]


class GuardCmd(_C):
    type: Literal["guard"]
    stance: Literal["high", "low"]


class PlayCard(_C):
    type: Literal["play_card"]


class EndTurn(_C):
    type: Literal["end_turn"]


DuelCommand = Annotated[Union[AttackCmd, GuardCmd, PlayCard, EndTurn], Field(discriminator="type")]


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


class DuelRuleset(Ruleset[DuelState]):
    name = "duel"
    title = "Duel (test ruleset)"
    version = "1.0.0"
    State = DuelState
    Event = DuelEvent
    Command = DuelCommand

    def scenarios(self) -> dict[str, Scenario]:
        return {"standard": Scenario(name="standard", title="Six rounds", seats=SEATS, options=("short",)),
                "long": Scenario(name="long", title="Ten rounds", seats=SEATS)}

    def interpretations(self) -> dict[str, Interpretation]:
        return {"miss_bonus": Interpretation(
            name="miss_bonus", default="plus_one", choices=("plus_one", "none"), rule=str(R_DAMAGE),
            phrase="colpo scoperto", explanation="whether a guard that misses the aim adds 1 damage")}

    def provisional(self, scenario: str) -> list[str]:
        return ["duel: the card deck is invented for tests"]

    def new_state(self, scenario: str, options: tuple[str, ...]) -> DuelState:
        rounds = 10 if scenario == "long" else 3 if "short" in options else 6
        return DuelState(rounds=rounds, hp={s: 10 for s in SEATS}, played={s: False for s in SEATS},
                         bonus={s: 0 for s in SEATS})

    def start(self, ctx: Decision[DuelState]) -> None:
        for seat in SEATS:  # each seat draws a hidden card (duel §3)
            (card,) = ctx.draw(DECKS[seat], 1, purpose=f"{R_CARD} card for {seat}", visible_to=(seat,))
            ctx.emit(CardDealt(seat=seat, card=card, rule=str(R_CARD)))

    def seats(self, state: DuelState) -> tuple[str, ...]:
        return SEATS

    def active_seats(self, state: DuelState) -> tuple[str, ...]:
        return (state.active,)

    def pending(self, state: DuelState) -> Pending | None:
        if state.attack is None:
            return None
        defender = other(state.attack.attacker)
        return Pending(seat=defender, kind="guard", rule=str(R_ATTACK), prompt="choose a guard (high or low)",
                       options=[{"type": "guard", "stance": s} for s in ("high", "low")])

    def legal(self, state: DuelState, seat: str) -> list[dict[str, Any]]:
        pending = self.pending(state)
        if pending is not None:
            return list(pending.options or []) if seat == pending.seat else []
        if seat != state.active:
            return []
        moves: list[dict[str, Any]] = [{"type": "attack", "aim": a} for a in ("high", "low")]
        moves.append({"type": "end_turn"})
        if not state.played.get(seat) and state.cards.get(seat):
            moves.append({"type": "play_card"})
        return moves

    def decide(self, ctx: Decision[DuelState], command: Any) -> None:
        state, seat = ctx.state, ctx.seat
        match command:
            case GuardCmd():
                if state.attack is None:
                    ctx.reject(R_ATTACK, "there is no attack to guard against")
                attack = state.attack
                ctx.emit(GuardChosen(seat=seat, stance=command.stance, rule=str(R_ATTACK)))
                dice = ctx.roll(2, 6, purpose=f"{R_DAMAGE} damage", detail={"aim": attack.aim, "guard": command.stance})
                amount = 1 if sum(dice) < 7 else 2
                if attack.aim != command.stance and ctx.interpretation("miss_bonus") == "plus_one":
                    amount += 1
                amount += ctx.state.bonus[attack.attacker]
                ctx.emit(DamageDealt(target=seat, amount=amount, rule=str(R_DAMAGE)))
                self._end_turn(ctx, attack.attacker)
            case AttackCmd():
                ctx.emit(AttackDeclared(seat=seat, aim=command.aim, rule=str(R_ATTACK)))
            case PlayCard():
                if state.played[seat]:
                    ctx.reject(R_CARD, "your card is already played")
                ctx.emit(CardPlayed(seat=seat, card=state.cards[seat], rule=str(R_CARD)))
            case EndTurn():
                self._end_turn(ctx, seat)

    def _end_turn(self, ctx: Decision[DuelState], seat: str) -> None:
        if self.outcome(ctx.state) is not None:
            return
        ctx.emit(TurnEnded(seat=seat, rule=str(R_TURN)))
        if seat == "blue":
            ctx.emit(RoundEnded(round=ctx.state.round - 1, rule=str(R_END)))

    # --- projection ----------------------------------------------------------------------------
    def apply(self, state: DuelState, event: Any) -> DuelState:
        match event:
            case CardDealt(seat=seat, card=card):
                state.cards[seat] = card
            case CardPlayed(seat=seat):
                state.played[seat] = True
                state.bonus[seat] = 1
            case AttackDeclared(seat=seat, aim=aim):
                state.attack = Attack(attacker=seat, aim=aim)
            case DamageDealt(target=target, amount=amount):
                state.hp[target] = max(0, state.hp[target] - amount)
                state.bonus[other(target)] = 0
                state.attack = None
            case TurnEnded(seat=seat):
                state.active = other(seat)
                if seat == "blue":
                    state.round += 1
            case GuardChosen() | RoundEnded():
                pass
        return state

    def view(self, state: DuelState, seat: str) -> dict[str, Any]:
        return {
            "round": state.round, "rounds": state.rounds, "active": state.active, "hp": dict(state.hp),
            "attack": msgspec.to_builtins(state.attack) if state.attack else None,
            "my_card": state.cards.get(seat),
            "cards_played": {s: (state.cards[s] if state.played[s] else None) for s in SEATS if s in state.cards},
        }

    def redact(self, event: Any, seat: str, state: DuelState) -> dict[str, Any] | None:
        data: dict[str, Any] = msgspec.to_builtins(event)
        if isinstance(event, CardDealt) and event.seat != seat:
            data["card"] = None
        return data

    def secrets(self, state: DuelState, seat: str) -> set[str]:
        return {card for s, card in state.cards.items() if s != seat and not state.played[s]}

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, CardPlayed)

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, RoundEnded)

    def outcome(self, state: DuelState) -> Outcome | None:
        beaten = [s for s in SEATS if state.hp[s] <= 0]
        if beaten:
            return Outcome(winner=other(beaten[0]), reason=f"{beaten[0]} has no hit points left", rule=str(R_END))
        if state.round > state.rounds:
            red, blue = state.hp["red"], state.hp["blue"]
            winner = None if red == blue else "red" if red > blue else "blue"
            return Outcome(winner=winner, reason=f"after round {state.rounds}: red {red}, blue {blue}", rule=str(R_END))
        return None

    def validate_position(self, state: DuelState) -> list[str]:
        problems = []
        if state.active not in SEATS:
            problems.append(f"active must be red or blue, not {state.active!r}")
        for seat, hp in sorted(state.hp.items()):
            if not 0 <= hp <= 10:
                problems.append(f"hp of {seat} must be 0..10, not {hp}")
        return problems
