"""The engine's own commands, available in every game whatever its ruleset (docs/engine-rules.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AddEntropy(_Command):
    """A seat mixes its own entropy into every later roll (arbitro §R.2)."""

    type: Literal["add_entropy"]
    entropy: Annotated[str, Field(min_length=1, max_length=256)]


class CommitEntropy(_Command):
    """A seat's commitment to its entropy: SHA-256 (hex) of the entropy's UTF-8 bytes (arbitro §R.2)."""

    type: Literal["commit_entropy"]
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class RevealEntropy(_Command):
    """A seat reveals the entropy it committed to, once every seat has committed (arbitro §R.2)."""

    type: Literal["reveal_entropy"]
    entropy: Annotated[str, Field(min_length=1, max_length=256)]


class ProceedWithoutEntropy(_Command):
    """The umpire's ruling: the seats named never answered; the round goes on without them (arbitro §R.2)."""

    type: Literal["proceed_without_entropy"]
    seats: Annotated[list[str], Field(min_length=1)]
    reason: Annotated[str, Field(min_length=3)]


class Undo(_Command):
    """Take back everything after event `to` (the umpire) or command `to` (a seat: engine-rules §V.6; 0, its creation)
    (arbitro §U)."""

    type: Literal["undo"]
    to: Annotated[int, Field(ge=0)]
    reason: str = ""


class Consent(_Command):
    """Answer another seat's request to take back (arbitro §U.2)."""

    type: Literal["consent"]
    accept: bool


class EnterRandom(_Command):
    """Transcribed games: the roll or draw made on the table (arbitro §R.4)."""

    type: Literal["enter_random"]
    values: Annotated[list[Union[int, str]], Field(min_length=1)]


class OnBehalf(_Command):
    """Transcribed games: the umpire enters a seat's command as it was played on the table (arbitro §S.5);
    judged as that seat's, recorded as the umpire's."""

    type: Literal["on_behalf"]
    seat: Annotated[str, Field(min_length=1)]
    command: dict[str, Any]


class PatchOperation(_Command):
    op: Literal["replace", "add", "remove"]
    path: Annotated[str, Field(pattern=r"^/")]
    value: Any = None


class Ruling(_Command):
    """The umpire's ruling: a reason, and a state change and/or an interpretation (arbitro §U.4)."""

    type: Literal["ruling"]
    reason: Annotated[str, Field(min_length=3)]
    patch: list[PatchOperation] = []
    interpretation: dict[str, str] = {}
    public_patch: bool = False


class RevealSeed(_Command):
    """The umpire reveals the dice seed (a dispute, or the end of play) (arbitro §R.3)."""

    type: Literal["reveal_seed"]
    reason: Annotated[str, Field(min_length=3)]
    # Before the game's end a reveal hands every seat every roll and draw so far, hidden ones included, and in a game
    # made before the salt key (events.random: salted by its seed) every hidden fact served so far, each served hash
    # becoming a test of guesses (arbitro §R.3, §V.3; rev-o O1, rev-p). The umpire says so (adjudicator/reveal.py).
    expose_hidden: bool = False


class ProveRoll(_Command):
    """The umpire proves one roll or draw of a provable game by its random index (arbitro §R.5). `key` and `path`
    (K_index and its Merkle path) are filled in by the server from the seed it holds and stored with the command,
    so that verification judges the proof again without the seed."""

    type: Literal["prove_roll"]
    index: Annotated[int, Field(ge=0)]
    key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    path: list[Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]] = Field([], max_length=32)


class RecordFork(_Command):
    """The umpire's fork, recorded in the parent's log by `arbitro fork` (arbitro §R.3): which game was made
    from which event, and whether it replays this game's (revealed) dice."""

    type: Literal["fork"]
    child: Annotated[str, Field(min_length=1, max_length=128)]
    at: Annotated[int, Field(ge=1)]
    hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    keep_dice: bool = False


class RegisterKey(_Command):
    """A playing seat registers its own Ed25519 public key (arbitro §L.6): its commands after this one are accepted
    only signed with the private half, which never reaches the server. Judged by the engine; a chained event."""

    type: Literal["register_key"]
    public_key: Annotated[str, Field(pattern=r"^[0-9a-fA-F]{64}$")]


class WithdrawKey(_Command):
    """The umpire withdraws `seat`'s signing key (arbitro §L.6): `key` names it (the public key or its fingerprint;
    optional: the key in force). The server fills in the key whole and the commands it covered (`first_cmd` to
    `last_cmd`) from the registration it holds, so that the stored command says what was withdrawn and verification
    judges it again without the registration."""

    type: Literal["withdraw_key"]
    seat: Annotated[str, Field(min_length=1, max_length=64)]
    reason: Annotated[str, Field(min_length=3, max_length=4000)]
    key: Annotated[str, Field(pattern=r"^([0-9a-fA-F]{16}|[0-9a-fA-F]{64})?$")] = ""
    first_cmd: Annotated[int, Field(ge=1)] | None = None
    last_cmd: Annotated[int, Field(ge=0)] | None = None


