"""The demonstration behind the README's first command: a real game of a shipped ruleset on the embedded
SQLite default, commands played through the adjudicator (one of them illegal, rejected with its
citation), a view for each seat, a fork, a replay and a verification. Nothing in it is canned: the
commands are chosen among `legal` by seeded self-play, and every result is the engine's."""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Callable
from typing import Any

from arbitro.adjudicator import registry
from arbitro.adjudicator.errors import ArbitroError, Rejected
from arbitro.adjudicator.results import SubmitResult
from arbitro.adjudicator.selfplay import SelfPlay, fights, fought, progressing
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.game import state_hash

Say = Callable[[str], None]


# Campotenese's armies start a day's march apart: self-play takes many hundred commands to bring them into
# contact, Montebello's in under two hundred. Every other ruleset's demo plays its first scenario.
DEMO_SCENARIOS = {"arrivano": "montebello"}
MORE_STEPS = 400  # the most the demo plays past --steps to reach a combat and a roll (Montebello: some 175)
ROLLS = ("dice_rolled", "items_drawn")


def run_demo(app: Arbitro, ruleset_name: str, say: Say, steps: int = 40) -> str:
    ruleset = registry.get(ruleset_name)
    scenario = DEMO_SCENARIOS.get(ruleset_name, next(iter(ruleset.scenarios())))
    game = app.create(ruleset_name, scenario, seat_entropy=True)
    status = app.status(game)
    say(f"1. created {ruleset.title} ({scenario}) as game {game}; seats: {', '.join(status.seats)}")
    if status.provisional:
        say(f"   provisional data in use ({len(status.provisional)} items), e.g. {status.provisional[0]}")
    _entropy_round(app, game, status.seats, say)

    say(f"2. playing {steps} commands chosen among the legal ones (those that fight or move the game on first):")
    shown = False
    seen: set[str] = set()  # "roll", "fight": what the demo has shown so far
    skipped: Counter[str] = Counter()
    fighting = False  # a fight was declared and has not ended yet
    outcome = False  # the fight under way has shown its result (selfplay.fought)

    def after(seat: str, command: dict[str, Any], result: SubmitResult) -> None:
        nonlocal shown, fighting, outcome
        kinds = list(dict.fromkeys(e["type"] for e in result.events))
        # declaring (Marengo's bombardment, resolved a turn later) or cancelling one is no fight
        opens = fights(command["type"]) and not command["type"].startswith(("declare_", "cancel_"))
        fighting = fighting or opens
        outcome = fighting and (outcome or fought(result.events))
        # a fight is shown whole: its declaration, then every answer up to its result (often the other seat's; the
        # duel's guard is a command of its own); one called off with no result (caldiero §12.2.2) shows no combat
        ended = fighting and not app.state_at(game).core.decisions and (outcome or not opens)
        news = {"roll"} & {"roll" for k in kinds if k in ROLLS} | ({"fight"} if ended and outcome else set())
        unfinished = fighting and "fight" not in seen
        fighting = fighting and not ended
        outcome = outcome and fighting
        if play.steps > steps and not news - seen and not unfinished:  # played on to reach a combat: only what shows one is printed
            skipped[command["type"]] += 1
            return
        seen.update(news)
        say(f"   {seat:>8}: {json.dumps(command, ensure_ascii=False)} -> {', '.join(kinds)}")
        if not shown and play.steps >= steps // 4:
            shown = _show_rejection(app, game, say, fallback=play.steps >= steps // 2)

    play = SelfPlay(app, game, seed="demo", chooser=progressing("demo"), on_step=after)
    play.play(steps // 2)
    middle = app.game(game).head_seq
    play.play(steps)
    if seen != {"roll", "fight"}:
        say("   playing on until a combat and a roll (showing only the commands that make one):")
        while seen != {"roll", "fight"} and play.steps < steps + MORE_STEPS and play.step():
            pass
        say(f"   ({sum(skipped.values())} more commands: "
            + ", ".join(f"{kind} x{n}" for kind, n in skipped.most_common()) + ")")

    say("4. each seat's view (the umpire sees everything; a player only what the rules allow):")
    for seat in (*status.seats, "umpire"):
        view = json.dumps(app.view(game, seat)["state"], ensure_ascii=False)
        say(f"   {seat:>8}: {len(view)} characters, begins {view[:110]}...")

    fork = app.fork(game, middle)
    say(f"5. forked the game after event #{middle} as {fork} (the umpire's act, recorded in {game}'s log; new seed)")
    _entropy_round(app, fork, status.seats, say)
    SelfPlay(app, fork, seed="demo-fork").play(4)
    say("   and played 4 commands there")

    replayed = app.state_at(game, middle)
    say(f"6. replayed {game} to #{middle}: state hash {state_hash(replayed)[:16]}...")

    report = app.verify(game)
    say(f"7. verified {game}: {'VERIFIED' if report.passed else 'FAILED'}")
    for check in report.checks:
        say(f"   {check.status:>9} {check.name}: {check.detail}")
    return game


def _entropy_round(app: Arbitro, game: str, seats: list[str], say: Say) -> None:
    """Each seat commits to its entropy, then reveals it: only then is anything rolled (arbitro §R.2). The
    entropy derives from a fresh secret, as a real client's own would."""
    private = SelfPlay(app, game, seed=secrets.token_hex(16))
    while app.awaiting(game).kind == "entropy" and private.step():
        pass
    say(f"   {', '.join(seats)} committed to their own entropy, then revealed it; dice: {app.status(game).dice.summary}")


def _show_rejection(app: Arbitro, game: str, say: Say, fallback: bool) -> bool:
    """Find an illegal variant of a legal command (probing the pure adjudicator, which appends nothing), then
    submit it for real to show the rejection and its citation."""
    for seat in app.awaiting(game).seats:
        candidate = _first_rejected(app, game, seat)
        if candidate is None:
            continue
        try:
            app.submit(game, seat, candidate)
        except Rejected as e:
            say(f"3. an illegal command from {seat}: {json.dumps(candidate, ensure_ascii=False)}")
            say(f"   rejected [{e.rule}]: {e.message}")
            return True
    if not fallback:
        return False
    seats = [s for s in app.game(game).seats if s not in app.awaiting(game).seats]
    awaited = app.awaiting(game).seats
    legal = app.legal(game, awaited[0]) if awaited else []
    if seats and legal:  # out of turn: the engine's own rule
        try:
            app.submit(game, seats[0], legal[0])
        except Rejected as e:
            say(f"3. {seats[0]} sends a command out of turn: {json.dumps(legal[0], ensure_ascii=False)}")
            say(f"   rejected [{e.rule}]: {e.message}")
    return True


def _first_rejected(app: Arbitro, game: str, seat: str) -> dict[str, Any] | None:
    """The first illegal variant that the ruleset itself rejects (citing its rulebook)."""
    record = app.game(game)
    adj, state = app.adjudicator(record.ruleset), app.state_at(game)
    for candidate in _illegal_variants(app.legal(game, seat)):
        try:
            adj.decide(state, seat, candidate, app.context(record), app.replayer(game), app.supply(record))
        except Rejected as e:
            if not e.rule.startswith("arbitro"):
                return candidate
        except ArbitroError:
            continue
    return None


def _illegal_variants(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal commands with one field given a value that the same field takes in another legal command."""
    values: dict[str, list[Any]] = {}
    for command in legal:
        for key, value in command.items():
            if key != "type" and isinstance(value, (str, int)) and value not in values.setdefault(key, []):
                values[key].append(value)
    variants = []
    for command in legal:
        for key, options in values.items():
            for value in options:
                if key in command and command[key] != value:
                    variant = {**command, key: value}
                    if variant not in legal:
                        variants.append(variant)
    return variants[:200]
