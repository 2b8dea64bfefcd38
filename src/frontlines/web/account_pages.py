"""The routes of accounts, player pages and the leaderboard.

JSON (every POST needs the session's CSRF token once a session cookie is sent, and comes
from this site: :mod:`frontlines.web.guard`):

* ``POST /api/account/signup`` ``{"username", "password"}`` → ``{"username", "csrf", "codes"}``
  and the session cookie: the account is made and logged in; ``codes`` are its ten recovery
  codes, shown this once.
* ``POST /api/account/login`` ``{"username", "password"}`` → ``{"username", "csrf"}`` and a new
  session cookie (the browser's old session ends); 401 ``bad_login``, 429 ``too_many_attempts``
  with ``Retry-After``.
* ``POST /api/account/reset`` ``{"username", "code", "password"}`` → a new password with a
  recovery code (spent); every session ends, a new one starts here: ``{"username", "csrf",
  "codes_left"}``.
* ``POST /api/account/password`` ``{"password", "new_password"}``, ``POST /api/account/codes``
  ``{"password"}`` (ten new codes; the old ones stop working), ``POST /api/account/logout``,
  ``POST /api/account/logout-all``.
* ``GET /api/account`` (who is logged in), ``GET /api/account/games`` (the account's games),
  ``GET /api/players/<name>``, ``GET /api/leaderboard?ruleset=``, ``GET /api/games/<id>/ratings``.

Errors are ``{"detail", "code"}``; the pages say each code in their language.

Pages: ``/account`` (log in, sign up, recovery; logged in: the account), ``/player/<name>``
(ratings per ruleset with their graphs, games), ``/leaderboard``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from frontlines.web import glicko2, guard, i18n
from frontlines.web.accounts import Account, AccountError, Accounts, csrf_token
from frontlines.web.guard import LoggedIn, Policy, account_of, session_of
from frontlines.web.inputs import Credentials, PasswordChange, PasswordOnly, Reset, valid_game_id
from frontlines.web.play.manager import Manager
from frontlines.web.ratings import Ratings, graph_svg

Page = Callable[..., HTMLResponse]


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


def _refusal(exc: AccountError) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
    return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status, headers=headers)


def install(app: FastAPI, page: Page, policy: Policy) -> None:
    def accounts_of(request: Request) -> Accounts:
        accounts: Accounts = request.app.state.accounts
        return accounts

    def manager_of(request: Request) -> Manager:
        manager: Manager = request.app.state.manager
        return manager

    def ratings_of(request: Request) -> Ratings:
        found: Ratings | None = getattr(request.app.state, "ratings", None)
        if found is None:
            found = request.app.state.ratings = Ratings(manager_of(request).store)
        return found

    async def db(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
        return await manager_of(request).process.db(fn, *args)

    def logged_in(request: Request, account: Account, token: str, **more: Any) -> JSONResponse:
        """The answer that starts a session in this browser: its cookie and its CSRF token."""
        response = JSONResponse({"username": account.username, "csrf": csrf_token(token), **more})
        response.headers.append("set-cookie", guard.set_cookie(request.scope, policy, token))
        return response

    def logged_out(request: Request, **body: Any) -> JSONResponse:
        response = JSONResponse(body)
        response.headers.append("set-cookie", guard.clear_cookie(request.scope, policy))
        return response

    # --- the account API -------------------------------------------------------------------
    @app.post("/api/account/signup")
    async def sign_up(request: Request, body: Credentials) -> Response:
        try:
            account, token, codes = await accounts_of(request).sign_up(
                body.username, body.password, address=_address(request), replacing=session_of(request))
        except AccountError as exc:
            return _refusal(exc)
        return logged_in(request, account, token, codes=codes)

    @app.post("/api/account/login")
    async def log_in(request: Request, body: Credentials) -> Response:
        try:
            account, token = await accounts_of(request).log_in(
                body.username, body.password, address=_address(request),
                replacing=guard.session_cookie(request.scope, policy))
        except AccountError as exc:
            return _refusal(exc)
        return logged_in(request, account, token)

    @app.post("/api/account/reset")
    async def reset(request: Request, body: Reset) -> Response:
        try:
            account, token, left = await accounts_of(request).reset(
                body.username, body.code, body.password, address=_address(request),
                replacing=guard.session_cookie(request.scope, policy))
        except AccountError as exc:
            return _refusal(exc)
        return logged_in(request, account, token, codes_left=left)

    @app.post("/api/account/password")
    async def change_password(request: Request, body: PasswordChange,
                              account: LoggedIn) -> Response:
        token = session_of(request)
        assert token is not None  # an account comes with its session
        try:
            fresh = await accounts_of(request).change_password(account, body.password, body.new_password,
                                                               address=_address(request), session=token)
        except AccountError as exc:
            return _refusal(exc)
        return logged_in(request, account, fresh)

    @app.post("/api/account/codes")
    async def renew_codes(request: Request, body: PasswordOnly,
                          account: LoggedIn) -> Response:
        try:
            codes = await accounts_of(request).renew_codes(account, body.password, address=_address(request))
        except AccountError as exc:
            return _refusal(exc)
        return JSONResponse({"codes": codes})

    @app.post("/api/account/logout")
    async def log_out(request: Request) -> Response:
        token = session_of(request)
        if token is not None:
            await accounts_of(request).log_out(token)
        return logged_out(request)

    @app.post("/api/account/logout-all")
    async def log_out_everywhere(request: Request, account: LoggedIn) -> Response:
        ended = await accounts_of(request).log_out_everywhere(account)
        return logged_out(request, ended=ended)

    @app.get("/api/account")
    async def who(request: Request, account: LoggedIn) -> dict[str, Any]:
        accounts = accounts_of(request)
        return {"username": account.username, "codes_left": await db(request, accounts.codes_left, account.id),
                "sessions": await db(request, accounts.sessions_of, account.id)}

    @app.get("/api/account/games")
    async def my_games(request: Request, account: LoggedIn, status: str | None = None) -> list[dict[str, Any]]:
        """The games whose seats the account holds (any device may resume them: the table
        gives a logged-in account its seat without the seat link)."""
        m = manager_of(request)
        if status is not None and status not in ("active", "finished", "abandoned"):
            raise HTTPException(400, "status is one of active, finished, abandoned")
        rows: list[dict[str, Any]] = await db(request, lambda: m.store.account_games(account.id, status=status))
        for row in rows:
            live = m.games.get(row["id"])
            row["watching"] = live.spectators if live else 0
        return rows

    # --- players and ratings ------------------------------------------------------------------
    async def player(request: Request, name: str) -> tuple[Account, dict[str, Any]]:
        if len(name) > 80:
            raise HTTPException(404, "no such player")
        found: Account | None = await db(request, accounts_of(request).by_name, name)
        if found is None:
            raise HTTPException(404, "no such player")
        account = found
        r = ratings_of(request)
        standings = await db(request, r.of_account, account.id)
        history = {st.ruleset: await db(request, r.history, account.id, st.ruleset) for st in standings}
        games = await db(request, lambda: manager_of(request).store.account_games(account.id, limit=50))
        return account, {"username": account.username, "ratings": [st.to_dict() for st in standings],
                         "history": history, "games": [g for g in games if g["status"] != "abandoned"]}

    @app.get("/api/players/{name}")
    async def player_api(request: Request, name: str) -> dict[str, Any]:
        return (await player(request, name))[1]

    @app.get("/api/leaderboard")
    async def leaderboard_api(request: Request, ruleset: str = "battleline") -> dict[str, Any]:
        ranked, newcomers = await db(request, ratings_of(request).leaderboard, ruleset[:64])
        return {"ruleset": ruleset, "ranked": [x.to_dict() for x in ranked],
                "provisional": [x.to_dict() for x in newcomers]}

    @app.get("/api/games/{game_id}/ratings")
    async def game_ratings(request: Request, game_id: str) -> list[dict[str, Any]]:
        if not valid_game_id(game_id):
            raise HTTPException(404, "no such game")
        changes: list[dict[str, Any]] = await db(request, ratings_of(request).of_game, game_id)
        return changes

    # --- pages ------------------------------------------------------------------------------
    @app.get("/account", response_class=HTMLResponse)
    async def account_page(request: Request) -> HTMLResponse:
        account = account_of(request)
        details: dict[str, Any] = {}
        if account is not None:
            accounts = accounts_of(request)
            details = {"codes_left": await db(request, accounts.codes_left, account.id),
                       "sessions": await db(request, accounts.sessions_of, account.id)}
        return page(request, "account.html", **details)

    @app.get("/player/{name}", response_class=HTMLResponse)
    async def player_page(request: Request, name: str) -> HTMLResponse:
        account, data = await player(request, name)
        lang = i18n.pick(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))
        graphs = {}
        for st in data["ratings"]:
            points = data["history"].get(st["ruleset"], [])
            title = i18n.gettext(lang, "Rating in {ruleset}, game by game").replace(
                "{ruleset}", i18n.gettext(lang, _title(st["ruleset"])))
            description = i18n.gettext(lang, "From {first} to {last}").replace(
                "{first}", i18n.number(lang, round(points[0]["before"]) if points else 1500)).replace(
                "{last}", i18n.number(lang, st["rating"]))
            graphs[st["ruleset"]] = graph_svg(points, title=title, description=description,
                                              number=lambda n: i18n.number(lang, n))
        return page(request, "player.html", player=data, player_id=account.id, graphs=graphs,
                    titles=_titles(),
                    provisional_deviation=int(glicko2.PROVISIONAL_DEVIATION))

    @app.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard_page(request: Request, ruleset: str = "battleline") -> HTMLResponse:
        from frontlines.games import all_rulesets

        known = {r.name: r.title for r in all_rulesets()}
        if ruleset not in known:
            raise HTTPException(404, "no such ruleset")
        ranked, newcomers = await db(request, ratings_of(request).leaderboard, ruleset)
        return page(request, "leaderboard.html", ruleset=ruleset, rulesets=known,
                    ranked=[x.to_dict() for x in ranked], newcomers=[x.to_dict() for x in newcomers],
                    provisional_deviation=int(glicko2.PROVISIONAL_DEVIATION))


def _titles() -> dict[str, str]:
    from frontlines.games import all_rulesets

    return {r.name: r.title for r in all_rulesets()}


def _title(ruleset: str) -> str:
    return _titles().get(ruleset, ruleset)


