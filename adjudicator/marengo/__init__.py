"""Bonaparte a Marengo (14 June 1800): the ruleset. Rulebook: shared/rules/marengo.it.md.

Modules follow the rulebook: setup (§6), sequence (§7), movement (§8), manoeuvre (§9), bombardment (§10),
assault (§11), retreat (§12), morale (§13-§14), with losses (the shared loss allocation), procedure (the
driver of pending decisions) and legal (the listing). See docs/rulesets/marengo.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbitro.adjudicator.marengo import (
    assault,
    bombardment,
    manoeuvre,
    movement,
    procedure,
    sequence,
    setup,
)
from arbitro.adjudicator.marengo import commands as C
from arbitro.adjudicator.marengo import rules as R
from arbitro.adjudicator.marengo.common import Illegal, Interp, resolve, resolve_all
from arbitro.adjudicator.marengo.data_loader import ARMIES_FILE, MAP_FILE, load_data
from arbitro.adjudicator.marengo.legal import legal as list_legal
from arbitro.adjudicator.marengo.position import validate
from arbitro.adjudicator.marengo.steps import STEPS
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.ruleset import Decision, Interpretation, Pending, Rule, Scenario, Ruleset
from arbitro.events import marengo as ev
from arbitro.projections.marengo import SIDES, MarengoProjection, MarengoState

INTERPRETATIONS: dict[str, Interpretation] = {
    i.name: i
    for i in (
        Interpretation(name="loser_extra_losses", default="negative_only", choices=("negative_only", "margin"),
                       rule=str(R.ASSAULT_RESULT), phrase="un punto forza per ogni punto negativo ottenuto dal risultato",
                       explanation="negative_only: the loser loses 1 plus 1 per point the result is below zero (a "
                                   "beaten defender loses 1); margin: the loser loses 1 plus the absolute result"),
        Interpretation(name="cavalry_obstacle_scope", default="either", choices=("either", "defender"),
                       rule=str(R.MANOEUVRE), phrase="in un terreno che ostacola la cavalleria",
                       explanation="either: the symbol on either approach of the pair; defender: only on the "
                                   "approach of the zone entered or attacked"),
        Interpretation(name="road_capacity_transit", default="destination", choices=("destination", "every_zone"),
                       rule=str(R.CAPACITY), phrase="non può spostare un pezzo in una zona se il numero totale",
                       explanation="whether zone capacity also limits zones passed through on a road"),
        Interpretation(name="morale_bonus", default="once", choices=("once", "every_round"),
                       rule=str(R.DEMORALISATION), phrase="Se in un round un'armata è demoralizzata mentre l'altra no",
                       explanation="the +5 morale: once per army, or at the start of every round the condition holds"),
        Interpretation(name="demoralised_defence_floor", default="zero", choices=("zero", "none"),
                       rule=str(R.DEMORALISATION), phrase="avranno ognuno un punto forza in meno",
                       explanation="whether a demoralised defending leader's strength stops at 0"),
        Interpretation(name="unactivated_may_assault", default="no", choices=("no", "yes"),
                       rule=str(R.ACTIVATION), phrase="non potranno muovere fino a che non saranno stati attivati",
                       explanation="whether an unactivated French block may assault or declare a bombardment"),
        Interpretation(name="road_attack_arms", default="cavalry", choices=("cavalry", "not_infantry"),
                       rule=str(R.MANOEUVRE), phrase="un pezzo di cavalleria può fare delle manovre di attacco. "
                                                     "Un pezzo di fanteria non può farlo",
                       explanation="which arms make attack manoeuvres while moving by road"),
        Interpretation(name="pursuit_width", default="attacked", choices=("attacked", "attacker"),
                       rule=str(R.PURSUIT), phrase="la via d'accesso interessata dall'assalto",
                       explanation="which approach's width limits the pursuing cavalry"),
        Interpretation(name="activation_adjacent", default="any_pair", choices=("any_pair", "passable"),
                       rule=str(R.ACTIVATION), phrase="una zona adiacente a quel pezzo è stata occupata dal nemico",
                       explanation="whether zones joined only by impassable approaches count as adjacent"),
        Interpretation(name="bombardment_losses", default="per_point", choices=("per_point", "one_block"),
                       rule=str(R.BOMBARDMENT), phrase="il pezzo scelto dal difensore",
                       explanation="per_point: the defender places each point on a target block of its choice; "
                                   "one_block: the whole bombardment hits the one block it chooses, the points "
                                   "beyond its strength are lost"),
        Interpretation(name="pursuit_cavalry_leader", default="any", choices=("any", "surviving"),
                       rule=str(R.PURSUIT), phrase="il giocatore perdente non ha della cavalleria tra i suoi "
                                                   "pezzi al comando",
                       explanation="any: a loser that led with cavalry is not pursued even if that leader fell; "
                                   "surviving: only a cavalry leader still alive bars the pursuit"),
        Interpretation(name="advance_blocks", default="any", choices=("any", "all_or_none"),
                       rule=str(R.CONQUEST), phrase="i pezzi in attacco potranno avanzare",
                       explanation="any: the attacker chooses which surviving attackers advance (as many as the "
                                   "zone holds); all_or_none: all of them advance or none does"),
        Interpretation(name="continuation_face_up", default="end_of_turn", choices=("end_of_turn", "end_of_move"),
                       rule=str(R.CONTINUATION), phrase="dovrà essere piazzata a faccia in su",
                       explanation="how long continuing cavalry stays face up"),
    )
}


def default_interp(name: str) -> str:
    return INTERPRETATIONS[name].default


def mirrored(state: MarengoState) -> Interp:
    """The readings in force, for legal() and pending(), which see only the state: the fold keeps the
    umpire's rulings in it (MarengoProjection.note_interpretations)."""
    return lambda name: state.interpretations.get(name, INTERPRETATIONS[name].default)


