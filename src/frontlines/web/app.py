"""The FastAPI application: pages, a small JSON API and the live-play WebSocket.

Protocol on ``/ws/<game id>?t=<seat token>`` (JSON text frames):

client -> server
    ``{"type": "action", "text": "R7@3", "ply": 12}``  (``ply`` optional: refuse if stale)
    ``{"type": "resign"}``, ``{"type": "name", "name": "Ann"}``, ``{"type": "ping"}``,
    ``{"type": "sync"}``, ``{"type": "rematch", "answer": "yes"}``, ``{"type": "quick",
    "phrase": "good_luck"}`` (validated by the models in :mod:`frontlines.web.inputs`)
server -> client
    ``{"type": "view", "ply", "role", "names", "status", "online", "view": {...}}`` after
    every change, where ``view`` is the receiver's own ``View.to_dict()``;
    ``{"type": "error", "code", "message"[, "reason"]}`` for anything refused (nothing changes;
    ``reason``, on a move the rules refuse, is the engine's reason dict: code, params, words);
    ``{"type": "pong"}``; ``{"type": "quick", "game_id", "seat", "phrase"}`` (a player's phrase).

A missing or unknown token makes the connection a spectator (public view only).

Every bad request is answered 4xx with a clear message: JSON ``{"detail": …}`` under
``/api``, a page in the request's language elsewhere; never a 500.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from frontlines.core.errors import FrontlinesError
from frontlines.core.game import State
from frontlines.games import parse_state
from frontlines.web import (
    account_pages,
    analysis,
    cluster,
    guard,
    health,
    housekeeping,
    i18n,
    invites,
    learn_pages,
    levels,
    logs,
    migrations,
    ratings,
)
from frontlines.web.accounts import Accounts, Limits
from frontlines.web.database import DatabaseError, Pool, unlock_sqlite
from frontlines.web.fanout import CLOSE_RESTART, RESTART_REASON, Client
from frontlines.web.inputs import (
    MAX_MESSAGE,
    BadInput,
    BodyLimits,
    MoveRequest,
    NewGame,
    RematchRequest,
    SeatToken,
    Ticket,
    error_code,
    explain,
    parse_message,
    valid_game_id,
)
from frontlines.web.lobby import Lobby
from frontlines.web.play.game import GameError, LiveGame, record_of
from frontlines.web.play.manager import Manager
from frontlines.web.settings import Settings, from_environment
from frontlines.web.store import STATUSES, Store
from frontlines.web.workers import make_bots

HERE = Path(__file__).parent
log = logging.getLogger("frontlines.web")
__all__ = ["MAX_MESSAGE", "Settings", "app_from_env", "create_app"]


class SafetyHeaders:
    """ASGI middleware: headers every answer carries.

    No other site may frame our pages (a framed table could be clicked into resigning),
    a browser must not guess content types, and no Referer leaves a page: its address may
    hold a seat token.
    """

    HEADERS = ((b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(settings: Settings | None = None) -> FastAPI:
    cfg = settings or Settings()
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
    env.globals["bot_levels"] = levels.bot_levels()  # every page's scripts name bots from it (base.html)
    replay_cache: OrderedDict[str, list[State]] = OrderedDict()

    creations = housekeeping.RateLimit(cfg.new_games_per_minute)
    policy = guard.Policy.of(cfg.allowed_origins, cfg.secure_cookies)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logs.install()  # after the server configured logging, so its handlers are covered
        store = Store(cfg.database, upgrade=cfg.upgrade_database,
                      pool=Pool(cfg.db_pool_size, cfg.db_max_overflow, cfg.db_pool_timeout))
        bots = make_bots(cfg.bot_executor, cfg.bot_workers, timeout=cfg.bot_timeout)
        await bots.start()
        manager = Manager(store, bots=bots, cap=cfg.cache_games, bot_delay=cfg.bot_delay, limits=cfg.limits,
                          bot_lease=cfg.bot_lease, clock_sweep=cfg.clock_sweep)
        app.state.manager = manager
        app.state.reviews = analysis.Reviews(bots)
        # Accounts and their sessions (guard.Sessions reads them for every request); ratings
        # change with the ending of a rated game, in its transaction (a write hook).
        app.state.accounts = accounts = Accounts(
            store, db=manager.process.db, hashing=cfg.password_hashing,
            limits=Limits(per_account=cfg.login_failures_per_account, per_address=cfg.login_failures_per_address,
                          window=cfg.login_window, signups_per_hour=cfg.signups_per_hour))
        ratings.install(manager)
        await manager.start()
        lobby = Lobby(manager, limits=cfg.lobby, rate=creations)
        manager.drains.append(lobby)
        app.state.lobby = lobby
        await lobby.start()
        # Games a bot was to move in when the server stopped carry on by themselves.
        for summary in await asyncio.get_running_loop().run_in_executor(
                None, lambda: store.list_games(status="active", limit=cfg.cache_games)):
            if summary["bot_seat"] is not None:
                try:
                    await manager.get(summary["id"])
                except Exception:  # one unreadable game must not stop the server
                    log.exception("game %s could not be resumed", summary["id"])
        sweeper = asyncio.create_task(housekeeping.sweep_forever(
            manager, unstarted_after=cfg.abandon_unstarted_after, idle_after=cfg.abandon_idle_after,
            also=lambda: manager.process.db(accounts.sweep)))
        # Under plain uvicorn (app_from_env) the drain of frontlines serve runs on SIGTERM too.
        unhook = cluster.drain_on_signals(app, cfg.shutdown_grace)
        try:
            yield
        finally:
            unhook()
            app.state.stopping = True  # /readyz answers 503 from here on
            sweeper.cancel()
            await app.state.reviews.close()
            await lobby.close()
            await manager.close(grace=cfg.shutdown_grace)
            store.close()

    app = FastAPI(title="Frontlines", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = cfg
    # The last added runs first: the safety headers go on every answer, the guard refuses
    # cross-site requests before anything reads the session or the body.
    app.add_middleware(BodyLimits)
    app.add_middleware(guard.Sessions, policy=policy)
    app.add_middleware(guard.Guard, policy=policy)
    app.add_middleware(SafetyHeaders)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    health.add_routes(app)  # /healthz, /readyz

    def manager_of(request: Request | WebSocket) -> Manager:
        m: Manager = request.app.state.manager
        return m

    # --- pages ----------------------------------------------------------------------
    def page(request: Request, template: str, **context: Any) -> HTMLResponse:
        lang = i18n.pick(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))
        language = i18n.LANGUAGES[lang]

        def translate(message: str) -> str:
            return i18n.gettext(lang, message)

        # Language links keep the rest of the query (a seat token must survive a switch).
        kept = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        links = [(lg, f"{request.url.path}?{urlencode([*kept, ('lang', lg.code)])}") for lg in i18n.LANGUAGES.values()]
        html = env.get_template(template).render(
            _=translate, num=lambda n: i18n.number(lang, n), _n=lambda one, other, n: i18n.counted(lang, one, other, n),
            lang=lang, dir=language.direction,
            plurals=" ".join(language.plurals), language_links=links,
            account=guard.account_of(request), csrf=guard.csrf_of(request), **context,
        )
        response = HTMLResponse(html)
        if request.query_params.get("lang") in i18n.LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response

    # --- errors: JSON under /api, a page in the request's language elsewhere -------------
    def wants_page(request: Request) -> bool:
        path = request.url.path
        return not path.startswith(("/api/", "/static/", "/i18n/", "/ws/"))

    # Page messages, in words the catalogs translate.
    page_messages = {404: "There is no such page.", 405: "There is no such page.",
                     413: "That request is too large.", 429: "Too many new games; please wait a little."}

    def error_response(request: Request, status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
        if wants_page(request):
            message = "There is no such game." if detail == "no such game" else \
                page_messages.get(status, "That request cannot be answered.")
            response = page(request, "error.html", message=message, status=status)
            response.status_code = status
            if headers:
                response.headers.update(headers)
            return response
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error_response(request, exc.status_code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        response = error_response(request, 400, explain(errors))
        code = error_code(errors)
        if code is not None and isinstance(response, JSONResponse):  # a refused name: said by its code
            response = JSONResponse({"detail": explain(errors), "code": code}, status_code=400)
        return response

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "home.html")

    learn_pages.install(app, page)  # the tutorials (t21-learn's own module)
    account_pages.install(app, page, policy)  # accounts, player pages, the leaderboard

    @app.get("/g/{game_id}", response_class=HTMLResponse)
    async def table(request: Request, game_id: str) -> HTMLResponse:
        await _game(request, game_id)
        return page(request, "table.html", game_id=game_id)

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        await _game(request, game_id)
        return page(request, "replay.html", game_id=game_id)

    @app.get("/i18n/{lang}.json")
    async def catalog(lang: str) -> JSONResponse:
        if lang not in i18n.LANGUAGES:
            raise HTTPException(404, "unknown language")
        return JSONResponse(i18n.catalog_dict(lang), headers={"Cache-Control": "max-age=300"})

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    # --- API ------------------------------------------------------------------------
    @app.get("/api/rulesets")
    async def rulesets() -> list[dict[str, Any]]:
        from frontlines.games import all_rulesets

        return [
            {"name": r.name, "game": r.game, "title": r.title, "description": r.description,
             "place_name": r.place_name or None,  # "flag"; Schotten Totten's "stone"
             # players' words for each option and choice (the core's, translated by the pages)
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help,
                          "label": o.title(), "words": [o.choice_words(c) for c in o.choices],
                          "about": o.explanation()}
                         for o in r.options]}
            for r in all_rulesets()
        ]

    def account_id(connection: Request | WebSocket) -> int | None:
        account = guard.account_of(connection)
        return None if account is None else account.id

    @app.post("/api/games")
    async def create_game(request: Request, body: NewGame) -> dict[str, Any]:
        seat = secrets.randbelow(2) if body.seat == "random" else int(body.seat)
        account = guard.account_of(request)
        if body.seed is not None:
            if not cfg.seeded_deals:
                raise HTTPException(400, "this server deals every game itself; seed is not accepted")
            if body.opponent == "friend":
                raise HTTPException(400, "a seed is accepted only against a bot or in pass-and-play")
        wait = creations.take(request.client.host if request.client else None)
        if wait:
            raise HTTPException(429, f"too many new games from your address; try again in {wait:.0f} s",
                                headers={"Retry-After": str(max(1, round(wait)))})
        # A logged-in player's seat is their account's, under its name (both seats in pass and play,
        # whose names stay as typed).
        name = account.username if account is not None and body.opponent != "hotseat" else body.name
        try:
            game, token, invite = await manager_of(request).create(
                ruleset=body.ruleset, options=dict(body.options), opponent=body.opponent, name=name,
                other_name=body.other_name, seat=seat, seed=body.seed, time_control=body.clock,
                account=None if account is None else account.id, rated=body.rated)
        except GameError as exc:
            raise HTTPException(400, exc.message) from exc
        except FrontlinesError as exc:
            raise HTTPException(400, str(exc)) from exc
        return {
            "id": game.id, "seat": seat, "token": token, "url": f"/g/{game.id}?t={token}",
            "invite_token": invite, "invite_url": f"/g/{game.id}?invite={invite}" if invite else None,
            "ruleset": body.ruleset, "opponent": body.opponent, "clock": game.stored.time_control,
            "rated": body.rated,
        }

    @app.get("/api/games")
    async def list_games(request: Request, status: str | None = None, ids: str | None = None) -> list[dict[str, Any]]:
        if status is not None and status not in STATUSES:
            raise HTTPException(400, f"status is one of {', '.join(STATUSES)}")
        id_list = [i for i in ids.split(",") if i][:200] if ids else None
        if id_list is not None and not all(valid_game_id(i) for i in id_list):
            raise HTTPException(400, "ids are game ids separated by commas")
        m = manager_of(request)
        rows: list[dict[str, Any]] = await asyncio.get_running_loop().run_in_executor(
            None, lambda: m.store.list_games(status=status, ids=id_list))
        # Live games know who is connected; stored rows do not.
        for row in rows:
            live = m.games.get(row["id"])
            row["watching"] = live.spectators if live else 0
        if id_list is not None:  # a page's own games: whose turn it is (its "waiting for you" list)
            await m.cache.whose_turn(rows)
        return rows

    @app.get("/api/games/{game_id}")
    async def game_view(request: Request, game_id: str, t: str | None = None) -> dict[str, Any]:
        game = await _game(request, game_id)
        return game.message(await manager_of(request).role_of(game, t, account_id(request)))

    @app.post("/api/games/{game_id}/action")
    async def game_action(request: Request, game_id: str, body: MoveRequest) -> Response:
        """The same moves as the WebSocket, for scripts and simple clients."""
        game = await _game(request, game_id)
        role = await manager_of(request).role_of(game, body.t, account_id(request))
        try:
            if body.type == "resign":
                await manager_of(request).resign(game, role)
            else:
                if body.text is None:
                    raise GameError("malformed", "an action needs its text")
                await manager_of(request).act(game, role, body.text, body.ply)
        except GameError as exc:
            return JSONResponse(exc.to_message(), status_code=409)
        return JSONResponse(game.message(role))

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(request: Request, game_id: str, body: RematchRequest) -> Response:
        """A seat's answer to a rematch (as the WebSocket's ``rematch`` message): the view
        message after it, whose ``rematch`` names the new game once both agreed."""
        game = await _game(request, game_id)
        role = await manager_of(request).role_of(game, body.t, account_id(request))
        try:
            await manager_of(request).rematch.answer(game, role, body.answer == "yes")
        except GameError as exc:
            return JSONResponse(exc.to_message(), status_code=409)
        return JSONResponse(game.message(role))

    @app.post("/api/games/{game_id}/claim")
    async def claim_seat(request: Request, game_id: str, body: Ticket) -> Response:
        """Spend a friend game's invite ticket: the seat it opens, with a token of its own
        (and, logged in, for the account). 409 ``{"detail", "code"}`` when refused: the seat
        is taken (``seat_taken``), or a rated game wants an account (``rated_needs_account``)."""
        game = await _game(request, game_id)
        account = guard.account_of(request)
        try:
            seat, token = await invites.claim(manager_of(request), game, body.invite,
                                              account=None if account is None else account.id,
                                              username="" if account is None else account.username)
        except GameError as exc:
            return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=409)
        return JSONResponse({"id": game.id, "seat": seat, "token": token, "url": f"/g/{game.id}?t={token}",
                             "ruleset": game.stored.ruleset, "opponent": game.stored.opponent,
                             "rated": game.stored.rated})

    @app.post("/api/games/{game_id}/invite")
    async def new_invite(request: Request, game_id: str, body: SeatToken) -> dict[str, Any]:
        """Before the first move, a friend game's creator may invite again (the deal is dealt again)."""
        game = await _game(request, game_id)
        try:
            ticket = await invites.reinvite(manager_of(request), game, body.t, account=account_id(request))
        except GameError as exc:
            raise HTTPException(409, exc.message) from exc
        return {"invite_token": ticket, "invite_url": f"/g/{game.id}?invite={ticket}"}

    async def _game(request: Request, game_id: str) -> LiveGame:
        game = await manager_of(request).get(game_id) if valid_game_id(game_id) else None
        if game is None:
            raise HTTPException(404, "no such game")
        return game

    async def _finished(request: Request, game_id: str) -> LiveGame:
        game = await _game(request, game_id)
        # The setup notation holds every hidden card, so records wait for the end.
        if game.stored.status != "finished":
            raise HTTPException(403, "records and replays open when the game is over")
        return game

    @app.get("/api/games/{game_id}/record.txt")
    async def record_text(request: Request, game_id: str) -> PlainTextResponse:
        game = await _finished(request, game_id)
        return PlainTextResponse(record_of(game.stored).to_text(), headers={
            "Content-Disposition": f'attachment; filename="frontlines-{game_id}.txt"'})

    @app.get("/api/games/{game_id}/record.json")
    async def record_json(request: Request, game_id: str) -> JSONResponse:
        game = await _finished(request, game_id)
        return JSONResponse(record_of(game.stored).to_json(), headers={
            "Content-Disposition": f'attachment; filename="frontlines-{game_id}.json"'})

    def replay_states(game: LiveGame) -> list[State]:
        states = replay_cache.get(game.id)
        if states is None:
            states = record_of(game.stored).positions(parse_state, ending_step=True)
            replay_cache[game.id] = states
            while len(replay_cache) > 16:
                replay_cache.popitem(last=False)
        replay_cache.move_to_end(game.id)
        return states

    @app.get("/api/games/{game_id}/replay")
    async def replay_info(request: Request, game_id: str) -> dict[str, Any]:
        game = await _finished(request, game_id)
        states = replay_states(game)
        return {"id": game.id, "ruleset": game.stored.ruleset, "names": list(game.stored.names),
                "actions": list(game.stored.actions), "steps": len(states), "result": game.stored.result,
                "reason": game.stored.reason}

    @app.get("/api/games/{game_id}/analysis")
    async def game_analysis(request: Request, game_id: str) -> dict[str, Any]:
        """The review of a finished game (web/analysis.py): its progress until it is done,
        then per decision the mover's win chance before and after, the better move, the loss."""
        game = await _finished(request, game_id)
        reviews: analysis.Reviews = request.app.state.reviews
        return reviews.status(game.id, record_of(game.stored))

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay_step(request: Request, game_id: str, step: int, seat: str = "all") -> dict[str, Any]:
        game = await _finished(request, game_id)
        states = replay_states(game)
        if not 0 <= step < len(states):
            raise HTTPException(404, "no such step")
        state = states[step]
        # A finished game hides nothing: "all" shows the public view with both hands.
        if seat in ("0", "1"):
            return {"step": step, "view": state.view(int(seat)).to_dict()}
        view = state.view(None).to_dict()
        hands = [state.view(0).to_dict().get("hands"), state.view(1).to_dict().get("hands")]
        if isinstance(hands[0], list) and isinstance(hands[1], list):
            view["hands"] = [hands[0][0], hands[1][1]]
        return {"step": step, "view": view}

    @app.get("/api/stats")
    async def stats(request: Request) -> dict[str, Any]:
        m = manager_of(request)
        return {"process": m.origin, "live_games": len(m.games), "slowest_bot_s": m.slowest_bot_s,
                "connections": sum(m.addresses.values()), "dropped": dict(m.dropped), "clocks": m.clocks.stats(),
                "rematches_made": m.rematch.made, "quick_said": m.quick.said}

    # --- the lobby (web/lobby.py) ---------------------------------------------------------
    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    @app.get("/api/seeks")
    async def open_seeks(request: Request) -> dict[str, Any]:
        """The open seeks, as the lobby's pages see them."""
        return {"seeks": lobby_of(request).listing()}

    @app.websocket("/ws/lobby")  # before /ws/{game_id}: "lobby" is no game id we make (they have 12 characters)
    async def lobby_socket(websocket: WebSocket) -> None:
        m = manager_of(websocket)
        await websocket.accept()
        if m.draining:
            await websocket.close(code=CLOSE_RESTART, reason=RESTART_REASON)
            return
        address = websocket.client.host if websocket.client else ""
        account = guard.account_of(websocket)  # the page's session, read at the handshake
        await lobby_of(websocket).serve(Client(websocket, None, address, queue=m.limits.send_queue),
                                        None if account is None else account.id,
                                        "" if account is None else account.username)

    # --- live play --------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str, t: str | None = None) -> None:
        m = manager_of(websocket)
        await websocket.accept()
        if m.draining:  # stopping (its listening socket may still be open): come back to another process
            await websocket.close(code=CLOSE_RESTART, reason=RESTART_REASON)
            return
        try:
            game = await m.get(game_id) if valid_game_id(game_id) else None
        except Exception:
            log.exception("game %s could not be loaded", game_id)
            await websocket.send_json({"type": "error", "code": "internal", "message": "this game cannot be loaded"})
            await websocket.close(code=1011)
            return
        if game is None:
            await websocket.send_json({"type": "error", "code": "not_found", "message": "no such game"})
            await websocket.close(code=4404)
            return
        role = await m.role_of(game, t, account_id(websocket))
        if t and role is None:
            await websocket.send_json({"type": "error", "code": "bad_token",
                                       "message": "that seat link is not valid; watching instead"})
        address = websocket.client.host if websocket.client else ""
        client = Client(websocket, role, address, queue=m.limits.send_queue)
        await m.serve(game, client, lambda raw: _handle(m, game, client, raw))

    async def _handle(m: Manager, game: LiveGame, client: Client, raw: str) -> None:
        try:
            try:
                msg = parse_message(raw)
            except BadInput as exc:
                raise GameError(exc.code, exc.message) from exc
            if msg.type == "action":
                await m.act(game, client.role, msg.text, msg.ply)
            elif msg.type == "resign":
                await m.resign(game, client.role)
            elif msg.type == "name":
                await m.set_name(game, client.role, msg.name)
            elif msg.type == "rematch":
                await m.rematch.answer(game, client.role, msg.answer == "yes")
            elif msg.type == "quick":
                await m.quick.say(game, client.role, msg.phrase)
            elif msg.type == "ping":
                client.send_json({"type": "pong"})
            else:  # sync
                client.send(game.message_text(client.role))
        except GameError as exc:
            client.send_json(exc.to_message())
        except Exception:  # a server fault (database down…): say so, keep the connection
            log.exception("game %s: message failed", game.id)
            client.send_json({"type": "error", "code": "internal", "message": "server error; try again"})

    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn frontlines.web.app:app_from_env --factory``: the app ``frontlines serve``
    would run, its options taken from ``FRONTLINES_<OPTION>`` variables (see
    :mod:`frontlines.web.settings`; where it listens is uvicorn's business then).

    What ``frontlines serve`` checks before it binds its port is checked here, before
    uvicorn binds its own: a wrong variable, a wrong URL, a database that does not answer,
    a SQLite file another process holds, a PostgreSQL schema that is not at the newest
    revision. Each is one line on stderr and an exit (2, or 1 when the database did not
    answer), not a traceback from the middle of uvicorn's start-up.
    """
    try:
        settings = from_environment()
        # the store takes the SQLite file again at start-up
        unlock_sqlite(migrations.prepare_held(settings.database, allow_upgrade=settings.upgrade_database))
    except (ValueError, DatabaseError) as exc:
        print(f"frontlines: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(getattr(exc, "exit_status", 2)) from None
    return create_app(settings)
