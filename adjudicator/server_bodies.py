"""The HTTP server's request bodies (adjudicator/server.py): what each endpoint reads, checked by pydantic before
its handler runs (docs/http-api.md; /openapi.json describes them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbitro.adjudicator.errors import BadInput

GAME_ID = Annotated[str, Field(min_length=1, max_length=200)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Body):
    ruleset: str = Field(examples=["marengo"])
    scenario: str | None = None
    options: list[str] = []
    position: dict[str, Any] | None = None
    transcribed: bool = False
    id: GAME_ID | None = None
    seat_entropy: bool = True
    provable_rolls: bool = Field(False, description=(
        "Key each roll on its own (arbitro-random/2), committed at creation, so that the umpire can prove one roll "
        "without revealing the seed (arbitro §R.5)."))


class Submission(Body):
    command: dict[str, Any] = Field(examples=[{"type": "end_turn"}])
    expected_seq: int | None = Field(None, ge=0, description=(
        "Refused (409) unless the game's head is this, as status gives it (a seat's: its last command's number)."))
    key: str | None = Field(None, min_length=1, max_length=200, description="Idempotency key, the seat's own.")
    signature: str | None = Field(None, max_length=200, description="The seat's Ed25519 signature (arbitro §L.6).")


class Entropy(Body):
    """One of the two: the commitment while the round awaits commitments, the entropy once it awaits reveals.
    Never send the entropy itself early: the server would know it before every seat has committed."""

    commitment: str | None = Field(None, min_length=64, max_length=64, description="SHA-256 hex of your entropy.")
    entropy: str | None = Field(None, min_length=1, max_length=1000, description="Your entropy, at the reveal.")

    def command(self) -> dict[str, Any]:
        if (self.commitment is None) == (self.entropy is None):
            raise BadInput("send your entropy's SHA-256 as `commitment` while the round awaits commitments, then "
                           "the entropy itself as `entropy` once it awaits reveals (arbitro §R.2); one of the two")
        if self.commitment is not None:
            return {"type": "commit_entropy", "commitment": self.commitment}
        return {"type": "reveal_entropy", "entropy": self.entropy}


class Undo(Body):
    to: int = Field(ge=0, description="An event of the log (the umpire), a command (a seat, as its log numbers them: "
                                      "engine-rules §V.6; 0, the creation).")
    reason: str = Field("", max_length=2000)


class Consent(Body):
    accept: bool


class Note(Body):
    at: int = Field(description="An event of the log (the umpire), a command (a seat, as its log numbers them: "
                                "engine-rules §V.6).")
    text: str = Field(max_length=10000)
    private: bool = False


class Fork(Body):
    at: int
    keep_dice: bool = False
    id: GAME_ID | None = None


class Reveal(Body):
    reason: str = Field("revealed by the umpire", min_length=1, max_length=2000)
    expose_hidden: bool = False  # arbitro §R.3: the umpire accepts that every seat learns every hidden fact so far


class Proof(Body):
    index: int = Field(ge=0, description="The random index of the roll or draw to prove (as `arbitro roll` shows it).")


class Ruling(Body):
    reason: str = Field(min_length=1, max_length=2000)
    interpretation: dict[str, str] | None = None
    patch: list[dict[str, Any]] | None = None


EVIDENCE = ('Typed references beyond events (arbitro §D.7): {"kind": "note", "note": N} (public note N; add '
            '"private": true for your own private note N, and the umpire "by": SEAT for that seat\'s), '
            '{"kind": "position", "at": N} (your view after N: a seat\'s command, the umpire\'s event; the umpire may '
            'add "seat"), {"kind": '
            '"readjudication", "readings": {NAME: READING}}, {"kind": "fork", "game": ID} (a fork of this game).')


class DisputeMessage(Body):
    text: str = Field(max_length=4000)
    private: bool = Field(False, description="The text and evidence are yours and the umpire's only (arbitro §D.4).")
    evidence: list[dict[str, Any]] = Field([], max_length=20, description=EVIDENCE,
                                           examples=[[{"kind": "note", "note": 1}, {"kind": "position", "at": 6}]])


class DisputeClaim(DisputeMessage):
    about: list[int] = Field(min_length=1, description="The commands disputed (a seat's numbers, engine-rules §V.6).")


class DisputeAnswer(DisputeMessage):
    cites: list[int] = Field([], description="The commands cited (a seat's numbers; the umpire's: events).")
    pause: bool = Field(False, description="The umpire's: play waits for the ruling (arbitro §D.3).")


class DisputeRuling(DisputeMessage):
    outcome: Literal["upheld", "dismissed"]
    undo_to: int | None = None
    interpretation: dict[str, str] = {}
    patch: list[dict[str, Any]] = []
    public_patch: bool = False


class Amendment(Body):
    at: int = Field(description="An event of the command to replace.")
    command: dict[str, Any] = Field(examples=[{"type": "end_turn"}])
    dispute: int | None = Field(None, description="The open dispute this amendment rules on.")
    reason: str = Field("", max_length=4000)
    id: GAME_ID | None = None


class SeatKey(Body):
    public_key: str = Field(max_length=200)


class Invitation(Body):
    seats: list[str] | None = Field(None, description="The roles to invite again (default: every seat and the umpire).")


class KeyWithdrawal(Body):
    reason: str = Field(min_length=3, max_length=4000, description="Why (served to every seat with the event).")
    key: str | None = Field(None, max_length=64, description=(
        "The key meant (public key or its 16-digit fingerprint): refused unless it is the one in force."))