class MarengoRuleset(MarengoProjection, Ruleset[MarengoState]):
    title = "Bonaparte a Marengo (14 June 1800)"
    Command = C.MarengoCommand

    def scenarios(self) -> dict[str, Scenario]:
        return {"marengo": Scenario(name="marengo", title="The battle of Marengo, 14 June 1800, 6:00-21:00",
                                    seats=SIDES, description="16 rounds; Austria moves first each round")}

    def interpretations(self) -> dict[str, Interpretation]:
        return dict(INTERPRETATIONS)

    def data_files(self) -> list[Path]:
        return [MAP_FILE, ARMIES_FILE]

    def provisional(self, scenario: str) -> list[str]:
        return load_data().provisional_items()

    def new_state(self, scenario: str, options: tuple[str, ...]) -> MarengoState:
        return setup.new_state()

    def start(self, ctx: Decision[MarengoState]) -> None:
        setup.start(ctx, ctx.interpretation)

    def active_seats(self, state: MarengoState) -> tuple[str, ...]:
        if state.game_over:
            return ()
        return (state.phasing,)

    def pending(self, state: MarengoState) -> Pending | None:
        return procedure.pending(state, mirrored(state))

    def steps(self) -> dict[str, Step[Any]]:
        return STEPS

    def legal(self, state: MarengoState, seat: str) -> list[dict[str, Any]]:
        return list_legal(state, seat, mirrored(state))

    def validate_position(self, state: MarengoState) -> list[str]:
        return validate(state)

    def decide(self, ctx: Decision[MarengoState], command: Any) -> None:
        interp: Interp = ctx.interpretation
        try:
            _decide(ctx, command, interp)
        except Illegal as e:
            ctx.reject(e.rule, e.message)
        procedure.run(ctx, interp)


PENDING_COMMANDS = {
    "defensive_artillery": C.DefensiveArtillery, "defending_leaders": C.DefendingLeadersCmd, "pursuit": C.Pursue,
    "advance": C.Advance,
    # answered on the decision stack (steps.py), refused here
    "bombard_target": C.BombardTarget, "assign_loss": C.AssignLoss, "retreat": C.RetreatTo,
    "block_manoeuvre": C.BlockManoeuvre, "after_block": C.AfterBlock,
}


