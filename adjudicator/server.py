"""arbitro over HTTP (issue 12): a thin FastAPI layer over arbitro.adjudicator.service.Arbitro, as the CLI is.

Each endpoint authorises its caller at the boundary (http_access: a seat reads and acts only as itself, what
serves hidden content is the umpire's), makes one library call and returns its result as JSON; errors are JSON
with a stable code and the citation where a rule refused (errors.error_payload), with the HTTP status of
errors.http_status. docs/http-api.md is the reference; /docs and /openapi.json describe every endpoint.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import msgspec
from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from arbitro.adjudicator import settling
from arbitro.adjudicator.mail import for_game, read_mailed
from arbitro.adjudicator.errors import (
    REPORTED, BadFile, Forbidden, MalformedCommand, NotAuthenticated, error_payload, http_status,
    JsonUnreadable, NoSuchEvent, not_utf8, read_outside_json,
)
from arbitro.adjudicator.http_access import HOST, Authority, BodyLimit, GameQuota, Limits, Principal, RateLimiter
from arbitro.adjudicator.http_stream import AppendWatcher, live, seat_head
from arbitro.adjudicator.preload import settle_rulesets
from arbitro.adjudicator.render import render
from arbitro.adjudicator.seatcopy import checked_seat_keys, checked_server_key
from arbitro.adjudicator.server_bodies import (
    Amendment, Consent, DisputeAnswer, DisputeClaim, DisputeRuling, Entropy, Fork, Invitation, KeyWithdrawal,
    NewGame, Note, Proof, Reveal, Ruling, SeatKey, Submission, Undo,
)
from arbitro.adjudicator.service import Arbitro
from arbitro.adjudicator.viewer import HEADERS as VIEWER_HEADERS
from arbitro.adjudicator.viewer_file import PAGE as VIEWER_PAGE
from arbitro.adjudicator.report_phrases import worded
from arbitro.events.store import GameNotFound, StaleSequence
from arbitro.projections.base import UMPIRE

UPLOADS = ("/games/import", "/verify")
STALE_RETRIES = 3
TEXT_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {  # read as it is, whatever its type
    "text/plain": {"schema": {"type": "string"}}}}}
BEARER = HTTPBearer(auto_error=False, description="A seat's, the umpire's or the host's token.")


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]


def who(request: Request, credentials: Credentials) -> Principal | None:
    """The caller, from its bearer token (None: no token; a token never issued here is refused)."""
    authority: Authority = request.app.state.authority
    return authority.principal(credentials.credentials if credentials else None)


Who = Annotated[Principal | None, Depends(who)]
SeatQuery = Annotated[str | None, Query(description="Read as this seat (the umpire only; default: yourself).")]
PieceQuery = Annotated[str | None, Query(description="Only the commands naming this piece (a unit or leader id), "
                                                      "worked out for it alone where the ruleset can.")]


def reply(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def refusal(error: Exception) -> JSONResponse:
    challenge = {"WWW-Authenticate": "Bearer"} if isinstance(error, NotAuthenticated) else None
    return JSONResponse(error_payload(error), status_code=http_status(error), headers=challenge)


def create_app(app: Arbitro, host_token: str, *, limits: Limits = Limits(), open_creation: bool = False,
               poll: float = 1.0) -> FastAPI:
    """The HTTP application over `app`'s store. `host_token`: the operator's; `open_creation`: anyone may create
    games (each client address at most `limits.games_per_token`); `poll`: the longest a live stream waits before
    it re-reads the head on its own."""
    authority = Authority(app, host_token, open_creation=open_creation)
    watcher = AppendWatcher(app)
    rate, quota = RateLimiter(limits.commands_per_second), GameQuota(limits.games_per_token)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        settle_rulesets()  # every ruleset's data loaded and frozen once, here rather than in a first request (issue 15)
        watcher.start(asyncio.get_running_loop())
        yield

    api = FastAPI(title="arbitro", version="1", lifespan=lifespan, description=(
        "Umpired remote play over arbitro's event-sourced games. Every request but `GET /rulesets` carries a bearer "
        "token: a seat's or the umpire's (made with the game, shown once) or the host's. docs/http-api.md."))
    api.add_middleware(BodyLimit, limits=limits, uploads=UPLOADS, refuse=refusal)
    api.state.authority = authority

    async def reported(_: Request, error: Exception) -> JSONResponse:
        return refusal(error)

    for kind in REPORTED:
        api.add_exception_handler(kind, reported)

    @api.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = [{"field": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
                    for e in error.errors()]
        where = "; ".join(f"{p['field']}: {p['problem']}" for p in problems)
        return refusal(MalformedCommand(f"the request is malformed: {where}", problems))

    @api.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": f"http/{error.status_code}", "message": str(error.detail)},
                            status_code=error.status_code, headers=error.headers)

    def charged(caller: Principal | None) -> Principal:
        """A known caller, charged one command against its token's rate (an import or a verify re-adjudicates a
        whole game: the server's most expensive requests)."""
        who = authority.known(caller)
        rate.take((who.game, who.role), f"{who.role}{' in game ' + who.game if who.game else ''}")
        return who

    def acting(caller: Principal | None, game_id: str) -> str:
        """The caller's role in the game, charged one command against its rate."""
        role = authority.member(caller, game_id)
        rate.take((game_id, role), f"{role} in game {game_id}")
        return role

    def written(game_id: str, submit: Callable[[], Any], expected_seq: int | None = None, status: int = 200) -> Response:
        """A command's result, its game's streams woken. A command sent without `expected_seq` is judged against
        whatever the head is: when another seat's append lands between this one's reading of the head and its
        append (two seats committing entropy at once), the store refuses it as stale and it is judged again on
        the new head, a few times at most. With `expected_seq` the seat asked for exactly that head: 409."""
        for attempt in range(STALE_RETRIES):
            try:
                result = submit()
                break
            except StaleSequence:
                if expected_seq is not None or attempt == STALE_RETRIES - 1:
                    raise
        watcher.notify(game_id)
        return reply(result, status)

    def quota_key(caller: Principal | None, request: Request | None) -> str:
        """Whose quota a new game counts against: the host's; a game's umpire's, one quota for the whole family of
        forks and amendments descending from the game first created (each fork's umpire holds a new token, so a
        chain of forks would otherwise be bounded by nothing: rev-p P3); else the creating client's address."""
        if caller and caller.game:
            return f"{_root_of(app, caller.game)}:{caller.role}"
        return HOST if caller else f"address:{request.client.host if request and request.client else '?'}"

    def new_game(caller: Principal | None, request: Request | None, make: Callable[[], str]) -> Response:
        game_id = quota.make(quota_key(caller, request), make)
        return reply({"game": game_id, "tokens": app.issue_tokens(game_id)}, 201)

    # --- the server --------------------------------------------------------------------------------------
    @api.get("/rulesets", tags=["server"], summary="The rulesets, their scenarios and optional rules (no token).")
    def rulesets() -> Response:
        return reply(Arbitro.rulesets())

    @api.get("/games", tags=["server"], summary="Every game on this server (the host).")
    def games(caller: Who) -> Response:
        authority.host(caller, "list every game")
        return reply(app.games())

    @api.post("/games", tags=["server"], status_code=201,
              summary="Create a game; returns its id and one token per seat and one for the umpire, shown once.")
    def create(body: NewGame, caller: Who, request: Request) -> Response:
        authority.creator(caller)
        return new_game(caller, request, lambda: app.create(
            body.ruleset, body.scenario, body.options, position=body.position, transcribed=body.transcribed,
            game_id=body.id, seat_entropy=body.seat_entropy, provable_rolls=body.provable_rolls))

    @api.post("/games/import", tags=["server"], status_code=201, openapi_extra=TEXT_BODY,
              summary="Import a full export (JSON Lines, the body) as a new game, with new tokens (the host).")
    async def import_game(request: Request, caller: Who, as_id: Annotated[str | None, Query()] = None) -> Response:
        authority.host(caller, "import games")
        charged(caller)
        text = _text(await request.body())
        return await run_in_threadpool(new_game, caller, None, lambda: app.import_lines(
            text.splitlines(), "the request body", seat=UMPIRE, as_id=as_id))

    @api.post("/verify", tags=["server"], openapi_extra=TEXT_BODY,
              summary="Verify an exported file (the body), a seat's or a full one, optionally against a head, a "
                      "seat's seal against the server key (or its fingerprint) the seat was told, and the seats' "
                      "signatures against their own keys (seat_key=SEAT=KEY, repeatable).")
    async def verify_file(request: Request, caller: Who, head: Annotated[str | None, Query()] = None,
                          server_key: Annotated[str | None, Query()] = None,
                          seat_key: Annotated[list[str] | None, Query()] = None) -> Response:
        charged(caller)
        text = _text(await request.body())
        key, seat_keys = checked_server_key(server_key, "server_key"), checked_seat_keys(seat_key or (), "seat_key")
        return reply(await run_in_threadpool(lambda: app.verify_lines(
            text.splitlines(), "the request body", head=head, seat_keys=seat_keys, server_key=key)))

    # --- reading a game ------------------------------------------------------------------------------
    @api.get("/games/{game_id}", tags=["read"], summary="The game's status: head, who is awaited, dice, data.")
    def status(game_id: str, caller: Who, seat: SeatQuery = None) -> Response:
        return reply(app.status(game_id, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/seat", tags=["read"],
             summary="Whose token this is in the game: {game, seat}, a seat's name or `umpire` (nothing of the game read).")
    def seat_of(game_id: str, caller: Who) -> Response:
        return reply({"game": game_id, "seat": authority.member(caller, game_id)})

    @api.get("/games/{game_id}/clock", tags=["read"],
             summary="Where the game stands as the seat may see it: its view's turn, phase, step... (not the whole view).")
    def clock(game_id: str, caller: Who, seat: SeatQuery = None) -> Response:
        return reply(app.game_clock(game_id, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/awaiting", tags=["read"],
             summary="Who was awaited, and for what, after `at` (the umpire: an event; a seat: a command; default: now).")
    def awaiting(game_id: str, caller: Who, at: Annotated[int | None, Query()] = None, seat: SeatQuery = None
                 ) -> Response:
        return reply(app.awaiting_at(game_id, at, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/legal", tags=["read"], summary="Every command the seat may send now.")
    def legal(game_id: str, caller: Who, seat: SeatQuery = None, piece: PieceQuery = None) -> Response:
        return reply(app.legal(game_id, authority.reader(caller, game_id, seat), piece))

    @api.get("/games/{game_id}/view", tags=["read"], summary="The game as the seat may see it, with its notes.")
    def view(game_id: str, caller: Who, at: Annotated[int | None, Query()] = None, seat: SeatQuery = None) -> Response:
        reader = authority.reader(caller, game_id, seat)
        shown = app.view(game_id, reader, at)
        shown["notes"] = app.notes(game_id, reader, None, at)
        return reply(shown)

    @api.get("/games/{game_id}/events", tags=["read"], summary="The events as the seat may see them.")
    def events(game_id: str, caller: Who, first: Annotated[int | None, Query(alias="from")] = None,
               last: Annotated[int | None, Query(alias="to")] = None, seat: SeatQuery = None,
               words: Annotated[bool, Query(description="Add each event in plain words (`words`, `told`).")] = False
               ) -> Response:
        served = app.log(game_id, authority.reader(caller, game_id, seat), first, last)
        return reply(worded(served) if words else served)

    @api.get("/games/{game_id}/picture", tags=["read"], response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}},
             summary="The map picture (SVG) as the seat sees it after `at` (the umpire: an event; a seat: a "
                     "command), as `arbitro render` draws it.")
    def picture(game_id: str, caller: Who, at: Annotated[int | None, Query()] = None, seat: SeatQuery = None
                ) -> Response:
        drawn = render(app, game_id, authority.reader(caller, game_id, seat), at)
        return Response(drawn.svg, media_type="image/svg+xml", headers={"Cache-Control": "private, no-store"})

    @api.get("/games/{game_id}/viewer", tags=["read"], response_class=HTMLResponse,
             summary="The browser viewer (no token: the page holds nothing of any game; give it the seat's token "
                     "in the URL fragment, `#token=...`).")
    def viewer(game_id: str) -> HTMLResponse:
        return HTMLResponse(VIEWER_PAGE, headers=VIEWER_HEADERS)

    @api.get("/games/{game_id}/stream", tags=["read"], response_class=EventSourceResponse,
             summary="Server-Sent Events: each new event as the seat may see it, and an `awaiting` notice.")
    def stream(game_id: str, credentials: Credentials, first: Annotated[int | None, Query(alias="from", ge=0)] = None,
               follow: bool = True, seat: SeatQuery = None,
               last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None) -> EventSourceResponse:
        token = credentials.credentials if credentials else None

        def authorised() -> str:  # asked again before each read: a replaced token's stream ends (rev-p P2)
            return authority.reader(authority.principal(token), game_id, seat)

        reader = authorised()
        # the umpire's numbers are the log's, from #1; a seat's are its commands', from #0 (engine-rules §V.6)
        after = first - 1 if first is not None else (0 if reader == UMPIRE else -1)
        if last_event_id is not None:
            if not last_event_id.isdigit() or len(last_event_id) > 18:  # 18 digits: past any log, and int() reads it
                raise BadFile(f"Last-Event-ID {last_event_id!r}: the number of the last message the stream sent (an event's for the umpire, a command's for a seat)")
            after = int(last_event_id)
        head = seat_head(app, game_id, reader)  # a missing game is refused here, not after the stream has started
        if last_event_id is not None and after > head:  # a log never shrinks: no stream of this game sent it
            raise BadFile(f"Last-Event-ID {after}: this game's last message to {reader} is #{head}; resume from a "
                          "number the stream sent, or leave the header out")
        if last_event_id is None and after > head:  # from= past the next number: nothing to announce there (rev-q)
            raise NoSuchEvent(f"game {game_id}'s last message to {reader} is #{head}: a stream starts at #{head + 1} "
                              "at the latest")
        return EventSourceResponse(live(app, watcher, game_id, reader, after, follow=follow, poll=poll,
                                        authorised=authorised), ping=15)

    @api.get("/games/{game_id}/notes", tags=["read"], summary="The notes the seat may read.")
    def notes(game_id: str, caller: Who, seat: SeatQuery = None) -> Response:
        return reply(app.notes(game_id, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/replay", tags=["read"], summary="The game rebuilt from its log to `to` (the umpire: an event; a seat: a command).")
    def replay(game_id: str, caller: Who, to: Annotated[int | None, Query()] = None, seat: SeatQuery = None) -> Response:
        return reply(app.replay(game_id, to, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/export", tags=["read"], response_class=Response,
             summary="The game as JSON Lines: a seat's holds only what it may see; the umpire's is the full log.")
    def export(game_id: str, caller: Who, with_seed: bool = False) -> Response:
        role = (authority.umpire(caller, game_id, "an unrevealed seed is the umpire's, to move a game between servers")
                if with_seed else authority.member(caller, game_id))
        lines = app.export(game_id, role, with_seed=with_seed)
        return Response("\n".join(lines) + "\n", media_type="application/x-ndjson")

    @api.get("/games/{game_id}/verify", tags=["umpire"], summary="Verify the stored game (the umpire).")
    def verify(game_id: str, caller: Who) -> Response:
        authority.umpire(caller, game_id, "the report of a stored game may show any event whole")
        return reply(app.verify(game_id))

    @api.get("/games/{game_id}/position", tags=["umpire"], summary="The state as a position file (the umpire).")
    def position(game_id: str, caller: Who, at: Annotated[int | None, Query()] = None) -> Response:
        return reply(app.position(game_id, at, seat=authority.umpire(caller, game_id, "it holds hidden facts")))

    # --- acting in a game ----------------------------------------------------------------------------
    @api.post("/games/{game_id}/commands", tags=["play"],
              summary="Submit a command as yourself; returns its events as you may see them and a signed receipt.")
    def submit(game_id: str, body: Submission, caller: Who) -> Response:
        seat = acting(caller, game_id)
        return written(game_id, lambda: app.submit(game_id, seat, body.command, expected_seq=body.expected_seq,
                                                   key=body.key, signature=body.signature), body.expected_seq)

    @api.post("/games/{game_id}/mail", tags=["play"], openapi_extra=TEXT_BODY,
              summary="Submit a mailed command file (the body), as `arbitro submit --file` reads it.")
    async def mail(game_id: str, request: Request, caller: Who) -> Response:
        role = acting(caller, game_id)
        seat, submission = mailed(_text(await request.body()), role, game_id)
        return await run_in_threadpool(written, game_id, lambda: app.submit(
            game_id, seat, submission.command, expected_seq=submission.expected_seq, key=submission.key,
            signature=submission.signature), submission.expected_seq)

    @api.post("/games/{game_id}/entropy", tags=["play"],
              summary="Commit to your entropy (its SHA-256), then reveal it (arbitro §R.2).")
    def entropy(game_id: str, body: Entropy, caller: Who) -> Response:
        seat = acting(caller, game_id)
        return written(game_id, lambda: app.submit(game_id, seat, body.command()))

    @api.post("/games/{game_id}/undo", tags=["play"], summary="Take back everything after `to`: an event (the umpire), a command (a seat: engine-rules §V.6) (arbitro §U).")
    def undo(game_id: str, body: Undo, caller: Who) -> Response:
        seat = acting(caller, game_id)
        return written(game_id, lambda: app.undo(game_id, seat, body.to, body.reason))

    @api.post("/games/{game_id}/consent", tags=["play"], summary="Answer another seat's undo request (arbitro §U.2).")
    def consent(game_id: str, body: Consent, caller: Who) -> Response:
        seat = acting(caller, game_id)
        return written(game_id, lambda: app.submit(game_id, seat, {"type": "consent", "accept": body.accept}))

    @api.post("/games/{game_id}/notes", tags=["play"], status_code=201, summary="Annotate an event.")
    def annotate(game_id: str, body: Note, caller: Who) -> Response:
        return reply(app.annotate(game_id, acting(caller, game_id), body.at, body.text, private=body.private), 201)

    @api.post("/games/{game_id}/keys", tags=["play"], status_code=201,
              summary="Register your own public key: your commands must then be signed (arbitro §L.6).")
    def register_key(game_id: str, body: SeatKey, caller: Who) -> Response:
        seat = acting(caller, game_id)  # a chained command of the seat's (its streams see the key_registered event)
        return written(game_id, lambda: app.register_key(game_id, seat, body.public_key), status=201)

    @api.post("/games/{game_id}/keys/{seat}/withdraw", tags=["umpire"],
              summary="Withdraw a seat's signing key (arbitro §L.6): unsigned until it registers a new one.")
    def withdraw_key(game_id: str, seat: str, body: KeyWithdrawal, caller: Who) -> Response:
        authority.umpire(caller, game_id, "withdrawing a seat's signing key is the umpire's (arbitro §L.6)")
        umpire = acting(caller, game_id)
        return written(game_id, lambda: app.withdraw_key(game_id, seat, body.reason, key=body.key, by=umpire))

    # --- disputes (arbitro §D) ---------------------------------------------------------------------------
    @api.get("/games/{game_id}/disputes", tags=["read"], summary="The game's disputes, as the seat may read them.")
    def disputes(game_id: str, caller: Who, seat: SeatQuery = None) -> Response:
        return reply(settling.disputes(app, game_id, authority.reader(caller, game_id, seat)))

    @api.get("/games/{game_id}/knowledge", tags=["read"],
             summary="Who knew what, when: what the seat was served up to its command `at` (arbitro §D.6; the "
                     "umpire's own: its event).")
    def knowledge(game_id: str, caller: Who, at: Annotated[int | None, Query()] = None,
                  about: Annotated[str | None, Query(max_length=200)] = None, seat: SeatQuery = None) -> Response:
        return reply(settling.knowledge(app, game_id, authority.reader(caller, game_id, seat), at, about))

    def dispute_message(game_id: str, seat: str, command: dict[str, Any]) -> Response:
        """A dispute's message submitted; the service completes each note it cites by number (admission.cited_notes)."""
        return written(game_id, lambda: app.submit(game_id, seat, command))

    @api.post("/games/{game_id}/disputes", tags=["play"], summary="Open a dispute about events (arbitro §D.1).")
    def open_dispute(game_id: str, body: DisputeClaim, caller: Who) -> Response:
        return dispute_message(game_id, acting(caller, game_id), {"type": "dispute_open", **body.model_dump()})

    @api.post("/games/{game_id}/disputes/{number}/replies", tags=["play"],
              summary="Answer a dispute, or add evidence to it (arbitro §D.2, §D.7).")
    def answer_dispute(game_id: str, number: int, body: DisputeAnswer, caller: Who) -> Response:
        command = {"type": "dispute_reply", "dispute": number, **body.model_dump()}
        return dispute_message(game_id, acting(caller, game_id), command)

    @api.post("/games/{game_id}/disputes/{number}/ruling", tags=["umpire"],
              summary="The umpire's ruling, which closes the dispute (arbitro §D.3).")
    def rule_dispute(game_id: str, number: int, body: DisputeRuling, caller: Who) -> Response:
        authority.umpire(caller, game_id, "a dispute's ruling is the umpire's (arbitro §D.3)")
        command = {"type": "dispute_rule", "dispute": number, **body.model_dump()}
        return dispute_message(game_id, acting(caller, game_id), command)

    @api.post("/games/{game_id}/amend", tags=["umpire"], status_code=201,
              summary="Amend a transcription: a fork with one command replaced, the rest judged again (arbitro §D.5).")
    def amend(game_id: str, body: Amendment, caller: Who) -> Response:
        authority.umpire(caller, game_id, "an amendment is the umpire's (arbitro §D.5)")
        umpire = acting(caller, game_id)  # charged as one command, though it plays every later one again
        amended = quota.make(quota_key(caller, None), lambda: settling.amend(
            app, game_id, umpire, body.at, body.command, dispute=body.dispute, reason=body.reason, new_id=body.id))
        watcher.notify(game_id)
        return reply({**msgspec.to_builtins(amended), "tokens": app.issue_tokens(amended.fork)}, 201)

    # --- the umpire's ----------------------------------------------------------------------------------
    @api.post("/games/{game_id}/rulings", tags=["umpire"], summary="An umpire's ruling (arbitro §U.4).")
    def ruling(game_id: str, body: Ruling, caller: Who) -> Response:
        authority.umpire(caller, game_id, "a ruling is the umpire's (arbitro §U.4)")
        command = {"type": "ruling", **body.model_dump(exclude_none=True)}
        umpire = acting(caller, game_id)
        return written(game_id, lambda: app.submit(game_id, umpire, command))

    @api.post("/games/{game_id}/reveal", tags=["umpire"],
              summary="Reveal the dice seed: ENDS the game's dice (arbitro §R.3); play goes on in a fork.")
    def reveal(game_id: str, body: Reveal, caller: Who) -> Response:
        authority.umpire(caller, game_id, "revealing the seed is the umpire's (arbitro §R.3)")
        umpire = acting(caller, game_id)
        return written(game_id, lambda: app.reveal(game_id, body.reason, seat=umpire, expose_hidden=body.expose_hidden))

    @api.post("/games/{game_id}/prove", tags=["umpire"],
              summary="Prove one roll of a game made with provable rolls by its own key; the seed stays secret and "
                      "the game rolls on (arbitro §R.5).")
    def prove(game_id: str, body: Proof, caller: Who) -> Response:
        authority.umpire(caller, game_id, "proving a roll is the umpire's (arbitro §R.5)")
        umpire = acting(caller, game_id)
        return written(game_id, lambda: app.submit(game_id, umpire, {"type": "prove_roll", "index": body.index}))

    @api.post("/games/{game_id}/fork", tags=["umpire"], status_code=201,
              summary="A new game from event `at` (arbitro §R.3), with its own tokens.")
    def fork(game_id: str, body: Fork, caller: Who) -> Response:
        by = authority.umpire(caller, game_id, "a fork is the umpire's (arbitro §R.3)")
        response = new_game(caller, None, lambda: app.fork(game_id, body.at, keep_dice=body.keep_dice,
                                                           new_id=body.id, by=by))
        watcher.notify(game_id)
        return response

    @api.post("/games/{game_id}/invite", tags=["umpire"],
              summary="New tokens for seats (the umpire's or the host's): each replaces that role's old token.")
    def invite(game_id: str, body: Invitation, caller: Who) -> Response:
        if authority.known(caller).role != HOST:
            authority.umpire(caller, game_id, "invitations are the umpire's")
        return reply({"game": game_id, "tokens": app.issue_tokens(game_id, body.seats)}, 201)

    def mailed(text: str, role: str, game_id: str) -> tuple[str, Submission]:
        """A mailed command file (adjudicator/mail.py): a command, or an envelope with its seat, head, key and
        signature. A seat sends its own; the umpire may post one in a seat's name only signed by that seat (§L.6)."""
        try:
            data = read_outside_json(text)
        except JsonUnreadable as e:
            raise e.bad_file("the mailed file", "is not JSON") from None
        if not isinstance(data, dict):
            raise BadFile("the mailed file holds one JSON object: a command, or an envelope with a `command`")
        envelope = read_mailed(data, "the mailed file")
        if envelope is None:
            return role, Submission(command=data)
        for_game(envelope, game_id, "the mailed file")
        seat = envelope.seat or role
        try:
            submission = Submission(command=envelope.command, expected_seq=envelope.expected_seq, key=envelope.key,
                                    signature=envelope.signature)
        except ValueError as e:
            raise BadFile(f"the mailed envelope: {e}") from None
        if seat != role and (role != UMPIRE or submission.signature is None):
            raise Forbidden(f"{role} may not submit in the name of {seat!r}: only the umpire may post a mailed command "
                            "for a seat, and only one that seat signed (arbitro §L.6)")
        return seat, submission

    return api


def _root_of(app: Arbitro, game_id: str) -> str:
    """The game `game_id` descends from by forks (itself if it was created or imported; a parent since deleted ends
    the walk there)."""
    record, seen = app.game(game_id), {game_id}
    while record.parent is not None and record.parent not in seen:
        seen.add(record.parent)
        try:
            record = app.game(record.parent)
        except GameNotFound:
            break
    return record.id


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise not_utf8("the request body", e, "send it as UTF-8") from None
