"""The application's key, receipt and token calls (`Arbitro` inherits them): a seat's own signing key (arbitro §L.6),
the server's signed receipts and its public key (§L.4), and the bearer tokens of the HTTP server's seats and umpire
(issue 12). Who may send in a seat's name, and what proves what was sent: the authority over a game's commands, kept
apart from playing and reading it.

They read the game through `Arbitro`'s own calls (game, check_seat, `_end_of`) and its store, which is why they live
in a base class and not in free functions.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from arbitro.adjudicator.admission import sign_receipt
from arbitro.adjudicator.errors import BadInput, NotFound
from arbitro.adjudicator.results import SubmitResult
from arbitro.events import signing
from arbitro.events.codec import sha256_hex
from arbitro.events.records import GENESIS, GameRecord, StoredCommand
from arbitro.projections.base import UMPIRE


class KeyCalls:
    """A seat's signing key, the server's receipts and key, and the bearer tokens that grant a seat or the umpire."""

    def register_key(self, game_id: str, seat: str, public_key: str) -> dict[str, Any]:
        """Register `seat`'s own Ed25519 public key (arbitro §L.6): the seat's command `register_key`, judged by the
        engine (signing_keys.register_key), whose chained event `key_registered` is served to every seat. From the next
        command the game accepts that seat's commands only signed with the private half, which the host never holds,
        so no command in the seat's name can be made up or altered by anyone else, the host included. `since_cmd`:
        the registering command's number (the last command the seat did not sign)."""
        self.check_seat(self.game(game_id), seat)
        try:
            checked = signing.check_public_key(public_key)
        except signing.BadKey as e:
            raise BadInput(f"{seat}'s key: {e}") from None
        result = self.submit(game_id, seat, {"type": "register_key", "public_key": checked})  # type: ignore[attr-defined]
        return {"game": game_id, "seat": seat, "public_key": checked, "since_cmd": result.cmd}

    def withdraw_key(self, game_id: str, seat: str, reason: str, *, key: str | None = None,
                     by: str = UMPIRE) -> SubmitResult:
        """The umpire withdraws `seat`'s signing key (arbitro §L.6; adjudicator/signing_keys.py): a chained
        `key_withdrawn` event naming the key and the commands it covered; the seat is unsigned until it registers a
        new key. `key`: the key meant (public key or fingerprint), refused unless it is the one in force. `by`: the
        acting seat (refused unless the umpire)."""
        command = {"type": "withdraw_key", "seat": seat, "reason": reason, **({"key": key} if key else {})}
        return self.submit(game_id, by, command)  # type: ignore[attr-defined,no-any-return]

    def receipt(self, game_id: str, cmd: int) -> dict[str, Any]:
        """The server's signed receipt for command `cmd` (arbitro §L.4): the head its events ended on, and the
        command's hash. Ed25519 signatures are deterministic: asking again gives the same receipt."""
        stored = self.store.command(game_id, cmd)
        if stored is None:
            raise NotFound(f"game {game_id} has no command {cmd} (commands 0 to {self.game(game_id).head_cmd})")
        return self._receipt(self.game(game_id), stored)

    def _receipt(self, game: GameRecord, stored: StoredCommand) -> dict[str, Any]:
        seq = self._end_of(game, stored)
        head = next(iter(self.store.events(game.id, seq, seq))).hash if seq else GENESIS
        return sign_receipt(self.store, game.id, stored.record.cmd, stored.hash, head)

    def server_key(self) -> str | None:
        """This server's public key: receipts are signed with its private half (kept in the database). None
        only from a database opened read-only that never signed anything."""
        key = self.store.signing_key()
        return signing.public_key(key) if key is not None else None

    # --- access tokens (the HTTP server's seats and umpire, issue 12) --------------------------------------
    def issue_tokens(self, game_id: str, roles: Iterable[str] | None = None) -> dict[str, str]:
        """New secret bearer tokens for `roles` of a game (default: each seat and the umpire), returned once and
        stored only as hashes; a role given a new token loses its old one (an invitation sent again)."""
        game = self.game(game_id)
        wanted = list(dict.fromkeys(roles)) if roles is not None else [*game.seats, UMPIRE]
        for role in wanted:
            self.check_seat(game, role)
        tokens = {role: secrets.token_urlsafe(32) for role in wanted}
        self.store.put_tokens(game_id, {role: token_hash(token) for role, token in tokens.items()})
        return tokens

    def token_role(self, token: str) -> tuple[str, str] | None:
        """The (game, role) a bearer token grants, or None for a token this database never issued."""
        return self.store.token_role(token_hash(token))


def token_hash(token: str) -> str:
    """What the store keeps of a bearer token: its SHA-256 (a token is 256 random bits, so no salt or slow hash
    is needed to keep it from being guessed back)."""
    return sha256_hex(token.encode())
