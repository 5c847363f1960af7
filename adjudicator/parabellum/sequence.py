"""The sequence of play both books share (caldiero §3, arrivano §3.1): after every command the game runs what needs
no choice (`settle`), and the action phase's loop (caldiero §6.2, arrivano §6.1): after each activation the
initiative is rolled again while formations remain to be activated; with none left the turn goes to its end phase.

The loop and the roll are parabellum/initiative.py's, `settle` is parabellum/act.py's (both ask the game's ruleset
what differs, parabellum/act.Game). The steps a seat acts in are one table per game (`Steps`): where a command is
carried out, a step listed for legal() and ended.

A step a seat acts in ends when its seat says so (`end_step`) or, by itself, once he has nothing left to do in it
(`NOTHING_LEFT`): one behaviour for every step of both games, but for a step whose options hang on pieces the enemy
may not examine while the fog of war is in force (`UNSEEN_WAITS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum import sight
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule, naming
from arbitro.events.parabellum import StepBegan

Refusal = tuple[Rule, str]  # why a command is refused: the rule it breaks and the words (`refuse(*why)`)


def refuse(rule: Rule | str, message: str) -> NoReturn:
    """Refuse the command, citing `rule` (the engine's refusal, as `Decision.reject` raises it): the one way a
    procedure or a check of either game refuses, with or without a decision under way."""
    raise IllegalCommand(message, rule=str(rule))


class Emits(Protocol):
    """A game's procedure context as the sequence asks it: where the events of a step's beginning go."""

    def emit(self, event: Any) -> None:
        ...


G = TypeVar("G", bound=Emits)  # a game's procedure context (caldiero's Act, arrivano's Game): what a step's commands are carried out on
W = TypeVar("W", bound=World)  # a game's read model of the position: what a step's commands are listed from

END_STEP = "end_step"
"""The one command that ends a step of the sequence in both games (caldiero §3.1, arrivano §3.1): the seat is done
with it. Arrivano's games up to 1.27.0 sent it as `next` (in the activation's steps) and `end_orders` (the orders
sub-phase), read until 1.30.0; Caldiero's always as `end_step`."""

CHOOSE_ACTIVATION = "choose_activation"
"""The step in which the initiative's winner chooses the next activation (caldiero §6.2, arrivano §6.1), in both
games (Caldiero's games up to 0.25.0 named it `choose_formation`)."""


NOTHING_LEFT = ("caldiero §3.1, arrivano §3.1: \"Ognuna delle seguenti fasi deve essere risolta nell'esatto "
                "ordine indicato\"; each step's acts are ones the seat \"può\" make (caldiero §9.0, arrivano §9: "
                "\"può muovere tutte, alcune, o nessuna delle sue unità\"; §11.4 \"può effettuare il "
                "bombardamento\")")
"""The kernel's reading of when a step of the sequence is over, for both games: when its seat says so (`end_step`)
or has nothing left he may do in it and owes nothing (an obligation, `Step.end_problem`, keeps it open). A step
the seat could only end is resolved by ending it: waiting for an `end_step` would ask a choice where there is none.
Caldiero always read it so; Arrivano waited for `end_step` in an activation's steps up to 1.30.0 and does again since
1.33.0, where the fog of war makes them wait (`UNSEEN_WAITS`)."""


UNSEEN_WAITS = ("caldiero §20.4, arrivano §11.3.2: \"si può esaminare uno stack nemico solo se si ha una LoS\"")
"""The exception to `NOTHING_LEFT` under the fog of war (Arrivano always, Caldiero under its optional rule): a step
whose options hang on the seat's pieces the enemy may not examine (`Step.unseen`: which units may still move, fire
or assault) waits for its seat's `end_step` even with nothing left. Ending it by itself would tell the enemy, by the
step's end coming sooner or later (and by the count of the seat's commands), whether an unseen unit can still act.
A step whose options the enemy can know still ends by itself; each game's table says which of its rows are marked and
why (Caldiero since 0.34.0 every row a command ends; Arrivano its bombardment, movement and combat, and since 1.38.0
its orders sub-phase)."""


OVER = "over"
"""The step (and phase) of a game that has ended (caldiero §18, arrivano §17.1.8)."""


def _free(w: Any, seat: str) -> Refusal | None:
    return None


def _no_commands(w: Any, seat: str) -> Iterable[dict[str, Any]]:
    return ()


