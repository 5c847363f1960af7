"""The events every game has, whatever its ruleset: creation, randomness, rulings, undo, checkpoints.

Ruleset events live in events/<ruleset>.py. All events are msgspec Structs tagged by "type"; names are
past participles. Citations of the engine's own rules use the prefix "arbitro" (see docs/engine-rules.md).
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar, Union

import msgspec

C = TypeVar("C")


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event (core and ruleset). Subclasses set `tag="snake_case_name"`."""


class GameCreated(Event, tag="game_created"):
    ruleset: str
    version: str
    scenario: str
    options: tuple[str, ...]
    kind: Literal["generated", "transcribed"]
    seats: tuple[str, ...]
    seed_commitment: str  # SHA-256 of the secret seed; the seed itself is revealed later
    data_hash: str  # SHA-256 over the ruleset's data files, so changed data is detected on verify
    origin: dict[str, Any]  # {"scenario": ...} | {"position": sha256} | {"fork": id, "at": seq, "hash": h}
    initial: dict[str, Any]  # the ruleset state the game starts from (its position)
    provisional: tuple[str, ...] = ()  # data the rulebook does not give, reconstructed
    initial_core: dict[str, Any] = {}  # a fork's dice position (rolls, mix) and interpretations
    # The seats whose committed entropy every roll waits for (arbitro §R.2); () = the server's seed alone.
    entropy_seats: tuple[str, ...] = ()
    # SHA-256 of the game's secret salt key (events.random: every salt and origin.position's digest derive from it,
    # revealed only at the game's end, arbitro §V.3). UNSET (never written): a game made before the salt key, its
    # salts derived from its seed; so its genesis, and every hash after it, are what they were.
    salt_key_commitment: str | msgspec.UnsetType = msgspec.UNSET
    # A game made with provable rolls (derivation arbitro-random/2, arbitro §R.5): the Merkle root over its per-roll
    # keys K_0 .. K_{roll_keys-1}, committed here, before any seat's entropy, so that one roll can be proven without
    # the seed. UNSET (never written): arbitro-random/1, every roll keyed by the seed itself, its genesis unchanged.
    roll_key_root: str | msgspec.UnsetType = msgspec.UNSET
    roll_keys: int | msgspec.UnsetType = msgspec.UNSET

    def salted_by_key(self) -> bool:
        """Whether the game's salts derive from a salt key of their own (else, an older game: from its seed)."""
        return self.salt_key_commitment is not msgspec.UNSET

    def provable(self) -> bool:
        """Whether the game's rolls are keyed one by one (arbitro-random/2), so that each can be proven (§R.5)."""
        return self.roll_key_root is not msgspec.UNSET


class EntropyAdded(Event, tag="entropy_added"):
    """A seat's own contribution to the dice: mixed into every later roll (arbitro §R.2)."""

    seat: str
    entropy: str
    mix: str  # the new mix: sha256(old mix + seat + entropy)


class EntropyRequested(Event, tag="entropy_requested"):
    """The seats' commit-reveal round (arbitro §R.2): nothing rolls until each seat named has revealed (or
    the umpire has ruled to proceed without it). `opening`: the scenario's opening waits for the round."""

    seats: tuple[str, ...]
    opening: bool
    rule: str


class EntropyCommitted(Event, tag="entropy_committed"):
    seat: str
    commitment: str  # SHA-256 (hex) of the UTF-8 entropy the seat will reveal


class EntropyRevealed(Event, tag="entropy_revealed"):
    seat: str
    entropy: str  # checked against the seat's commitment before it is accepted


class EntropyWaived(Event, tag="entropy_waived"):
    """The umpire's ruling: the round goes on without these seats (they never answered)."""

    seats: tuple[str, ...]
    reason: str
    rule: str


class EntropyMixed(Event, tag="entropy_mixed"):
    """The round is complete: the revealed entropy, in the order of `entropy_seats`, is mixed in."""

    seats: tuple[str, ...]  # the seats whose entropy was mixed in, in mixing order
    mix: str
    rule: str


class DiceRolled(Event, tag="dice_rolled"):
    index: int  # the game's random index this roll consumed
    count: int
    sides: int
    values: tuple[int, ...]
    purpose: str  # the rule and what is resolved: "caldiero §12.5 combat"
    detail: dict[str, str | int] = {}  # table, column, modifiers: "which column did that roll use?"
    source: Literal["seed", "entered"] = "seed"
    visible_to: tuple[str, ...] | None = None  # None: public
    # The map places (hexes, areas) whose pieces the roll concerns: a seat that may not examine one of them is
    # served the roll without its purpose and detail (arbitro §V.4; the ruleset decides what it may examine).
    about: tuple[str, ...] = ()