Seq = Annotated[int, Field(ge=1)]
# A point of the log as its sender numbers it (engine-rules §V.6): the umpire's an event (#1 on; log_points.Points
# refuses its 0), a seat's a command (#0 the game's creation).
Point = Annotated[int, Field(ge=0)]
Text = Annotated[str, Field(min_length=3, max_length=4000)]


class NoteCited(_Command):
    """An annotation of this game, cited as the citing seat reads it (arbitro §D.7): its number in its chain, where
    it lies, its writer, whether private, and (the umpire's) its hash. Where it lies is in the sender's numbers: the
    umpire's the note's event, with the hash that binds its text; a seat's the command the note is on, and no hash (a
    note's hash covers the log's number of its event, which a seat is never told: it reads its notes without their
    digests, seat_numbers.noted, and the note's chain binds its text). `arbitro dispute ... --note N` and the HTTP
    endpoints fill these in from the number; the service refuses a reference that does not match a note the citing
    seat may read, as it reads it (admission.cited_notes)."""

    kind: Literal["note"]
    note: Seq
    seq: Point
    by: Annotated[str, Field(min_length=1, max_length=64)]
    private: bool
    hash: Annotated[str, Field(pattern=r"^([0-9a-f]{64})?$")] = ""


class PositionCited(_Command):
    """The position after event `at` (a seat's: after command `at`) as `seat` was served it (default: the citing
    seat's own; arbitro §D.7)."""

    kind: Literal["position"]
    at: Point
    seat: Annotated[str, Field(max_length=64)] = ""


class ReadjudicationCited(_Command):
    """The game judged again with these readings in force (`arbitro readjudicate --ruling`, arbitro §D.7)."""

    kind: Literal["readjudication"]
    readings: Annotated[dict[str, str], Field(min_length=1, max_length=20)]


class ForkCited(_Command):
    """A game forked from this one, its `game_forked` in this log (an amendment's, arbitro §D.7)."""

    kind: Literal["fork"]
    game: Annotated[str, Field(min_length=1, max_length=128)]


EvidenceCited = Annotated[Union[NoteCited, PositionCited, ReadjudicationCited, ForkCited], Field(discriminator="kind")]
Evidence = Annotated[list[EvidenceCited], Field(max_length=20)]


class OpenDispute(_Command):
    """A seat disputes what commands `about` made (arbitro §D.1: a seat's numbers are its commands', engine-rules
    §V.6); `private`: its text is the umpire's only."""

    type: Literal["dispute_open"]
    about: Annotated[list[Point], Field(min_length=1, max_length=50)]
    text: Text
    private: bool = False
    evidence: Evidence = []


class ReplyDispute(_Command):
    """An answer, or evidence citing events (the umpire's numbers) or commands (a seat's), in an open dispute
    (arbitro §D.2)."""

    type: Literal["dispute_reply"]
    dispute: Seq
    text: Text
    cites: Annotated[list[Point], Field(max_length=50)] = []
    private: bool = False
    evidence: Evidence = []
    pause: bool = False  # the umpire's: play waits for the ruling (arbitro §D.3)


class RuleDispute(_Command):
    """The umpire closes a dispute (arbitro §D.3): upheld (with at most one effect: an undo to an event, or a
    ruling's patch and/or interpretation), dismissed (no change), or amended (`fork`: recorded by `arbitro amend`)."""

    type: Literal["dispute_rule"]
    dispute: Seq
    outcome: Literal["upheld", "dismissed", "amended"]
    text: Text
    private: bool = False
    undo_to: Annotated[int, Field(ge=1)] | None = None
    patch: list[PatchOperation] = []
    interpretation: dict[str, str] = {}
    public_patch: bool = False
    fork: Annotated[str, Field(max_length=128)] = ""
    evidence: Evidence = []


CoreCommand = Annotated[
    Union[AddEntropy, CommitEntropy, RevealEntropy, ProceedWithoutEntropy, Undo, Consent, EnterRandom, OnBehalf,
          Ruling, RevealSeed, ProveRoll, RecordFork, RegisterKey, WithdrawKey, OpenDispute, ReplyDispute, RuleDispute],
    Field(discriminator="type"),
]
CORE_COMMAND_TYPES = ("add_entropy", "commit_entropy", "reveal_entropy", "proceed_without_entropy", "undo", "consent",
                      "enter_random", "on_behalf", "ruling", "reveal_seed", "prove_roll", "fork", "register_key",
                      "withdraw_key", "dispute_open", "dispute_reply", "dispute_rule")
core_commands: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(CoreCommand)
