"""What clients may send: request bodies and WebSocket messages as Pydantic models.

Every body and message is checked here before any of it reaches a game or the database:
its size, its nesting, the range of its numbers and the characters of its strings. NUL,
other control characters and lone surrogates are refused on every database alike (SQLite
would store them; PostgreSQL refuses NUL with a server error), so a bad request is always
a 400 with a message that says what is wrong.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any, Literal

import pydantic_core
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from frontlines.web.play.game import MAX_NAME, OPPONENTS
from frontlines.web.play.quick import Phrase
from frontlines.web.timecontrol import Control

MAX_BODY = 16 * 1024  # bytes of a request body (a new game is about 200)
MAX_MESSAGE = 4096  # characters of a WebSocket message
MAX_PLY = 100_000
MAX_SEED = 2**63 - 1
GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _plain(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("control characters are not allowed")
    return value


# What a refused name's error says (the pages show it in their language by its code).
BAD_NAME = "bad_name"
BAD_NAME_TEXT = "A name cannot hold invisible characters or characters that change the direction of the text."
# Letters drawn the same as an empty space (Hangul fillers, the combining grapheme joiner…).
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
# Scripts whose words use the zero-width (non-)joiner between letters: Persian compounds
# (حسین‌زاده), the Indic scripts. Elsewhere they only hide a difference between two names.
_JOINING_SCRIPTS = ("ARABIC", "SYRIAC", "NKO", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA",
                    "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA", "MONGOLIAN", "KHMER", "MYANMAR")
_ZWNJ, _ZWJ = "\u200c", "\u200d"


def _joins(before: str, after: str, joiner: str) -> bool:
    """A zero-width joiner between two letters of a joining script (ZWNJ or ZWJ), or a ZWJ
    between two pictographs (an emoji sequence: 👩‍💻)."""
    letters = all(unicodedata.category(c)[0] in "LM" for c in (before, after))
    if letters and any(unicodedata.name(c, "").startswith(_JOINING_SCRIPTS) for c in (before, after)):
        return True
    pictures = all(unicodedata.category(c) in ("So", "Mn") for c in (before, after))
    return joiner == _ZWJ and pictures


def name_problem(value: str) -> str | None:
    """Why ``value`` cannot be a player's name (``None`` when it can).

    A name is shown to the other player and kept in the game's record, so what it shows
    must be what it is: refused are control and format characters (Unicode categories Cc
    other than line breaks and tabs, which are folded into spaces; Cf: the right-to-left
    override and the other direction marks and isolates, zero-width spaces, the byte-order
    mark, soft hyphens, invisible operators, tags), line and paragraph separators, private
    use, unassigned code points and lone surrogates, and letters drawn as blanks. The
    zero-width non-joiner and joiner are kept where they belong: between the letters of
    a script that writes words with them, and (the joiner) inside an emoji sequence.
    """
    for i, char in enumerate(value):
        if char in "\t\n\r":
            continue
        kind = unicodedata.category(char)
        if char in (_ZWNJ, _ZWJ):
            if 0 < i < len(value) - 1 and _joins(value[i - 1], value[i + 1], char):
                continue
            return f"U+{ord(char):04X}"
        if kind in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or char in _BLANK_LETTERS:
            return f"U+{ord(char):04X}"
    return None


def _name(value: str) -> str:
    found = name_problem(value)
    if found is not None:
        # its own error type: the app answers it with the code the pages translate
        raise pydantic_core.PydanticCustomError(BAD_NAME, f"{BAD_NAME_TEXT} ({found})")
    return value


def _opponent(value: str) -> str:
    if value not in OPPONENTS:
        raise ValueError(f"opponent is one of {', '.join(OPPONENTS)}")
    return value


def _clock(value: str) -> str:
    Control.parse(value)  # a ValueError that says what a clock may be
    return value


def _not_bool(value: object) -> object:
    # Literal[1] would take True (True == 1 in Python); a seat is a number or a word.
    if isinstance(value, bool):
        raise ValueError("seat is \"0\", \"1\" or \"random\"")
    return value


def valid_game_id(game_id: str) -> bool:
    """Ids are ours (``token_urlsafe(9)``); anything else cannot name a game."""
    return GAME_ID_RE.fullmatch(game_id) is not None


Plain = Annotated[str, AfterValidator(_plain)]
Name = Annotated[str, Field(max_length=4 * MAX_NAME), AfterValidator(_name)]
Token = Annotated[str, Field(max_length=64), AfterValidator(_plain)]
ActionText = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_plain)]
Ply = Annotated[int, Field(ge=0, le=MAX_PLY)]
Options = Annotated[dict[Annotated[Plain, Field(max_length=32)], Annotated[Plain, Field(max_length=64)]],
                    Field(max_length=16)]


class Model(BaseModel):
    # Strict: "0" is not a ply and 1 is not a name; unknown fields are refused, not ignored.
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class NewGame(Model):
    ruleset: Annotated[Plain, Field(max_length=64)]
    opponent: Annotated[str, Field(max_length=32), AfterValidator(_opponent)] = "bot:random"
    seat: Annotated[Literal["0", "1", "random", 0, 1], BeforeValidator(_not_bool)] = "0"
    name: Name = ""
    other_name: Name = ""  # pass and play: the name of the player on the other seat
    options: Options = {}
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    # "" no clock; "300+3" live (seconds + seconds a turn); "3d" correspondence (frontlines.web.timecontrol)
    clock: Annotated[str, Field(max_length=16), AfterValidator(_clock)] = ""
    # between two accounts only: the creator's (logged in) and whoever spends the invite
    rated: bool = False


class MoveRequest(Model):
    """``POST /api/games/<id>/action``: a move or a resignation for the seat of ``t`` (or,
    without ``t``, the seat the logged-in account holds)."""

    t: Token | None = None
    type: Literal["action", "resign"] = "action"
    text: ActionText | None = None
    ply: Ply | None = None


class RematchRequest(Model):
    """``POST /api/games/<id>/rematch``: the seat of ``t`` (or, without ``t``, the seat the
    logged-in account holds) answers a rematch."""

    t: Token | None = None
    answer: Literal["yes", "no"]


class Ticket(Model):
    """``POST /api/games/<id>/claim``: spend an invite ticket."""

    invite: Token


class SeatToken(Model):
    """``POST /api/games/<id>/invite``: a seat (``t``, or the logged-in account's) asks for
    a new invite for the other seat."""

    t: Token | None = None


# --- accounts (frontlines.web.accounts) ------------------------------------------------------
Username = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(_plain)]
# Long enough for any password the rules take (256 characters), short enough that nobody
# makes the server hash megabytes.
Password = Annotated[str, Field(min_length=1, max_length=1024), AfterValidator(_plain)]
RecoveryCode = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_plain)]


class Credentials(Model):
    """``POST /api/account/signup`` and ``/login``."""

    username: Username
    password: Password


class Reset(Model):
    """``POST /api/account/reset``: a recovery code and the new password."""

    username: Username
    code: RecoveryCode
    password: Password


class PasswordChange(Model):
    """``POST /api/account/password``."""

    password: Password
    new_password: Password


class PasswordOnly(Model):
    """``POST /api/account/codes``: new recovery codes, the password given."""

    password: Password


# --- WebSocket messages -----------------------------------------------------------------
class Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class ActionMessage(Message):
    type: Literal["action"]
    text: ActionText
    ply: Ply | None = None


class ResignMessage(Message):
    type: Literal["resign"]


class NameMessage(Message):
    type: Literal["name"]
    name: Name


class PingMessage(Message):
    type: Literal["ping"]


class SyncMessage(Message):
    type: Literal["sync"]


class RematchMessage(Message):
    """A seat's answer to a rematch of a finished game: ``yes`` offers or accepts, ``no``
    declines the other's offer or withdraws one's own."""

    type: Literal["rematch"]
    answer: Literal["yes", "no"]


class QuickMessage(Message):
    """A seated player says one of the fixed phrases (``play/quick.py``), by its id."""

    type: Literal["quick"]
    phrase: Phrase


ClientMessage = Annotated[ActionMessage | ResignMessage | NameMessage | PingMessage | SyncMessage | RematchMessage
                          | QuickMessage, Field(discriminator="type")]
_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# --- the lobby's WebSocket (/ws/lobby) ------------------------------------------------------
SeekId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,16}$")]
LobbySeat = Annotated[Literal["0", "1", "random", 0, 1], BeforeValidator(_not_bool)]


class SeekMessage(Message):
    """Post a seek (``seek``), or play anyone (``anyone``: take a compatible seek, else post
    one). ``seat``: the seat wanted; ``clock``: a time control ("300+3", "3d", "" none; live,
    five minutes and three seconds a move, unless said otherwise)."""

    type: Literal["seek", "anyone"]
    ruleset: Annotated[Plain, Field(max_length=64)]
    options: Options = {}
    clock: Annotated[Plain, Field(max_length=16)] = "300+3"
    rated: bool = False
    seat: LobbySeat = "random"
    name: Name = ""


class AcceptMessage(Message):
    """Take the seek ``id``."""

    type: Literal["accept"]
    id: SeekId
    name: Name = ""


class CancelMessage(Message):
    type: Literal["cancel"]
    id: SeekId


class HeldSeek(Message):
    id: SeekId
    token: Token


class ResumeMessage(Message):
    """A page that posted seeks is back (a reload, a reconnection): hold them again."""

    type: Literal["resume"]
    seeks: Annotated[list[HeldSeek], Field(max_length=10)]


LobbyMessage = Annotated[SeekMessage | AcceptMessage | CancelMessage | ResumeMessage | PingMessage,
                         Field(discriminator="type")]
_LOBBY_MESSAGE: TypeAdapter[LobbyMessage] = TypeAdapter(LobbyMessage)


class BadInput(Exception):
    def __init__(self, message: str, code: str = "malformed") -> None:
        super().__init__(message)
        self.message = message
        self.code = code  # what a WebSocket error says: malformed, or bad_name for a refused name


def error_code(errors: Any) -> str | None:
    """``bad_name`` when a refused name is among pydantic's errors (the pages say why in
    their language), else ``None``."""
    return BAD_NAME if any(err.get("type") == BAD_NAME for err in errors) else None


def _parse(adapter: TypeAdapter[Any], raw: str) -> Any:
    if len(raw) > MAX_MESSAGE:
        raise BadInput("message too long")
    try:
        return adapter.validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        raise BadInput(explain(errors), error_code(errors) or "malformed") from exc


GameMessage = ActionMessage | ResignMessage | NameMessage | PingMessage | SyncMessage | RematchMessage | QuickMessage


def parse_message(raw: str) -> GameMessage:
    """One client message, or :class:`BadInput` saying what is wrong with it."""
    message: GameMessage = _parse(_MESSAGE, raw)
    return message


def parse_lobby_message(raw: str) -> SeekMessage | AcceptMessage | CancelMessage | ResumeMessage | PingMessage:
    """One message to the lobby, or :class:`BadInput` saying what is wrong with it (a
    refused name: code ``bad_name``)."""
    message: SeekMessage | AcceptMessage | CancelMessage | ResumeMessage | PingMessage = _parse(_LOBBY_MESSAGE, raw)
    return message


def explain(errors: Any) -> str:
    """Pydantic's errors as one short sentence per field, for people and scripts alike."""
    parts: list[str] = []
    for err in list(errors)[:3]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",))
        msg = str(err.get("msg", "invalid"))
        if err.get("type") == "json_invalid":
            msg = f"not valid JSON ({err.get('ctx', {}).get('error', msg)})"
        elif err.get("type") == "union_tag_invalid":
            msg = "unknown message type"
        elif err.get("type") == "union_tag_not_found":
            msg = "messages are JSON objects with a type"
        elif err.get("type") == "model_type" or err.get("type") == "model_attributes_type":
            msg = "must be a JSON object"
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "invalid request"


# --- request bodies, before FastAPI reads them ---------------------------------------------
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyLimits:
    """ASGI middleware: refuse large bodies (413) and malformed JSON (400) up front.

    The body is read once, at most :data:`MAX_BODY` bytes of it, and checked with
    pydantic-core's JSON parser, which limits nesting and number length itself (a body of
    3,000 ``[`` or a 5,000-digit number is an error here, not a ``RecursionError`` or a
    ``ValueError`` deeper in). The checked body is then handed on unchanged.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY):
                await _refuse(send, 413, f"request body over {MAX_BODY} bytes")
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                await _refuse(send, 413, f"request body over {MAX_BODY} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                pydantic_core.from_json(body)
            except ValueError as exc:
                await _refuse(send, 400, f"body is not valid JSON ({exc})")
                return
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Send, status: int, detail: str) -> None:
    import json

    payload = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