class ItemsDrawn(Event, tag="items_drawn"):
    """A draw without replacement (or a shuffle, when all items are drawn)."""

    index: int
    population: tuple[str, ...]
    drawn: tuple[str, ...]
    purpose: str
    source: Literal["seed", "entered"] = "seed"
    visible_to: tuple[str, ...] | None = None


class RandomRequested(Event, tag="random_requested"):
    """Transcribed game: the adjudicator needs a roll or draw the transcribing seat must enter."""

    seat: str  # who must enter it
    command_seat: str  # the seat whose command is suspended until then
    command: dict[str, Any]  # the suspended command, re-adjudicated once the values are entered
    kind: Literal["roll", "draw"]
    count: int
    sides: int = 0
    population: tuple[str, ...] = ()
    purpose: str = ""
    entered: tuple[tuple[str, ...], ...] = ()  # values entered so far for this command
    about: tuple[str, ...] = ()  # the places the roll concerns (as DiceRolled.about, arbitro §V.4)


class EnteredOnBehalf(Event, tag="entered_on_behalf"):
    """The events after this one, up to the command's end, answer a command `by` (the umpire) entered for `seat`
    in a transcribed game (arbitro §S.5): served to every seat, so none takes it for the seat's own sending."""

    by: str
    seat: str
    rule: str


class RollProven(Event, tag="roll_proven"):
    """The umpire's proof of one roll or draw of a provable game (arbitro §R.5): its key K_index and the Merkle path
    that ties it to the root the genesis committed to, from which anyone recomputes that roll and nothing else. The
    seed stays secret and the game rolls on. Served whole to the seats the roll's values were (`visible_to`)."""

    index: int  # the random index of the roll proven (public, as every roll's is: arbitro §V.4)
    key: str  # K_index, 64 hex digits
    path: tuple[str, ...]  # the siblings from the leaf up, each 64 hex digits
    rule: str
    visible_to: tuple[str, ...] | None = None  # the roll's: None, public


class SeedRevealed(Event, tag="seed_revealed"):
    seed: str
    reason: str


class SaltKeyRevealed(Event, tag="salt_key_revealed"):
    """The game's salt key, revealed at its end (arbitro §R.3) and never before, unlike the seed: from it anyone
    recomputes every salt and checks origin.position's digest against the file (arbitro §V.3)."""

    salt_key: str
    reason: str


class GameForked(Event, tag="game_forked"):
    """The umpire made game `child` from event `at` of this game (arbitro §R.3). A fork that keeps the dice
    replays this game's seed, which must already be revealed: no fork can show a roll this game will make."""

    child: str
    at: int
    hash: str  # this game's event hash at `at`, as the child's origin names it
    keep_dice: bool
    rule: str


class KeyRegistered(Event, tag="key_registered"):
    """`seat` registered its signing key (arbitro §L.6): its commands after this one (the registering command's number
    is the registration's `since_cmd`) are accepted only signed with it. Served to every seat: a public key is public."""

    seat: str
    public_key: str
    rule: str


class KeyWithdrawn(Event, tag="key_withdrawn"):
    """The umpire withdrew `seat`'s signing key (arbitro §L.6): the key, whole (a signature of the commands it covered
    is checked under it once the registration is gone), and the commands it covered, `first_cmd` to `last_cmd` (command
    numbers, public: engine-rules §V.6). From the next command the seat is unsigned until it registers a new key."""

    seat: str
    public_key: str
    first_cmd: int
    last_cmd: int
    reason: str
    rule: str


class RulingMade(Event, tag="ruling_made"):
    """The umpire's ruling: a stated reason, and a state change and/or an interpretation chosen."""

    reason: str
    patch: tuple[dict[str, Any], ...] = ()  # JSON-pointer operations on the ruleset state
    interpretation: dict[str, str] = {}  # name -> chosen reading
    public_patch: bool = False  # whether the players may see the patch itself (the reason always)


