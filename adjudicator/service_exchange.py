"""The application's exchange and verification calls (`Arbitro` inherits them): export a game as a seat may
have it, import an export (a game, or a seat's copy), delete a game, verify a stored game or a file, and judge a
game's log again under this build.

They read the game through `Arbitro`'s own calls (game, check_seat, status, legal, annotations, the served log,
the head state and genesis caches), which is why they live in a base class and not in free functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec

from arbitro.adjudicator import exchange, exchange_file, importing, registry, seatcopy
from arbitro.adjudicator import verify as verification
from arbitro.adjudicator.admission import umpire_only
from arbitro.adjudicator.errors import BadInput, IllegalCommand
from arbitro.adjudicator.engine_steps import awaiting_in
from arbitro.adjudicator.seat_numbers import noted
from arbitro.events import signing
from arbitro.events.codec import to_builtins
from arbitro.projections.base import UMPIRE
from arbitro.projections.game import dice_public
from arbitro.projections.views import seat_view


R_SEED_SHARED = "arbitro §R.3"  # no copy, as no fork, shows a roll the game it copies will make


class ExchangeCalls:
    """Export, import, delete, verify and re-adjudicate: the calls that move a game's log in or out, or check it."""

    def export(self, game_id: str, seat: str, *, with_seed: bool = False) -> Iterator[str]:
        """The game as `seat` (the acting seat) may have it: the umpire's export is the full log; a seat's
        holds what it may see. An unrevealed seed goes only to the umpire, on request (arbitro §A.1; a seat
        asking for it is refused by `export_lines`). Read as of one moment (`reading`): a command committed while
        the lines are written is in none of them, so a game exported while it is played verifies."""
        self.check_seat(self.game(game_id), seat)  # refused at the call, before any line
        return self._exported(game_id, seat, with_seed)

    def _exported(self, game_id: str, seat: str, with_seed: bool) -> Iterator[str]:
        with self.reading() as app:
            yield from app._export(game_id, seat, with_seed=with_seed)

    def _export(self, game_id: str, seat: str, *, with_seed: bool) -> Iterator[str]:
        game = self.game(game_id)
        self.check_seat(game, seat)
        head = self._head_state(game).core
        revealed, key_revealed = head.seed is not None, head.salt_key is not msgspec.UNSET
        notes = self.annotations(game_id, seat)  # the umpire's, the full export's: every note, private ones included
        ruleset = registry.get(game.ruleset)
        # A seat's export holds one item per command and what it was shown after each (its copy's history, `view
        # --at`), in its own numbers, and ends with what it is served at the head, so it can play on from its own
        # copy offline (engine-rules §V.6).
        numbers = self.numbers(game)
        items, views = seatcopy.history(numbers, self._serving(game, seat), lambda s: {
            "view": seat_view(ruleset, s, seat), "awaiting": to_builtins(awaiting_in(ruleset, s))}
        ) if seat != UMPIRE else ([], [])
        if seat != UMPIRE:
            notes = noted(numbers, notes)
        at_head = {"cmd": numbers.head, "status": to_builtins(self.status(game_id, seat)),
                   "legal": self.legal(game_id, seat)} if seat != UMPIRE else None
        sealed = (lambda records: seatcopy.seal(self.store, game_id, seat, items, views, at_head, records)
                  ) if at_head is not None else None
        return exchange.export_lines(self.store, game, seat, revealed=revealed, key_revealed=key_revealed,
                                     server_key=self.server_key(),
                                     served=items, notes=notes, with_seed=with_seed, seat_state=at_head, views=views,
                                     seal=sealed)

    def import_lines(
        self, lines: Iterable[str], source: str = "<input>", *, seat: str, as_id: str | None = None,
        progress: Callable[[int, int], None] | None = None, seat_copy: bool = False, server_key: str | None = None,
        seat_keys: dict[str, str] | None = None,
    ) -> str:
        """Store a full export as a new game, whole or not at all; `as_id` stores it under another id (a re-sealed
        copy). The umpire's act, as the game's whole log enters this database and is served from it (arbitro §A.1).
        With `seat_copy` (a seat's own database), a seat's export is kept as that seat's copy, or carries on the
        copy held (adjudicator/seatcopy.py), and only if sealed by `server_key` (a key or its fingerprint) and carrying
        the `seat_keys` (a seat's own key, as it knows it) if given."""
        text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        loaded = importing.read_export(text.splitlines(), source)
        if loaded.redacted_for is not None and seat_copy and as_id is None:
            return seatcopy.store_copy(self.store, loaded, text, server_key, seat_keys)
        if server_key is not None and loaded.redacted_for is None:  # refused, not ignored: it checks nothing here
            raise BadInput(f"{source}: --server-key checks the seal of a seat's export; this is the umpire's full "
                           "export, which carries no seal: drop --server-key")
        if seat_keys:  # refused, not ignored: a game imported whole is verified with `arbitro verify --seat-key`
            raise BadInput(f"{source}: --seat-key checks a seat's export as it becomes that seat's copy; to check the "
                           f"seats' keys of a game imported whole, `arbitro verify {source} --seat-key SEAT=KEY`")
        umpire_only(seat, "an imported game's full log, hidden facts included, becomes this database's")
        game_id = importing.import_loaded(self.store, loaded, as_id, progress, refuse=self._no_seed_shared)
        self.rebuild_snapshots(game_id)
        return game_id

    def _no_seed_shared(self, loaded: exchange.Loaded) -> None:
        """Refuse a game whose secret seed a game of this database still rolls from: the copy would give the same
        commands the same rolls, so a seat playing ahead in it would know that game's next dice (rev-q; arbitro §R.3
        refuses a fork keeping its parent's dice before the parent's reveal for the same reason)."""
        rolling = self._rolling_from(loaded.game.seed)
        if rolling is not None:
            raise IllegalCommand(
                f"game {rolling} in this database rolls from the same secret seed as {loaded.source}: a copy would "
                f"roll what {rolling} rolls next, as a fork keeping its dice would: to play on from it, `arbitro fork "
                f"{rolling} --at N` (a new seed); to copy it, reveal {rolling}'s seed first, or export it without "
                "--with-seed", rule=R_SEED_SHARED)

    def _rolling_from(self, seed: str | None) -> str | None:
        """The game of this database that still rolls from `seed`, secret, if any (none for an export without the
        seed: its copy rolls nothing, arbitro §R.1)."""
        for game in self.store.games() if seed is not None else ():
            if game.seed == seed and game.kind != "transcribed" and self.state_at(game.id).core.seed is None \
                    and not dice_public(self._created(game)):
                return game.id
        return None

    def delete(self, game_id: str, by: str = UMPIRE) -> dict[str, Any]:
        """The umpire removes a game and everything stored of it (its forks keep their own logs)."""
        game = self.game(game_id)
        self.check_seat(game, by)
        umpire_only(by, "deleting a game removes its whole log from this database")
        forks = [g.id for g in self.store.games() if g.parent == game_id]
        self.store.delete_game(game_id)
        self._heads.pop(game_id, None)
        self._genesis.pop(game_id, None)
        self._ledger.forget(game_id)
        return {"game": game_id, "deleted": True, "events": game.head_seq, "forks_kept": forks}

    def verify(self, game_id: str, progress: Callable[[int, int], None] | None = None, jobs: int = 1) -> Any:
        """The stored game verified as of one read moment; `jobs`: the most processes re-adjudicating it at once."""
        return verification.verify_stored(self.store, game_id, progress, jobs)

    def verify_lines(
        self, lines: Iterable[str], source: str = "<input>", progress: Callable[[int, int], None] | None = None,
        head: str | None = None, receipts: Iterable[dict[str, Any]] = (), seat_keys: dict[str, str] | None = None,
        server_key: str | None = None,
    ) -> Any:
        """Verify an exported file; `head` (a hash the seat recorded) and `receipts` (the server's signed
        receipts the seat kept) anchor it to what was actually played (arbitro §L.4, §V.2); they, or the
        `server_key` the seat had from the umpire, anchor a seat export's seal to the umpire's server (§L.9)."""
        anchors = [signing.read_receipt(r) for r in receipts]
        loaded = exchange.read_lines(lines, source)
        return seatcopy.verify_export(loaded, progress, head, anchors, seat_keys, server_key)

    def verify_file(
        self, path: str, progress: Callable[[int, int], None] | None = None, head: str | None = None,
        receipts: Iterable[dict[str, Any]] = (), seat_keys: dict[str, str] | None = None, server_key: str | None = None,
        jobs: int = 1,
    ) -> Any:
        """`verify_lines` of the file at `path`, its events read from the file as they are checked, none held: memory
        that does not grow with the log (issue 15; exchange_file). `jobs`: the most processes re-adjudicating it at
        once (verify_replay: forked workers; the report is the same for any number)."""
        anchors = [signing.read_receipt(r) for r in receipts]
        loaded = exchange_file.read_file(path)
        return seatcopy.verify_export(loaded, progress, head, anchors, seat_keys, server_key, jobs=jobs)

    def readjudicate(self, game_id: str, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Judge a game's whole command log again under this build's ruleset version (arbitro §L.5): does
        it give exactly the stored events? The game itself is not changed; `fork` continues it under this
        build. A divergence names the first event that differs and the rule involved."""
        game = self.game(game_id)
        report = self.verify(game_id, progress)
        build_checks = ("ruleset version", "scenario data")
        failed = [c for c in report.checks if c.status == "failed" and c.name not in build_checks]
        return {"game": game_id, "ruleset": game.ruleset, "played_with": self._created(game).version,
                "installed": registry.get(game.ruleset).version,
                "identical": report.divergence is None and not failed,
                "divergence": to_builtins(report.divergence), "checks": to_builtins(report.checks)}