@dataclass(frozen=True)
class Step(Generic[G, W]):
    """One step of the sequence of play in which a seat acts (the orders sub-phase, the choice of the next
    activation, an activation's movement...): what it takes, what it lists, how it ends. `rule`: what a refusal in
    it cites; `takes`: each command type it accepts, with its handler (game, seat, command), which checks the
    command and carries it out; `lister`: the step's commands other than `end_step` for a seat, in legal()'s order,
    as they are found (built from the same checks the handlers make, so a listed command is accepted). How it ends,
    as data where the sequence is only a next step: `seats`, the seats acting in it one after the other (caldiero
    §3.1 A: France, then Austria), `end_step` of any but the last beginning the same step for the next; `then`, the
    row of the table that begins next (for its first seat if it names them, else the same seat); `advance`, what
    else ending the step does, after `then` began (a step of a game's own, the automatic weather or initiative; what
    the next step's beginning sets off: Arrivano's fatigue tests). A step none of the three ends is not ended by a
    command: it ends when its choice is made (the next activation's). `end_problem`: what keeps `end_step` out now
    (an obligation still owed), asked before the step ends and by the listing (a step a command ends ends by
    itself, without one, when the lister finds nothing and nothing is owed: `NOTHING_LEFT`); `first`: the lister's commands in any order, where sorting them costs the whole listing (asked whether there is
    one); `of_piece`: the lister's commands naming one piece, in its order, worked out for that piece alone (legal(seat,
    piece=...), issue 15); `unseen`: what the step offers hangs on pieces the enemy may not examine, so under the fog of war it waits
    for `end_step` (`UNSEEN_WAITS`); `phase`, `name`: the phase it belongs to and the step's name as the state shows it (`step`), where the
    table's key is not (Caldiero's action-phase `orders` is the row `activation_orders`): what a refusal names;
    `begins`: what its beginning cites where that is not `rule` (Caldiero's activation begins with §3.1 B, its orders
    refused by §5.2); `closing`: what ending it does for its seat before the next step begins (an activation ended).
    `run`: an automatic step (the weather, the initiative): no seat acts in it; `settle` carries it out as it comes,
    then `then` begins. `seats` may be a function of the game where the order of the seats varies (Arrivano's orders
    sub-phase: the scenario's first, arrivano §5.2; an activated HQ's alone, §16.1)."""

    rule: Rule
    takes: Mapping[str, Callable[[G, str, Any], None]]
    lister: Callable[[W, str], Iterable[dict[str, Any]]] = _no_commands
    advance: Callable[[G, str], None] | None = None
    end_problem: Callable[[W, str], Refusal | None] = field(default=_free)
    first: Callable[[W, str], Iterable[dict[str, Any]]] | None = None
    of_piece: Callable[[W, str, str], Iterable[dict[str, Any]]] | None = None
    unseen: bool = False
    phase: str = ""
    name: str = ""
    then: str = ""
    seats: tuple[str, ...] | Callable[[G], tuple[str, ...]] = ()
    begins: Rule | None = None
    closing: Callable[[G, str], None] | None = None
    run: Callable[[G, str], None] | None = None

    @property
    def ended(self) -> bool:
        """Whether a command (`end_step`) ends the step (never an automatic one's)."""
        return self.run is None and (self.advance is not None or bool(self.then) or bool(self.seats))

    def acting(self, game: G) -> tuple[str, ...]:
        """The seats acting in the step one after the other, in the game as it stands."""
        return self.seats(game) if callable(self.seats) else self.seats


