"""The HTTP server's boundary: who a request is (its bearer token), what that role may do in a game, and the
server's limits (body size, commands per seat per second, games made per token).

Roles: each seat of a game and its umpire hold one secret token each, made when the game is (stored only as
hashes, `Arbitro.issue_tokens`); the host, the server's operator, holds the host token given to `arbitro serve`.
A seat acts and reads only as itself; the umpire may read as any seat of its game; the host lists every game,
creates and imports games, and invites (issues new tokens), but plays in no game (docs/http-api.md).
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arbitro.adjudicator.errors import Forbidden, NotAuthenticated, NotUmpire, TooLarge, TooMany
from arbitro.adjudicator.service import Arbitro
from arbitro.projections.base import UMPIRE

HOST = "host"
Made = TypeVar("Made")


@dataclass(frozen=True)
class Limits:
    """The server's limits; `arbitro serve --help` names the options that set them."""

    max_body: int = 64 * 1024  # bytes of a JSON request
    max_upload: int = 16 * 1024 * 1024  # bytes of an exported game sent to import or verify
    commands_per_second: float = 10.0  # per seat (and umpire) of a game, with a burst of twice as many
    games_per_token: int = 100  # games one token may make (the host's creations and imports; an umpire's forks and
    # amendments, counted for the whole family of forks descending from one created game)


@dataclass(frozen=True)
class Principal:
    """Who a request is: `role` a seat, "umpire" or "host"; `game` the game its token is for (None: the host)."""

    role: str
    game: str | None


class Authority:
    """Resolves bearer tokens and says what each role may do."""

    def __init__(self, app: Arbitro, host_token: str, *, open_creation: bool = False) -> None:
        self.app, self.host_token, self.open_creation = app, host_token, open_creation

    def principal(self, token: str | None) -> Principal | None:
        if not token:
            return None
        if hmac.compare_digest(token.encode(), self.host_token.encode()):
            return Principal(HOST, None)
        found = self.app.token_role(token)
        if found is None:
            raise NotAuthenticated("this bearer token was never issued here, or was replaced by a new invitation "
                                   "(ask the umpire for a new one: `arbitro invite GAME --seat SEAT`)")
        return Principal(found[1], found[0])

    @staticmethod
    def known(who: Principal | None) -> Principal:
        if who is None:
            raise NotAuthenticated("send your token: `Authorization: Bearer TOKEN` (each seat and the umpire got one "
                                   "when the game was made)")
        return who

    def member(self, who: Principal | None, game_id: str) -> str:
        """The role `who` holds in `game_id`: its token must be one of that game's."""
        who = self.known(who)
        if who.game != game_id:
            holder = "the host's token" if who.role == HOST else f"this token ({who.role} of another game)"
            raise Forbidden(f"{holder} grants nothing in game {game_id}: use a token of that game")
        return who.role

    def umpire(self, who: Principal | None, game_id: str, why: str) -> str:
        role = self.member(who, game_id)
        if role != UMPIRE:
            raise NotUmpire(f"only the umpire may do this, not {role!r}: {why}", rule="arbitro §A.1")
        return role

    def reader(self, who: Principal | None, game_id: str, seat: str | None) -> str:
        """The seat whose eyes a read uses: a seat reads as itself only; the umpire as itself or any seat."""
        role = self.member(who, game_id)
        if seat is None or seat == role:
            return role
        if role != UMPIRE:
            raise Forbidden(f"{role} reads only as itself, not as {seat!r}")
        self.app.check_seat(self.app.game(game_id), seat)  # refused here, not in the middle of a stream
        return seat

    def host(self, who: Principal | None, what: str) -> None:
        if self.known(who).role != HOST:
            raise Forbidden(f"only the host (the server's operator, with the token given to `arbitro serve`) may "
                            f"{what}")

    def creator(self, who: Principal | None) -> None:
        if not self.open_creation:
            self.host(who, "create games on this server (it was not started with --open)")


@dataclass
class RateLimiter:
    """A token bucket per key (a game and seat): `rate` per second, bursts of twice that (at least one)."""

    rate: float
    _buckets: dict[Any, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: Any, what: str) -> None:
        burst = max(1.0, 2 * self.rate)
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(key, (burst, now))
            tokens = min(burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                raise TooMany(f"{what}: at most {self.rate:g} commands a second; wait {(1 - tokens) / self.rate:.2f} s")
            self._buckets[key] = (tokens - 1, now)


@dataclass
class GameQuota:
    """How many games each token has made in this process (the host's creations and imports, an umpire's forks and
    amendments)."""

    limit: int
    _made: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def make(self, key: str, make: Callable[[], Made]) -> Made:
        """Make a game under `key`'s quota: counted before it is made (two racing requests cannot both pass the
        last place), and given back when making it fails."""
        with self._lock:
            made = self._made.get(key, 0)
            if made >= self.limit:
                raise TooMany(f"this token has made {made} games, the most this server allows one token "
                              "(`arbitro serve --games-per-token`)")
            self._made[key] = made + 1
        try:
            return make()
        except BaseException:
            with self._lock:
                self._made[key] -= 1
            raise


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Scope]]
Send = Callable[[Scope], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over its limit is refused with 413 before any of it reaches a handler
    (an upload path, import or verify, has the larger limit)."""

    def __init__(self, app: ASGIApp, limits: Limits, uploads: tuple[str, ...],
                 refuse: Callable[[Exception], Any]) -> None:
        self.app, self.limits, self.uploads, self.refuse = app, limits, uploads, refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.max_upload if scope["path"] in self.uploads else self.limits.max_body
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_large = TooLarge(f"the request body is over this server's limit of {limit} bytes")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self.refuse(too_large)(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self.refuse(too_large)(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay() -> Scope:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