# --- disputes (arbitro §D): settled from the log, each step an event on the chain -----------------------------
class _Evidence(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", forbid_unknown_fields=True):
    """A reference a dispute's message rests on, beyond the events it cites (arbitro §D.7): each reader resolves it
    with its own served tools, so the reference itself names nothing hidden."""


class NoteEvidence(_Evidence, tag="note"):
    """An annotation of this game (its chained note): `hash` binds the reference to the note's text. A seat cites a
    note by its command, and without its hash, which covers the log's number of its event (engine-rules §V.6): `seq`
    is then that command's last event, and `hash` empty (the note is its chain's `note`)."""

    note: int  # the note's number in its chain
    seq: int  # the event it is written on (a seat's citation: its command's last event)
    by: str  # its writer
    private: bool  # a private note is cited in a private message only
    hash: str


class PositionEvidence(_Evidence, tag="position"):
    """The position after event `at` as `seat` was served it (`arbitro view GAME --as SEAT --at AT`); the umpire's
    is the whole state. A playing seat cites its own only."""

    at: int
    seat: str


class ReadjudicationEvidence(_Evidence, tag="readjudication"):
    """The game judged again with `readings` in force (`arbitro readjudicate GAME --ruling NAME=READING`)."""

    readings: dict[str, str]


class ForkEvidence(_Evidence, tag="fork"):
    """A game forked from this one (its `game_forked` is in this log): an amendment's, or the umpire's branch."""

    game: str


Evidence = Union[NoteEvidence, PositionEvidence, ReadjudicationEvidence, ForkEvidence]
# UNSET when a message cites no such evidence: the field is then not encoded, so a message without evidence keeps
# the bytes it had before evidence existed (games with disputes recorded earlier still verify).
NoEvidence = msgspec.UnsetType


class DisputeOpened(Event, tag="dispute_opened"):
    """Seat `by` disputes what events `about` record (arbitro §D.1). `private`: its `text` is served to its writer
    and the umpire only (a claim may tell what only its writer knows); the rest is served to every seat."""

    dispute: int  # the dispute's number in this game: 1, 2, ...
    rule: str
    by: str
    about: tuple[int, ...]  # the events disputed (sequence numbers; a seat's: the last event of each command it named)
    text: str
    private: bool = False
    evidence: tuple[Evidence, ...] | NoEvidence = msgspec.UNSET


class DisputeReplied(Event, tag="dispute_replied"):
    """An answer, or evidence, in an open dispute (arbitro §D.2): `cites` names the events it rests on; `private`
    as in DisputeOpened (the text and the citations are then its writer's and the umpire's)."""

    dispute: int
    rule: str
    by: str
    text: str
    cites: tuple[int, ...] = ()
    private: bool = False
    evidence: tuple[Evidence, ...] | NoEvidence = msgspec.UNSET


class DisputeRuled(Event, tag="dispute_ruled"):
    """The umpire's ruling, which closes the dispute (arbitro §D.3): upheld (with the ruling or undo in the same
    command's events before it, if any), dismissed (no change), or amended (the game `fork` replays the log with
    a command replaced, arbitro §D.5). The outcome is served to every seat; a `private` text to the umpire only."""

    dispute: int
    rule: str
    outcome: Literal["upheld", "dismissed", "amended"]
    text: str
    private: bool = False
    fork: str = ""  # amended: the game the amendment made
    evidence: tuple[Evidence, ...] | NoEvidence = msgspec.UNSET


DISPUTE_EVENTS = (DisputeOpened, DisputeReplied, DisputeRuled)


class UndoRequested(Event, tag="undo_requested"):
    seat: str
    to_seq: int
    consent_from: tuple[str, ...]
    rule: str


class UndoAnswered(Event, tag="undo_answered"):
    seat: str
    accept: bool


class UndoDeclined(Event, tag="undo_declined"):
    seat: str
    rule: str


class Undone(Event, tag="undone"):
    """Voids every event after `to_seq` (they stay in the log, marked void in audits)."""

    to_seq: int
    by: str
    reason: str
    rule: str
    # The rolls and draws this undo voids (their random indices): the same commands played again draw new
    # dice, so an undo after a roll is a re-roll in effect, and says so (arbitro §U).
    voided_rolls: int = 0
    voided_indices: tuple[int, ...] = ()


# --- the one decision mechanism (arbitro §S.3) -------------------------------------------------------------
class FrameContext(msgspec.Struct, frozen=True, kw_only=True, tag_field="ctx", forbid_unknown_fields=True):
    """Base of a decision frame's typed context. Whoever opens a frame (the engine, or a ruleset) declares its
    context as a subclass with its own `tag=`; a ruleset lists its contexts in `RulesetProjection.Contexts`."""


class Frame(msgspec.Struct, Generic[C], frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One pending decision on the stack (`CoreState.decisions`): which step (`kind`) awaits which seats, the
    rule that asks, the prompt, and the step's typed context. The top frame is the one awaited."""

    kind: str  # the step that answers it: an engine step ("consent", "random", "entropy") or a ruleset's
    seats: tuple[str, ...]  # who must answer (in order; all of them for a round such as the entropy round)
    rule: str
    prompt: str
    ctx: C


class DecisionOpened(Event, Generic[C], tag="decision_opened"):
    """A frame pushed on the decision stack: `frame.seats` must answer it before anything else happens."""

    frame: Frame[C]


class DecisionRevised(Event, Generic[C], tag="decision_revised"):
    """The top frame's context after an answer that does not close it (who is still awaited, and for what)."""

    kind: str  # the top frame's kind (checked by the fold: an update never changes which step is awaited)
    seats: tuple[str, ...]
    prompt: str
    ctx: C


class DecisionResolved(Event, tag="decision_resolved"):
    """The top frame popped: the decision it awaited is answered (or withdrawn)."""

    kind: str
    rule: str


# The engine's own steps' contexts (adjudicator/engine_steps.py answers them).
class UndoConsent(FrameContext, tag="undo_consent"):
    """Another seat asked to take back everything after event `undo_to`, the last of command `undo_cmd`, the number the
    seat sent (arbitro §U.2); a seat is served the command's alone (engine-rules §V.6; None: asked before it was kept,
    views.redact_frame)."""

    undo_to: int
    requested_by: str
    undo_cmd: int | None = None
    accepted: tuple[str, ...] = ()  # the seats that consented so far


class RandomEntry(FrameContext, tag="random_entry"):
    """A transcribed game's roll or draw to enter (arbitro §R.4), and the command suspended until then."""

    command_seat: str  # the seat whose command waits
    command: str  # the suspended command in its stored form, as canonical JSON ({"type": "open_scenario"}: the opening)
    kind: Literal["roll", "draw"]
    count: int
    sides: int = 0
    population: tuple[str, ...] = ()
    purpose: str = ""
    entered: tuple[tuple[str, ...], ...] = ()  # values entered so far for this command
    about: tuple[str, ...] = ()  # the places the roll concerns (arbitro §V.4)


class EntropyRound(FrameContext, tag="entropy_round"):
    """The seats' commit-reveal round (arbitro §R.2): every required seat commits, then each reveals."""

    phase: Literal["commit", "reveal"]
    required: tuple[str, ...]  # the seats whose entropy is awaited (the umpire may waive one)
    commitments: dict[str, str] = {}  # seat -> SHA-256 hex of its entropy
    entropies: dict[str, str] = {}  # seat -> revealed entropy
    opening: bool = False  # whether the scenario's opening waits for the round


class DisputePause(FrameContext, tag="dispute_pause"):
    """The umpire paused play for dispute `dispute` (arbitro §D.3): nothing but the dispute goes on until the ruling."""

    dispute: int


EngineContext = Union[UndoConsent, RandomEntry, EntropyRound, DisputePause]
ENGINE_CONTEXTS: tuple[type[FrameContext], ...] = EngineContext.__args__  # type: ignore[attr-defined]


class Checkpoint(Event, tag="checkpoint"):
    """The state hash before this event: a replay elsewhere proves it reached the same state."""

    state_hash: str
    reason: str

    def counted(self) -> bool:
        """Made only because the log's count of events since the last checkpoint reached the engine's window
        (`periodic_reason`), not by an event every seat sees (a ruleset's mark, the game's end)."""
        words = self.reason.split()
        return len(words) == 3 and words[1].isdigit() and self.reason == periodic_reason(int(words[1]))


def periodic_reason(every: int) -> str:
    """The reason the engine gives a checkpoint made every `every` events (adjudicator/engine.py)."""
    return f"every {every} events"


CoreEvent = Union[
    GameCreated,
    EntropyAdded,
    EntropyRequested,
    EntropyCommitted,
    EntropyRevealed,
    EntropyWaived,
    EntropyMixed,
    DiceRolled,
    ItemsDrawn,
    RandomRequested,
    EnteredOnBehalf,
    RollProven,
    SeedRevealed,
    SaltKeyRevealed,
    GameForked,
    KeyRegistered,
    KeyWithdrawn,
    RulingMade,
    DisputeOpened,
    DisputeReplied,
    DisputeRuled,
    UndoRequested,
    UndoAnswered,
    UndoDeclined,
    Undone,
    DecisionOpened,
    DecisionRevised,
    DecisionResolved,
    Checkpoint,
]
CORE_EVENT_TYPES: tuple[type[Event], ...] = CoreEvent.__args__  # type: ignore[attr-defined]

# Events after which a seat's own command can no longer be taken back freely (arbitro §U.1).
IRREVERSIBLE_CORE = (DiceRolled, ItemsDrawn, SeedRevealed, EntropyRevealed, EntropyWaived, EntropyMixed)