class Steps(Generic[G, W]):
    """A game's steps of play, one table: the one place where a command is dispatched, a step is listed and a step
    is ended. `sequence`: what a command cites where no step of the table is under way (caldiero §3, arrivano §3.1)."""

    def __init__(self, rows: Mapping[str, Step[G, W]], sequence: Rule) -> None:
        self.rows, self.sequence = rows, sequence
        unknown = {row.then for row in rows.values() if row.then and row.then not in rows}
        assert not unknown, f"a step begins a step the table does not have: {sorted(unknown)}"

    def begin(self, step: str, game: G, seat: str | None = None, rule: Rule | None = None) -> None:
        """`step` of the table begins for `seat` (None: the first of its `seats`, nobody's where it names none): its
        phase, the name the state shows, what its beginning cites (`rule`: where a game's own procedure begins it,
        Caldiero's first turn, §21.2)."""
        row = self.rows[step]
        if seat is None:
            seat = next(iter(row.acting(game)), "")
        game.emit(StepBegan(phase=row.phase, step=row.name or step, seat=seat, rule=str(rule or row.begins or row.rule)))

    def names(self, *automatic: str) -> frozenset[str]:
        """Every step a game's state may be at: the table's, by the names the state shows, with the game's `automatic`
        steps the table does not hold (run where they begin, no seat acting) and the end of the game (`over`)."""
        return frozenset({row.name or key for key, row in self.rows.items()} | {*automatic, OVER})

    def settle(self, step: str, game: G, w: W, seat: str) -> bool:
        """Carry out `step` if it needs no choice (the kernel's `Automatic.settle_step`): an automatic row's `run`,
        then its `then` begins; or a step that `ends_by_itself`, ended. False: its seat acts."""
        row = self.rows.get(step)
        if row is not None and row.run is not None:
            row.run(game, seat)
            if row.then:
                self.begin(row.then, game)
            return True
        if not self.ends_by_itself(step, w, seat):
            return False
        self.end(step, game, seat)
        return True

    def takes(self, step: str) -> list[str]:
        """The command types `step` takes, `end_step` last when a command ends it (for a refusal's wording)."""
        row = self.rows.get(step)
        if row is None:
            return []
        return [*row.takes, *([END_STEP] if row.ended else [])]

    def legal(self, step: str, w: W, seat: str) -> list[dict[str, Any]]:
        """The commands `seat` may give in `step` (legal()): the step's listing, then `end_step` if nothing keeps
        it out."""
        row = self.rows.get(step)
        if row is None:
            return []
        out = list(row.lister(w, seat))
        if row.ended and row.end_problem(w, seat) is None:
            out.append({"type": END_STEP})
        return out

    def legal_of(self, step: str, w: W, seat: str, piece: str) -> list[dict[str, Any]]:
        """`legal`'s commands naming `piece` (`ruleset.pieces_named`; never `end_step`), in its order: the step's
        `of_piece` where it works them out for that piece alone (issue 15: one unit's destinations, not every unit's),
        else its listing's."""
        row = self.rows.get(step)
        if row is None:
            return []
        return list(row.of_piece(w, seat, piece)) if row.of_piece is not None else naming(row.lister(w, seat), piece)

    def has_options(self, step: str, w: W, seat: str) -> bool:
        """Whether `step` offers `seat` anything but `end_step`: its listing, stopped at the first command found."""
        row = self.rows.get(step)
        return row is not None and next(iter((row.first or row.lister)(w, seat)), None) is not None

    def ends_by_itself(self, step: str, w: W, seat: str) -> bool:
        """Whether `step` ends now without its seat's command (`NOTHING_LEFT`): a command ends it, it offers nothing
        and nothing is owed (settle); under the fog of war, not a step whose options the enemy may not know
        (`UNSEEN_WAITS`)."""
        row = self.rows.get(step)
        return row is not None and row.ended and \
            not (row.unseen and sight.fog_in_force(w.variant.fog_option, w.option)) and \
            not self.has_options(step, w, seat) and row.end_problem(w, seat) is None

    def decide(self, step: str, game: G, w: W, seat: str, command: Any) -> None:
        """Carry out `command` of `seat` in `step`: its handler, or `end_step` (refused while `end_problem` holds),
        or the game's refusal of a command the step does not take."""
        row = self.rows.get(step)
        if row is not None and command.type == END_STEP and row.ended:
            problem = row.end_problem(w, seat)
            if problem is not None:
                refuse(*problem)
            self.end(step, game, seat)
            return
        handler = row.takes.get(command.type) if row is not None else None
        if handler is None:
            refuse(*self.not_now(step, w, command))
        handler(game, seat, command)

    def not_now(self, step: str, w: W, command: Any) -> Refusal:
        """The refusal of a command `step` does not take: what the step takes, from whom, and every step the command
        is given in (citing the one in the phase under way, else the first), or that it answers a decision and none
        is pending (citing the sequence). Once the set-up is over its step is never named: it does not come again."""
        state, row = w.state, self.rows.get(step)
        now = (f"{command.type} is not possible now: the {state.phase} phase is at step '{state.step}', which takes "
               f"{', '.join(self.takes(step)) or 'nothing'} from {state.seat or 'nobody'}")
        if command.type == END_STEP:
            return (row.rule if row is not None else self.sequence), now
        homes = [(key, other) for key, other in self.rows.items() if command.type in other.takes
                 and (other.phase != "setup" or state.phase == "setup")]
        if not homes:
            return self.sequence, f"{now}; {command.type} answers a pending decision, and none is pending"
        cited = next((other for _, other in homes if other.phase == state.phase), homes[0][1])
        where = " or ".join(f"the {_step_name(key, other, state.phase)} step ({other.rule})" for key, other in homes)
        return cited.rule, f"{now}; {command.type} is given in {where}"

    def end(self, step: str, game: G, seat: str) -> None:
        """End `step` for its seat (`end_step`, or it `ends_by_itself`): its `closing`, then the same step for the
        next of its `seats`, else the row it names `then` begins, then its `advance` runs."""
        row = self.rows[step]
        assert row.ended, f"step {step} is not ended by a command"
        if row.closing is not None:
            row.closing(game, seat)
        seats = row.acting(game)
        if seat in seats[:-1]:
            self.begin(step, game, seats[seats.index(seat) + 1])
            return
        if row.then:
            after = self.rows[row.then]
            self.begin(row.then, game, None if after.seats or after.run else seat)
        if row.advance is not None:
            row.advance(game, seat)


def _step_name(key: str, row: Step[Any, Any], phase: str) -> str:
    """A step as a refusal names it, by the name the state shows, with its phase where that is not `phase` (the one
    under way): Caldiero's `orders` is a step of both its command and its action phase."""
    name = row.name or key
    return f"{row.phase} phase's {name}" if row.phase not in ("", phase, name) else name
