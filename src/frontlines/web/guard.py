"""What a session cookie may authorise, and what stops another site from using it.

Once a cookie carries authority (an account's session, :mod:`frontlines.web.accounts`), a
page on another site could make the browser send it: a form posted across sites, a
WebSocket opened from there. Three things stop that, in :class:`Guard`, in front of every
route:

* **Origin.** A request that changes something (POST, PUT, PATCH, DELETE) and says where it
  comes from (``Origin``, else ``Referer``; ``Sec-Fetch-Site: cross-site`` without either)
  must come from this server's own origin (its scheme and ``Host``, as uvicorn reads them:
  behind a trusted proxy, ``X-Forwarded-Proto``) or one of ``--allowed-origins``; else 403.
  A request that says nothing of where it comes from is a script's, not a browser's, and
  carries no cookie it did not choose to. The same holds for **every WebSocket**, whatever
  it carries: a handshake whose ``Origin`` is another site's is refused (HTTP 403) before
  the socket opens.
* **CSRF token.** A request that changes something and carries a live session's cookie must
  also carry ``X-CSRF-Token``, the session's token (:func:`frontlines.web.accounts.csrf_token`,
  derived from the cookie's secret, so nothing more is stored): every page of a session has
  it in ``<meta name="csrf-token">`` and its scripts send it (``static/common.js`` wraps
  ``fetch``). No exception: a route added later is covered without a word (a test sends
  every route of the app a cookie without the token and expects 403).
* **The cookie itself**: HttpOnly (no script reads it), SameSite=Lax (not sent with a
  cross-site POST at all), Path=/, and Secure when the request came over TLS (directly, or
  through a proxy trusted for ``X-Forwarded-Proto``) or ``--secure-cookies always``; a secure
  cookie is named with the ``__Host-`` prefix, which a browser accepts only from this very
  host, so a neighbouring subdomain cannot plant one.

:class:`Sessions` reads the session of every request (pages, the API, WebSockets) once and
leaves the account in ``request.state.account`` (``None``: nobody is logged in):
:func:`account_of` reads it in a route, :func:`require_account` refuses (401) without one.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from frontlines.web.accounts import Account, csrf_token

log = logging.getLogger("frontlines.web")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_HEADER = "x-csrf-token"
COOKIE = "frontlines_session"
SECURE_COOKIE = "__Host-frontlines_session"  # only over TLS: the browser ties it to this host
CLOSE_ORIGIN = 4403  # (an HTTP 403 to the handshake; the code is what Starlette is told)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


@dataclass(frozen=True)
class Policy:
    """``allowed``: origins besides the server's own (``https://club.example``);
    ``secure``: ``auto`` (Secure cookies when the request came over TLS), ``always``, ``never``."""

    allowed: frozenset[tuple[str, str, int]] = field(default_factory=frozenset)
    secure: Literal["auto", "always", "never"] = "auto"

    @classmethod
    def of(cls, allowed: str | list[str] | tuple[str, ...] = "", secure: str = "auto") -> Policy:
        words = allowed.replace(",", " ").split() if isinstance(allowed, str) else list(allowed)
        parsed = {origin_of(w) for w in words}
        if None in parsed:
            raise ValueError(f"an allowed origin is scheme://host[:port], not {allowed!r}")
        if secure not in ("auto", "always", "never"):
            raise ValueError("secure cookies are auto, always or never")
        return cls(frozenset(o for o in parsed if o is not None), secure)  # type: ignore[arg-type]


def origin_of(text: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin or URL, or None if it names none (``null``)."""
    try:
        parts = urlsplit(text.strip())
        scheme = _SCHEMES.get(parts.scheme.lower())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    return scheme, host, port or _DEFAULT_PORTS[scheme]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def own_origin(scope: Scope) -> tuple[str, str, int] | None:
    """This server's origin as the request reached it: its scheme (uvicorn puts a trusted
    proxy's ``X-Forwarded-Proto`` there) and its ``Host``."""
    host = _header(scope, b"host")
    if not host:
        return None
    return origin_of(f"{scope.get('scheme', 'http')}://{host}")


def is_secure(scope: Scope, policy: Policy) -> bool:
    if policy.secure != "auto":
        return policy.secure == "always"
    return scope.get("scheme") in ("https", "wss")


def cookie_name(scope: Scope, policy: Policy) -> str:
    return SECURE_COOKIE if is_secure(scope, policy) else COOKIE


def session_cookie(scope: Scope, policy: Policy) -> str | None:
    """The session cookie's value in this request, if any (only the name this request's
    security level uses: over TLS a cookie without the ``__Host-`` prefix is not read)."""
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    wanted = cookie_name(scope, policy)
    for part in raw.split(";"):
        name, _, value = part.strip().partition("=")
        if name == wanted and value:
            return value
    return None