def _decide(ctx: Decision[MarengoState], cmd: Any, interp: Interp) -> None:  # noqa: C901 - a dispatch table
    s, seat = ctx.state, ctx.seat
    if seat not in SIDES:
        raise Illegal(R.SEQUENCE, "only the two armies send game commands; the umpire rules")
    p = procedure.pending(s, interp)
    if p is not None:
        if not isinstance(cmd, PENDING_COMMANDS[p.kind]):
            raise Illegal(_rule(p.rule), f"waiting for {p.seat} to {p.prompt}")
    elif seat != s.phasing:
        raise Illegal(R.SEQUENCE, f"it is {s.phasing}'s turn")
    elif isinstance(cmd, tuple(PENDING_COMMANDS.values())):
        raise Illegal(R.SEQUENCE, "no decision of that kind is awaited")
    match cmd:
        case C.DefensiveArtillery():
            assault.check_defensive(s, seat, cmd.fire)
            assault.do_defensive(ctx, cmd.fire)
        case C.DefendingLeadersCmd():
            blocks = resolve_all(s, seat, cmd.blocks)
            assault.check_def_leaders(s, seat, blocks, interp)
            assault.do_def_leaders(ctx, blocks, interp)
        case C.Pursue():
            blocks = resolve_all(s, seat, cmd.blocks)
            assault.check_pursuit(s, seat, blocks, interp)
            assault.do_pursuit(ctx, blocks)
        case C.Advance():
            stay = resolve_all(s, seat, cmd.stay)
            assault.check_advance(s, seat, cmd.advance, stay, interp)
            assault.do_advance(ctx, cmd.advance, stay)
        case C.Shuffle():
            own = sequence.check_shuffle(s, seat, cmd.zone)
            sequence.do_shuffle(ctx, seat, cmd.zone, own)
        case C.Activate():
            blocks = resolve_all(s, seat, cmd.blocks)
            sequence.check_activate(s, seat, blocks)
            sequence.do_activate(ctx, blocks)
        case C.ResolveBombardment():
            sequence.check_step(s, seat, "bombardment")
            bombardment.check_resolve(s, seat)
            sequence.enter_step(ctx, "bombardment")
            bombardment.do_resolve(ctx, seat, interp)
        case C.CancelBombardment():
            sequence.check_step(s, seat, "bombardment")
            bombardment.check_pending(s, seat)
            sequence.enter_step(ctx, "bombardment")
            bombardment.do_cancel(ctx, seat, "cancelled by its owner")
        case C.AssaultCmd():
            sequence.check_step(s, seat, "assaults")
            blocks = resolve_all(s, seat, cmd.blocks)
            leaders = resolve_all(s, seat, cmd.leaders)
            target, arm = assault.check_declare(s, seat, cmd.approach, blocks, leaders, interp)
            sequence.enter_step(ctx, "assaults")
            assault.do_declare(ctx, seat, cmd.approach, target, blocks, leaders, arm)
        case C.Move():
            blocks = resolve_all(s, seat, cmd.blocks)
            show = resolve(s, seat, cmd.show) if cmd.show else None
            plan = movement.check_move(s, seat, blocks, cmd.to, cmd.place, show, interp)
            if plan.kind != "forced":  # leaving an approach the enemy left is allowed at any step (§8)
                sequence.check_step(s, seat, "movement")
                sequence.enter_step(ctx, "movement")
            else:
                sequence.check_step(s, seat, "assaults" if s.step in ("start", "bombardment") else s.step)
            manoeuvre.begin(ctx, movement.do_move(ctx, plan))
        case C.RoadMove():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_road(s, seat, bid, cmd.road, list(cmd.path), interp)
            sequence.enter_step(ctx, "movement")
            manoeuvre.begin(ctx, movement.do_road(ctx, plan))
        case C.Enter():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_enter(s, seat, bid, cmd.entry, list(cmd.path), interp)
            sequence.enter_step(ctx, "movement")
            manoeuvre.begin(ctx, movement.do_road(ctx, plan))
        case C.Pontoon():
            sequence.check_step(s, seat, "movement")
            bid = resolve(s, seat, cmd.block)
            plan = movement.check_pontoon(s, seat, bid, interp)
            sequence.enter_step(ctx, "movement")
            movement.do_pontoon(ctx, plan)
        case C.Continue():
            if s.step not in ("assaults", "movement", "start", "bombardment"):
                raise Illegal(R.SEQUENCE, "continuation is part of a move or of a conquest")
            blocks = resolve_all(s, seat, cmd.blocks)
            fresh = s.group is None or not all(b in s.group.blocks for b in blocks)
            if fresh:  # a block that has not moved yet: a movement of this turn (§7 step 3)
                sequence.check_step(s, seat, "movement")
            plan = movement.check_continue(s, seat, blocks, cmd.approach, interp)
            if fresh:
                sequence.enter_step(ctx, "movement")
            movement.do_continue(ctx, plan)
        case C.DeclareBombardment():
            sequence.check_step(s, seat, "declare")
            bid = resolve(s, seat, cmd.block)
            approach = bombardment.check_declare(s, seat, bid, interp)
            sequence.enter_step(ctx, "declare")
            bombardment.do_declare(ctx, seat, bid, approach)
        case C.EndTurn():
            sequence.check_end(s, seat)
            sequence.do_end(ctx, seat, interp)


def _rule(text: str) -> Any:
    return Rule("marengo", text.split("§")[-1]) if "§" in text else R.SEQUENCE


RULESET = MarengoRuleset
__all__ = ["MarengoRuleset"]
