"""A seat's export as arbitro wrote it before the eleventh session (`arbitro/2`, numbered as the log: one line per
event, each command's event range, one view per event, the seal `arbitro-seat-copy/2`), for the tests of what is
still read of such a file (verify, a seat's copy imported from it, a copy carried on by an `arbitro-seat/3` export).
The server no longer writes it (engine-rules §V.6): this is the writer it had (service_exchange._export, exchange
._records, seatcopy.history and seal at c651e0f), reading the game through the service as it did."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator import registry
from arbitro.adjudicator.engine_steps import awaiting_in
from arbitro.adjudicator.exchange import entered_for
from arbitro.adjudicator.service import Arbitro
from arbitro.events import signing
from arbitro.events.codec import canonical, sha256_hex, to_builtins
from arbitro.events.records import FORMAT, GENESIS
from arbitro.events.signing import RecordsDigest
from arbitro.projections.patch import patch_between
from arbitro.projections.views import seat_view


def legacy_export(app: Arbitro, game_id: str, seat: str) -> list[str]:
    """`seat`'s export of `game_id` in the arbitro/2 format, sealed by the app's server key."""
    game = app.game(game_id)
    ruleset = registry.get(game.ruleset)
    served, views, link, before = [], [], GENESIS, {}
    for event, state in app._serving(game, seat):
        served.append(event)
        shown = {"view": seat_view(ruleset, state, seat), "awaiting": to_builtins(awaiting_in(ruleset, state))}
        patch = patch_between(before, shown)
        link = signing.view_link(link, event["seq"], event["hash"], patch)
        views.append({"seq": event["seq"], "patch": msgspec.json.encode(patch).decode(), "digest": link})
        before = shown
    at_head = {"seq": game.head_seq, "status": to_builtins(app.status(game_id, seat)), "legal": app.legal(game_id, seat)}
    head = msgspec.to_builtins(game)
    head["seed"] = game.seed if app._head_state(game).core.seed is not None else None
    head.update(record="game", format=FORMAT, redacted_for=seat, server_key=app.server_key())
    records = [head]
    for stored in app.store.commands(game_id):
        own = stored.record.seat == seat or entered_for(stored.record.command) == seat
        records.append({"record": "command", "cmd": stored.record.cmd, "seat": stored.record.seat, "hash": stored.hash,
                        "first_seq": stored.first_seq, "last_seq": stored.last_seq,
                        "body": msgspec.to_builtins(stored.record) if own else None})
    records += [{"record": "event", "seq": e["seq"], "hash": e["hash"], "served": e} for e in served]
    records += [{"record": "annotation", **msgspec.to_builtins(n)} for n in app.annotations(game_id, seat)]
    records += [{"record": "seat_view", **v} for v in views]
    records.append({"record": "seat_state", **at_head})
    lines = [canonical(r).decode() for r in records]
    digest = RecordsDigest()
    for line in lines:
        digest.add(line.encode())
    key = app.store.signing_key()
    assert key is not None
    seal = signing.make_seat_seal(key, game=game_id, seat=seat, seq=served[-1]["seq"], head=served[-1]["hash"],
                                  views=views[-1]["digest"], state=sha256_hex(canonical(at_head)),
                                  records=digest.hexdigest())
    return lines + [canonical({"record": "seat_seal", **to_builtins(seal)}).decode()]