def where_from(scope: Scope) -> tuple[str, tuple[str, str, int] | None] | None:
    """Where a request says it comes from: ``("origin", …)``, ``("referer", …)``, or
    ``("cross-site", None)`` from Fetch metadata alone; None when it says nothing."""
    origin = _header(scope, b"origin")
    if origin is not None:
        return "origin", origin_of(origin)
    referer = _header(scope, b"referer")
    if referer:
        return "referer", origin_of(referer)
    if _header(scope, b"sec-fetch-site") == "cross-site":
        return "cross-site", None
    return None


def origin_allowed(scope: Scope, policy: Policy) -> bool:
    """Whether the request comes from this server's own origin or an allowed one (or says
    nothing of where it comes from)."""
    found = where_from(scope)
    if found is None:
        return True
    origin = found[1]
    return origin is not None and (origin == own_origin(scope) or origin in policy.allowed)


class Guard:
    """ASGI middleware: the Origin check on unsafe requests and on every WebSocket (module
    docstring; the CSRF token is checked by :class:`Sessions`, once it knows the session)."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not origin_allowed(scope, self.policy):
                log.info("a WebSocket from another origin refused: %s", _header(scope, b"origin"))
                await send({"type": "websocket.close", "code": CLOSE_ORIGIN, "reason": "origin not allowed"})
                return
        elif scope["type"] == "http" and scope["method"] in UNSAFE and not origin_allowed(scope, self.policy):
            await _refuse(send, "cross_origin", "requests from another site are refused")
            return
        await self.app(scope, receive, send)


async def _refuse(send: Send, code: str, detail: str) -> None:
    payload = json.dumps({"detail": detail, "code": code}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})


# --- reading the session ------------------------------------------------------------------
# Paths that never need to know who is asking (files, health probes, catalogs).
_ANONYMOUS = ("/static/", "/i18n/", "/healthz", "/readyz", "/favicon.ico")


class Sessions:
    """ASGI middleware: the account of the request's session cookie, once per request, in
    ``scope["state"]["account"]`` (None: no session); ``state["session"]`` holds the
    cookie's value when it names a live session. A request that changes something and sends
    a live session's cookie must send its CSRF token (else 403, before any route runs). A
    cookie that names no live session (expired, logged out elsewhere, planted) carries no
    authority and is cleared in the answer to a page or an API call."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(_ANONYMOUS):
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["account"] = None
        state["session"] = None
        cookie = session_cookie(scope, self.policy)
        accounts = getattr(scope["app"].state, "accounts", None)
        stale = False
        if cookie is not None and accounts is not None:
            account = await accounts.session(cookie)
            if account is None:
                stale = True
            else:
                state["account"], state["session"] = account, cookie
                if scope["type"] == "http" and scope["method"] in UNSAFE:
                    sent = _header(scope, CSRF_HEADER.encode()) or ""
                    if not hmac.compare_digest(sent.encode(), csrf_token(cookie).encode()):
                        await _refuse(send, "csrf", "this request needs the page's CSRF token (reload the page)")
                        return
        if not stale or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        clear = clear_cookie(scope, self.policy)

        async def clearing(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(k == b"set-cookie" and v.startswith(cookie_name(scope, self.policy).encode())
                           for k, v in headers):
                    headers.append((b"set-cookie", clear.encode("latin-1")))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, clearing)


def set_cookie(scope: Scope, policy: Policy, token: str) -> str:
    """The ``Set-Cookie`` value that starts a session in this browser."""
    from frontlines.web.accounts import SESSION_SECONDS

    secure = "; Secure" if is_secure(scope, policy) else ""
    return f"{cookie_name(scope, policy)}={token}; Max-Age={int(SESSION_SECONDS)}; Path=/; HttpOnly; SameSite=Lax{secure}"


def clear_cookie(scope: Scope, policy: Policy) -> str:
    secure = "; Secure" if is_secure(scope, policy) else ""
    return f"{cookie_name(scope, policy)}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax{secure}"


def account_of(connection: HTTPConnection) -> Account | None:
    """The logged-in account of a request or WebSocket (``None``: nobody). Use it as a
    FastAPI dependency (``account: Account | None = Depends(account_of)``) or call it."""
    account: Account | None = getattr(connection.state, "account", None)
    return account


def session_of(connection: HTTPConnection) -> str | None:
    """The session cookie's value, when it names a live session."""
    token: str | None = getattr(connection.state, "session", None)
    return token


def require_account(connection: HTTPConnection) -> Account:
    """A FastAPI dependency for routes that need an account: 401 without one."""
    account = account_of(connection)
    if account is None:
        raise HTTPException(401, "log in first")
    return account


# A route's parameter ``account: LoggedIn`` is the logged-in account, or the route answers 401.
LoggedIn = Annotated[Account, Depends(require_account)]


def csrf_of(connection: HTTPConnection) -> str | None:
    """The CSRF token the pages of this request's session send (None: no live session)."""
    token = session_of(connection)
    return None if token is None else csrf_token(token)
