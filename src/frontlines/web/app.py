"""The FastAPI application: pages, a small JSON API and the live-play WebSocket.

Protocol on ``/ws/<game id>?t=<seat token>`` (JSON text frames):

client -> server
    ``{"type": "action", "text": "R7@3", "ply": 12}``  (``ply`` optional: refuse if stale)
    ``{"type": "resign"}``, ``{"type": "name", "name": "Ann"}``, ``{"type": "ping"}``
server -> client
    ``{"type": "view", "ply", "role", "names", "status", "online", "view": {...}}`` after
    every change, where ``view`` is the receiver's own ``View.to_dict()``;
    ``{"type": "error", "code", "message"}`` for anything refused (nothing changes);
    ``{"type": "pong"}``.

A missing or unknown token makes the connection a spectator (public view only).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

from frontlines.core.errors import FrontlinesError
from frontlines.core.game import State
from frontlines.games import parse_state
from frontlines.web import i18n
from frontlines.web.live import OPPONENTS, Client, GameError, LiveGame, Manager, rebuild, record_of
from frontlines.web.store import Store
from frontlines.web.workers import make_bots

HERE = Path(__file__).parent
log = logging.getLogger("frontlines.web")
MAX_MESSAGE = 4096


@dataclass
class Settings:
    database: str = "sqlite:///frontlines.db"
    bot_executor: str = "process"  # "process" or "thread"
    bot_workers: int = max(1, min(4, (os.cpu_count() or 2) - 1))
    cache_games: int = 256
    bot_delay: float = 0.0  # seconds a bot waits before answering (feels less abrupt to people)
    bot_timeout: float = 30.0  # a bot with no answer after this forfeits


def create_app(settings: Settings | None = None) -> FastAPI:
    cfg = settings or Settings()
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
    replay_cache: OrderedDict[str, list[State]] = OrderedDict()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(cfg.database)
        bots = make_bots(cfg.bot_executor, cfg.bot_workers, timeout=cfg.bot_timeout)
        await bots.start()
        manager = Manager(store, bots=bots, cap=cfg.cache_games, bot_delay=cfg.bot_delay)
        app.state.manager = manager
        # Games a bot was to move in when the server stopped carry on by themselves.
        for summary in await asyncio.get_running_loop().run_in_executor(
                None, lambda: store.list_games(status="active", limit=cfg.cache_games)):
            if summary["bot_seat"] is not None:
                try:
                    await manager.get(summary["id"])
                except Exception:  # one unreadable game must not stop the server
                    log.exception("game %s could not be resumed", summary["id"])
        try:
            yield
        finally:
            await manager.close()
            store.close()

    app = FastAPI(title="Frontlines", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

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
            _=translate, lang=lang, dir=language.direction, language_links=links, **context,
        )
        response = HTMLResponse(html)
        if request.query_params.get("lang") in i18n.LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "home.html")

    @app.get("/g/{game_id}", response_class=HTMLResponse)
    async def table(request: Request, game_id: str) -> HTMLResponse:
        if await manager_of(request).get(game_id) is None:
            raise HTTPException(404, "no such game")
        return page(request, "table.html", game_id=game_id)

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        if await manager_of(request).get(game_id) is None:
            raise HTTPException(404, "no such game")
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
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help}
                         for o in r.options]}
            for r in all_rulesets()
        ]

    @app.post("/api/games")
    async def create_game(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise HTTPException(400, "body must be JSON") from exc
        if not isinstance(body, dict):
            raise HTTPException(400, "body must be a JSON object")
        ruleset = body.get("ruleset")
        opponent = body.get("opponent", "bot:random")
        options = body.get("options") or {}
        name = body.get("name") or ""
        seat_text = str(body.get("seat", "0"))
        seed = body.get("seed")
        if not isinstance(ruleset, str) or not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise HTTPException(400, f"need a ruleset and an opponent among {', '.join(OPPONENTS)}")
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
            raise HTTPException(400, "options must be an object of strings")
        if not isinstance(name, str) or (seed is not None and not isinstance(seed, int)):
            raise HTTPException(400, "name must be a string and seed an integer")
        seat = secrets.randbelow(2) if seat_text == "random" else (1 if seat_text == "1" else 0)
        try:
            game, token, invite = await manager_of(request).create(
                ruleset=ruleset, options=options, opponent=opponent, name=name, seat=seat, seed=seed)
        except GameError as exc:
            raise HTTPException(400, exc.message) from exc
        except FrontlinesError as exc:
            raise HTTPException(400, str(exc)) from exc
        return {
            "id": game.id, "seat": seat, "token": token, "url": f"/g/{game.id}?t={token}",
            "invite_token": invite, "invite_url": f"/g/{game.id}?t={invite}" if invite else None,
            "ruleset": ruleset, "opponent": opponent,
        }

    @app.get("/api/games")
    async def list_games(request: Request, status: str | None = None, ids: str | None = None) -> list[dict[str, Any]]:
        if status not in (None, "active", "finished"):
            raise HTTPException(400, "status is active or finished")
        id_list = [i for i in ids.split(",") if i][:200] if ids else None
        m = manager_of(request)
        rows: list[dict[str, Any]] = await asyncio.get_running_loop().run_in_executor(
            None, lambda: m.store.list_games(status=status, ids=id_list))
        # Live games know who is connected; stored rows do not.
        for row in rows:
            live = m.games.get(row["id"])
            row["watching"] = sum(1 for c in live.clients if c.role is None) if live else 0
        return rows

    @app.get("/api/games/{game_id}")
    async def game_view(request: Request, game_id: str, t: str | None = None) -> dict[str, Any]:
        game = await _game(request, game_id)
        return game.message(game.role_of(t))

    @app.post("/api/games/{game_id}/action")
    async def game_action(request: Request, game_id: str) -> dict[str, Any]:
        """The same moves as the WebSocket, for scripts and simple clients."""
        game = await _game(request, game_id)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise HTTPException(400, "body must be JSON") from exc
        if not isinstance(body, dict):
            raise HTTPException(400, "body must be a JSON object")
        token = body.get("t")
        role = game.role_of(token if isinstance(token, str) else None)
        try:
            if body.get("type", "action") == "resign":
                await manager_of(request).resign(game, role)
            else:
                await manager_of(request).act(game, role, body.get("text"), body.get("ply"))
        except GameError as exc:
            return JSONResponse({"type": "error", "code": exc.code, "message": exc.message}, status_code=409)  # type: ignore[return-value]
        return game.message(role)

    async def _game(request: Request, game_id: str) -> LiveGame:
        game = await manager_of(request).get(game_id)
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
            record = record_of(game.stored)
            states = list(record.states(parse_state))
            final = rebuild(game.stored)
            if final.is_terminal() and not states[-1].is_terminal():
                states.append(final)  # the resignation, as its own last step
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
        return {"live_games": len(m.games), "slowest_bot_s": m.slowest_bot_s}

    # --- live play --------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str, t: str | None = None) -> None:
        m = manager_of(websocket)
        await websocket.accept()
        try:
            game = await m.get(game_id)
        except Exception:
            log.exception("game %s could not be loaded", game_id)
            await websocket.send_json({"type": "error", "code": "internal", "message": "this game cannot be loaded"})
            await websocket.close(code=1011)
            return
        if game is None:
            await websocket.send_json({"type": "error", "code": "not_found", "message": "no such game"})
            await websocket.close(code=4404)
            return
        role = game.role_of(t)
        if t and role is None:
            await websocket.send_json({"type": "error", "code": "bad_token",
                                       "message": "that seat link is not valid; watching instead"})
        client = Client(websocket, role)
        await m.join(game, client)
        try:
            while True:
                raw = await websocket.receive_text()
                await _handle(m, game, client, raw)
        except WebSocketDisconnect:
            pass
        finally:
            await m.leave(game, client)

    async def _handle(m: Manager, game: LiveGame, client: Client, raw: str) -> None:
        try:
            if len(raw) > MAX_MESSAGE:
                raise GameError("malformed", "message too long")
            try:
                msg = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise GameError("malformed", "messages are JSON objects") from exc
            if not isinstance(msg, dict):
                raise GameError("malformed", "messages are JSON objects")
            kind = msg.get("type")
            if kind == "action":
                await m.act(game, client.role, msg.get("text"), msg.get("ply"))
            elif kind == "resign":
                await m.resign(game, client.role)
            elif kind == "name":
                await m.set_name(game, client.role, msg.get("name"))
            elif kind == "ping":
                await client.sender.send_json({"type": "pong"})
            elif kind == "sync":
                await client.sender.send_json(game.message(client.role))
            else:
                raise GameError("malformed", f"unknown message type {kind!r}")
        except GameError as exc:
            await client.sender.send_json({"type": "error", "code": exc.code, "message": exc.message})
        except Exception:  # a server fault (database down…): say so, keep the connection
            log.exception("game %s: message failed", game.id)
            await client.sender.send_json({"type": "error", "code": "internal", "message": "server error; try again"})

    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn frontlines.web.app:app_from_env --factory``."""
    return create_app(Settings(database=os.environ.get("FRONTLINES_DATABASE", "sqlite:///frontlines.db")))
