"""Accounts: usernames, passwords, recovery codes, sessions and the limits on guessing.

Accounts are optional: a game needs none (its seats are tokens, :mod:`frontlines.web.seats`).
An account is a username and a password, nothing else (no e-mail). What it adds: the games
its seats hold follow it to every device (``games.account0``/``account1``), it has a player
page, and it may play rated games (:mod:`frontlines.web.ratings`).

* **Usernames** (:func:`username_problem`, :func:`name_key`): 2 to 20 letters, digits and
  ``_ - .`` after Unicode NFKC; no invisible or direction-changing character (the check the
  player names use, :func:`frontlines.web.inputs.name_problem`), letters of one script (or
  Latin with Japanese), digits of one kind. Two names are the same account when their *keys*
  are equal: folded case, digits as ASCII digits, a table of letters that look alike mapped
  to one of them (Cyrillic ``а`` and Latin ``a``, ``1`` and ``l``, Persian and Arabic
  ``ی``/``ي``, katakana ``ロ`` and the kanji ``口`` …), so nobody can take a name that reads
  as someone else's. ``/player/<name>`` and logging in find an account by its key.
* **Passwords** are hashed with argon2id (argon2-cffi), 19 MiB of memory, 2 passes, one lane:
  OWASP's recommended minimum for argon2id, about 30–60 ms a hash on one core of this
  project's machines (a few hundred under load). At most :data:`HASHING_AT_ONCE` hashes
  run at once per process, on threads (the event loop never waits), so a flood of logins
  costs at most that much memory; a hash made with weaker parameters is made again at the
  next login. A password is NFKC-normalised first (the same letters typed on another
  keyboard give the same password), 8 to 256 characters, not the username, not one of the
  commonest passwords. It never leaves this module except as its hash.
* **Recovery codes**: ten, shown once at sign-up (and when asked for again, which spends the
  old ones), 12 characters of a 32-letter alphabet (60 random bits) each. The database keeps
  their SHA-256 digests (random codes need no slow hash: there is nothing to guess from a
  digest). One code, once, resets the password.
* **Sessions**: a cookie holding 256 random bits (:mod:`frontlines.web.guard` sets it); the
  database keeps its SHA-256 digest, the account, and when it expires (30 days after it was
  last used). A login, a sign-up and a reset make a new session and end the one the browser
  had (no session fixation); logging out ends one, "log out everywhere" ends them all, and a
  password change or reset ends every other one.
* **Limits on guessing**, in the database so that every process counts the same attempts:
  failed logins (and resets) per account and per client address (IPv6: per /64), within a
  window; sign-ups per address. An attempt is counted *before* the password is checked
  (one upsert per key, whose row lock makes concurrent attempts count one by one), and
  given back when it succeeds, so at most the limit is ever tried however many requests
  come at once. A success clears its account's count.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from frontlines.web.housekeeping import RateLimit
from frontlines.web.inputs import name_problem
from frontlines.web.settings import Hashing
from frontlines.web.store import AccountRow, AuthLimitRow, RecoveryCodeRow, SessionRow, Store

T = TypeVar("T")
P = ParamSpec("P")

# --- usernames -----------------------------------------------------------------------------
MIN_USERNAME, MAX_USERNAME = 2, 20  # two: many Japanese and Chinese given names (太郎)
SEPARATORS = "_-."
# Names that would pass for the site or a bot (bots are named by their level).
RESERVED = frozenset({
    "admin", "administrator", "root", "system", "moderator", "frontlines", "support", "bot", "bots",
    "anonymous", "guest", "player", "nobody", "random", "easy", "medium", "hard", "expert", "master", "heuristic",
})
# Scripts that may share one name (UTS #39's "highly restrictive" level): Japanese writes
# kanji, kana and often Latin together; Korean hangul with hanja.
_SCRIPT_SETS = (frozenset({"Latin", "Han", "Hiragana", "Katakana"}), frozenset({"Hangul", "Han"}))
_SCRIPTS = {"LATIN": "Latin", "CYRILLIC": "Cyrillic", "GREEK": "Greek", "ARABIC": "Arabic", "HEBREW": "Hebrew",
            "HIRAGANA": "Hiragana", "KATAKANA": "Katakana", "CJK": "Han", "HANGUL": "Hangul"}
# Letters drawn alike, mapped to one of them in a name's key (after case folding): Cyrillic
# and Greek letters that are Latin ones to the eye, 1/l/i and 0/o, Arabic and Persian forms of
# the same letter, kanji that are katakana to the eye, katakana and hiragana of one shape.
_LOOK_ALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "ë", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "l", "ї": "ï", "ј": "j", "ѕ": "s", "ԁ": "d", "ӏ": "l", "ԛ": "q", "ԝ": "w",
    "ь": "b", "ɡ": "g", "α": "a", "β": "ß", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "ı": "l", "i": "l", "1": "l", "0": "o",
    "-": "_", ".": "_",
    "ي": "ی", "ى": "ی", "ك": "ک", "ة": "ه", "ۀ": "ه",
    "一": "ー", "口": "ロ", "力": "カ", "工": "エ", "夕": "タ", "二": "ニ", "八": "ハ", "卜": "ト", "ヘ": "へ",
})
_LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"))


def clean_username(raw: str) -> str:
    """A username as it is kept and shown: NFKC, without surrounding blanks."""
    return unicodedata.normalize("NFKC", raw).strip()


def _script(char: str) -> str | None:
    """The script of a letter (None for digits, separators and marks, which go with any)."""
    if unicodedata.category(char)[0] != "L":
        return None
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0].split("-", 1)[0]
    return _SCRIPTS.get(first, first or "Unknown")


def username_problem(name: str) -> str | None:
    """Why ``name`` (after :func:`clean_username`) cannot be a username, as a code the pages
    put in words (``None`` when it can): ``length``, ``invisible``, ``characters``,
    ``separators``, ``scripts``, ``digits``, ``reserved``."""
    if not MIN_USERNAME <= len(name) <= MAX_USERNAME:
        return "length"
    if name_problem(name) is not None:
        return "invisible"
    letters = 0
    for i, char in enumerate(name):
        kind = unicodedata.category(char)
        if kind[0] == "L":
            letters += 1
        elif kind[0] == "M":
            if i == 0 or unicodedata.category(name[i - 1])[0] not in "LM":
                return "characters"  # a mark on nothing
        elif kind != "Nd" and char not in SEPARATORS:
            return "characters"
    if letters == 0:
        return "characters"
    if name[0] in SEPARATORS or name[-1] in SEPARATORS or any(a in SEPARATORS and b in SEPARATORS
                                                                for a, b in itertools.pairwise(name)):
        return "separators"
    scripts = {s for s in map(_script, name) if s is not None}
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _SCRIPT_SETS):
        return "scripts"
    if len({unicodedata.name(c).rsplit(" ", 1)[0] for c in name if unicodedata.category(c) == "Nd"}) > 1:
        return "digits"
    if name_key(name) in _RESERVED_KEYS:
        return "reserved"
    return None


def name_key(name: str) -> str:
    """What two usernames that read alike have in common: the account's unique key."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    ascii_digits = "".join(str(unicodedata.decimal(c)) if unicodedata.category(c) == "Nd" else c for c in folded)
    key = ascii_digits.translate(_LOOK_ALIKE)
    for pair, one in _LOOK_ALIKE_PAIRS:
        key = key.replace(pair, one)
    return key


_RESERVED_KEYS = frozenset(name_key(n) for n in RESERVED)

# --- passwords -----------------------------------------------------------------------------
MIN_PASSWORD, MAX_PASSWORD = 8, 256
# The commonest passwords of eight characters and more (and this site's own words).
_COMMON = frozenset({
    "password", "password1", "12345678", "123456789", "1234567890", "11111111", "00000000", "87654321",
    "qwertyui", "qwertyuiop", "iloveyou", "sunshine", "princess", "football", "baseball", "welcome1",
    "abcdefgh", "abcd1234", "letmein1", "passw0rd", "trustno1", "asdfghjk", "zxcvbnm1", "qwerty123",
    "frontlines", "battleline", "warmachine", "schottentotten",
})
HASHING_AT_ONCE = 2  # per process: at most this many times Hashing.memory_kib at once


def clean_password(raw: str) -> str:
    return unicodedata.normalize("NFKC", raw)


def password_problem(password: str, username: str = "") -> str | None:
    """``length``, ``username`` (the password is the name), ``common``, or ``None``."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return "length"
    if username and name_key(password) == name_key(username):
        return "username"
    if password.casefold() in _COMMON or len(set(password)) < 3:
        return "common"
    return None


def hasher(hashing: Hashing) -> PasswordHasher:
    """argon2id with ``hashing``'s parameters (:class:`frontlines.web.settings.Hashing`:
    OWASP's recommended minimum unless a test asks for less)."""
    return PasswordHasher(time_cost=hashing.time_cost, memory_cost=hashing.memory_kib, parallelism=hashing.lanes)


# --- recovery codes and session tokens -------------------------------------------------------
RECOVERY_CODES = 10
_CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base 32: no i, l, o, u
_CODE_READ = str.maketrans({"i": "1", "l": "1", "o": "0", "u": "v"})


def new_codes(n: int = RECOVERY_CODES) -> list[str]:
    """``n`` codes such as ``7kq2-m9xa-3t0c`` (60 random bits each)."""
    codes = []
    for _ in range(n):
        raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(12))
        codes.append(f"{raw[:4]}-{raw[4:8]}-{raw[8:]}")
    return codes


def code_digest(code: str) -> str:
    """What the database keeps of a code; read leniently (case, spaces, dashes, i/l/o)."""
    plain = "".join(c for c in code.casefold() if c.isalnum()).translate(_CODE_READ)
    return hashlib.sha256(plain.encode("utf-8")).hexdigest()


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def csrf_token(session_token: str) -> str:
    """The token a page of this session sends with every request that changes something
    (:mod:`frontlines.web.guard`): derived from the session's secret, so nothing more is
    stored, and unknown to anyone who cannot read the HttpOnly cookie."""
    return hmac.new(session_token.encode("utf-8"), b"frontlines csrf", hashlib.sha256).hexdigest()


# --- errors ---------------------------------------------------------------------------------
class AccountError(Exception):
    """A refused account request: ``code`` (one word the pages put in words), an English
    ``message``, the HTTP ``status``, and for limits the seconds to wait."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after


USERNAME_WORDS = {
    "length": f"a username has {MIN_USERNAME} to {MAX_USERNAME} characters",
    "invisible": "a username cannot hold invisible characters or characters that change the direction of the text",
    "characters": "a username holds letters, digits and _ - . only, and at least one letter",
    "separators": "_ - . go between letters or digits, one at a time",
    "scripts": "a username is written in one script",
    "digits": "a username's digits are all of one kind",
    "reserved": "that username is reserved",
}
PASSWORD_WORDS = {
    "length": f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
    "username": "a password cannot be the username",
    "common": "that password is too easy to guess",
}


@dataclass(frozen=True)
class Account:
    id: int
    username: str


@dataclass(frozen=True)
class Limits:
    """How many guesses are allowed: failed logins (and resets) per account and per client
    address within ``window`` seconds; sign-ups per address per hour (0: no limit)."""

    per_account: int = 10
    per_address: int = 30
    window: float = 900.0
    signups_per_hour: int = 10


SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 86400.0
SEEN_EVERY = 3600.0  # a session's expiry moves on at most this often (one write an hour)


class Accounts:
    """Accounts, sessions, codes and limits on the store's database. The ``*_sync`` methods
    run on a database thread; the others are what the routes await."""

    def __init__(self, store: Store, *, limits: Limits | None = None, hashing: Hashing | None = None,
                 db: Callable[..., Any] | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.hashing = hashing or Hashing()
        self._hasher = hasher(self.hashing)
        # A hash of nothing anyone knows: a login to a name with no account costs the same time.
        self._decoy = self._hasher.hash(secrets.token_urlsafe(16))
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._db = db
        self._hashing: asyncio.Semaphore | None = None
        self._insert = pg_insert if store.shared else sqlite_insert

    # --- running things off the event loop ------------------------------------------------
    async def _on_db(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if self._db is not None:
            result: T = await self._db(fn, *args, **kwargs)
            return result
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _hash_work(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if self._hashing is None:
            self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        async with self._hashing:
            return await asyncio.to_thread(fn, *args, **kwargs)

    def _hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    # --- limits ---------------------------------------------------------------------------
    def _count(self, s: Session, key: str, now: float, window: float) -> tuple[int, float]:
        """Count one more attempt under ``key``; answer the count in the window and when the
        window began. One statement: concurrent attempts queue on the row."""
        stale = AuthLimitRow.since < now - window
        stmt = self._insert(AuthLimitRow).values(key=key, count=1, since=now)
        stmt = stmt.on_conflict_do_update(index_elements=[AuthLimitRow.key], set_={
            "count": case((stale, 1), else_=AuthLimitRow.count + 1),
            "since": case((stale, now), else_=AuthLimitRow.since)})
        row = s.execute(stmt.returning(AuthLimitRow.count, AuthLimitRow.since)).one()
        return int(row[0]), float(row[1])

    def take_attempts(self, keys: Iterable[tuple[str, int]], window: float, now: float | None = None) -> float:
        """Count an attempt under each ``(key, limit)``; 0 if every count is within its limit,
        else the seconds until the fullest window ends (the attempt must not be made)."""
        now = time.time() if now is None else now
        wait = 0.0
        with self._sessions() as s, s.begin():
            for key, limit in keys:
                count, since = self._count(s, key, now, window)
                if limit > 0 and count > limit:
                    wait = max(wait, since + window - now, 1.0)
        return wait

    def give_back(self, keys: Iterable[str], clear: Iterable[str] = ()) -> None:
        """An attempt succeeded: it does not count under ``keys``, and ``clear``'s counts go."""
        with self._sessions() as s, s.begin():
            for key in keys:
                s.execute(update(AuthLimitRow).where(AuthLimitRow.key == key, AuthLimitRow.count > 0)
                          .values(count=AuthLimitRow.count - 1))
            for key in clear:
                s.execute(delete(AuthLimitRow).where(AuthLimitRow.key == key))

    @staticmethod
    def _login_keys(key: str, address: str | None) -> tuple[str, str]:
        return f"login:account:{key}", f"login:address:{RateLimit.key(address)}"

    async def _limited(self, key: str, address: str | None) -> tuple[str, str]:
        keys = self._login_keys(key, address)
        wait = await self._on_db(self.take_attempts, [(keys[0], self.limits.per_account),
                                                      (keys[1], self.limits.per_address)], self.limits.window)
        if wait:
            raise AccountError("too_many_attempts", f"too many failed attempts; try again in {wait:.0f} s",
                               429, retry_after=wait)
        return keys

    # --- accounts -------------------------------------------------------------------------
    def _create_sync(self, username: str, password_hash: str, code_hashes: list[str]) -> Account:
        now = time.time()
        try:
            with self._sessions() as s, s.begin():
                row = AccountRow(username=username, name_key=name_key(username), password_hash=password_hash,
                                 created=now, password_changed=now)
                s.add(row)
                s.flush()
                for digest in code_hashes:
                    s.add(RecoveryCodeRow(account_id=row.id, code_hash=digest, used=None))
                return Account(row.id, row.username)
        except IntegrityError:
            raise AccountError("username_taken", "that username is taken", 409) from None

    def _find_sync(self, key: str) -> tuple[Account, str] | None:
        with self._sessions() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            return None if row is None else (Account(row.id, row.username), row.password_hash)

    def by_name(self, name: str) -> Account | None:
        """The account a name reads as (``/player/<name>``), on a database thread."""
        found = self._find_sync(name_key(clean_username(name)))
        return None if found is None else found[0]

    def names_of(self, ids: Iterable[int]) -> dict[int, str]:
        wanted = set(ids)
        if not wanted:
            return {}
        with self._sessions() as s:
            return {i: n for i, n in s.execute(select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(wanted)))}

    def _set_password_sync(self, account: int, password_hash: str, keep: str | None) -> None:
        """A new password hash; every session but ``keep`` (a digest) ends."""
        with self._sessions() as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account).values(
                password_hash=password_hash, password_changed=time.time()))
            q = delete(SessionRow).where(SessionRow.account_id == account)
            if keep is not None:
                q = q.where(SessionRow.id_hash != keep)
            s.execute(q)

    def _replace_codes_sync(self, account: int, code_hashes: list[str]) -> None:
        with self._sessions() as s, s.begin():
            s.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.account_id == account))
            for digest in code_hashes:
                s.add(RecoveryCodeRow(account_id=account, code_hash=digest, used=None))

    def _spend_code_sync(self, account: int, digest: str) -> bool:
        """Spend a recovery code, once: a conditional update, so two resets at once cannot
        both spend it."""
        with self._sessions() as s, s.begin():
            done = s.execute(update(RecoveryCodeRow).where(
                RecoveryCodeRow.account_id == account, RecoveryCodeRow.code_hash == digest,
                RecoveryCodeRow.used.is_(None)).values(used=time.time()))
            return int(getattr(done, "rowcount", 0)) == 1

    def codes_left(self, account: int) -> int:
        with self._sessions() as s:
            return len(list(s.scalars(select(RecoveryCodeRow.code_hash).where(
                RecoveryCodeRow.account_id == account, RecoveryCodeRow.used.is_(None)))))

    # --- sessions -------------------------------------------------------------------------
    def _open_session_sync(self, account: int, replacing: str | None) -> str:
        """A new session for ``account``; the browser's old session (``replacing``, its
        cookie's value) ends, whoever it belonged to."""
        token = new_session_token()
        now = time.time()
        with self._sessions() as s, s.begin():
            if replacing:
                s.execute(delete(SessionRow).where(SessionRow.id_hash == token_digest(replacing)))
            s.add(SessionRow(id_hash=token_digest(token), account_id=account, created=now, seen=now,
                             expires=now + SESSION_SECONDS))
        return token

    def session_account(self, token: str, now: float | None = None) -> Account | None:
        """The account a session cookie's value stands for (None: no such session, or it
        has expired); moves its expiry on at most once an hour. On a database thread."""
        now = time.time() if now is None else now
        digest = token_digest(token)
        with self._sessions() as s:
            row = s.execute(select(SessionRow.seen, SessionRow.expires, AccountRow.id, AccountRow.username)
                            .join(AccountRow, AccountRow.id == SessionRow.account_id)
                            .where(SessionRow.id_hash == digest)).one_or_none()
        if row is None or row.expires <= now:
            return None
        if now - row.seen > SEEN_EVERY:
            with self._sessions() as s, s.begin():
                s.execute(update(SessionRow).where(SessionRow.id_hash == digest).values(
                    seen=now, expires=now + SESSION_SECONDS))
        return Account(row.id, row.username)

    def end_session(self, token: str) -> None:
        with self._sessions() as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == token_digest(token)))

    def end_sessions(self, account: int) -> int:
        with self._sessions() as s, s.begin():
            done = s.execute(delete(SessionRow).where(SessionRow.account_id == account))
            return int(getattr(done, "rowcount", 0))

    def sessions_of(self, account: int) -> int:
        with self._sessions() as s:
            return len(list(s.scalars(select(SessionRow.id_hash).where(
                SessionRow.account_id == account, SessionRow.expires > time.time()))))

    def sweep(self, now: float | None = None) -> None:
        """Forget expired sessions and counts whose window has passed."""
        now = time.time() if now is None else now
        with self._sessions() as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.expires < now))
            s.execute(delete(AuthLimitRow).where(AuthLimitRow.since < now - max(self.limits.window, 3600.0)))

    # --- what the routes call ---------------------------------------------------------------
    async def sign_up(self, raw_username: str, raw_password: str, *, address: str | None,
                      replacing: str | None) -> tuple[Account, str, list[str]]:
        """A new account, logged in: answers it, its session token and its recovery codes."""
        username = clean_username(raw_username)
        problem = username_problem(username)
        if problem is not None:
            raise AccountError(f"username_{problem}", USERNAME_WORDS[problem])
        password = clean_password(raw_password)
        problem = password_problem(password, username)
        if problem is not None:
            raise AccountError(f"password_{problem}", PASSWORD_WORDS[problem])
        if self.limits.signups_per_hour > 0:
            wait = await self._on_db(self.take_attempts, [(f"signup:address:{RateLimit.key(address)}",
                                                           self.limits.signups_per_hour)], 3600.0)
            if wait:
                raise AccountError("too_many_signups", f"too many new accounts from your address; try again in "
                                   f"{wait:.0f} s", 429, retry_after=wait)
        if await self._on_db(self._find_sync, name_key(username)) is not None:
            raise AccountError("username_taken", "that username is taken", 409)
        codes = new_codes()
        password_hash = await self._hash_work(self._hash, password)
        account = await self._on_db(self._create_sync, username, password_hash, [code_digest(c) for c in codes])
        token = await self._on_db(self._open_session_sync, account.id, replacing)
        return account, token, codes

    async def log_in(self, raw_username: str, raw_password: str, *, address: str | None,
                     replacing: str | None) -> tuple[Account, str]:
        """Check the password (counted against the limits first); answer the account and a
        new session token."""
        key = name_key(clean_username(raw_username))
        keys = await self._limited(key, address)
        found = await self._on_db(self._find_sync, key)
        password = clean_password(raw_password)
        stored = found[1] if found is not None else self._decoy
        good = await self._hash_work(self._verify, stored, password) and found is not None
        if not good or found is None:
            raise AccountError("bad_login", "wrong username or password", 401)
        account = found[0]
        await self._on_db(self.give_back, [keys[1]], [keys[0]])
        if self._hasher.check_needs_rehash(stored):
            await self._on_db(self._set_password_sync, account.id, await self._hash_work(self._hash, password),
                              None)
        return account, await self._on_db(self._open_session_sync, account.id, replacing)

    async def reset(self, raw_username: str, code: str, raw_password: str, *, address: str | None,
                    replacing: str | None) -> tuple[Account, str, int]:
        """A new password with a recovery code (spent); every session ends and a new one
        starts here. Answers the account, the session token and how many codes are left."""
        key = name_key(clean_username(raw_username))
        keys = await self._limited(key, address)
        found = await self._on_db(self._find_sync, key)
        if found is None or not await self._on_db(self._spend_code_sync, found[0].id, code_digest(code)):
            raise AccountError("bad_code", "that recovery code is not valid for this account", 401)
        account = found[0]
        password = clean_password(raw_password)
        problem = password_problem(password, account.username)
        if problem is not None:
            # the code is spent only with a password that is accepted
            await self._on_db(self._restore_code_sync, account.id, code_digest(code))
            raise AccountError(f"password_{problem}", PASSWORD_WORDS[problem])
        await self._on_db(self.give_back, [keys[1]], [keys[0]])
        await self._on_db(self._set_password_sync, account.id, await self._hash_work(self._hash, password), None)
        token = await self._on_db(self._open_session_sync, account.id, replacing)
        return account, token, await self._on_db(self.codes_left, account.id)

    def _restore_code_sync(self, account: int, digest: str) -> None:
        with self._sessions() as s, s.begin():
            s.execute(update(RecoveryCodeRow).where(RecoveryCodeRow.account_id == account,
                                                    RecoveryCodeRow.code_hash == digest).values(used=None))

    async def _check_password(self, account: Account, raw_password: str, address: str | None) -> None:
        keys = await self._limited(name_key(account.username), address)
        found = await self._on_db(self._find_sync, name_key(account.username))
        if found is None or not await self._hash_work(self._verify, found[1], clean_password(raw_password)):
            raise AccountError("wrong_password", "that is not your password", 403)
        await self._on_db(self.give_back, [keys[1]], [keys[0]])

    async def change_password(self, account: Account, current: str, new: str, *, address: str | None,
                              session: str) -> str:
        """A new password, the current one given; every other session ends, and this one is
        replaced by a new one (answered)."""
        await self._check_password(account, current, address)
        password = clean_password(new)
        problem = password_problem(password, account.username)
        if problem is not None:
            raise AccountError(f"password_{problem}", PASSWORD_WORDS[problem])
        await self._on_db(self._set_password_sync, account.id, await self._hash_work(self._hash, password), None)
        return await self._on_db(self._open_session_sync, account.id, session)

    async def renew_codes(self, account: Account, password: str, *, address: str | None) -> list[str]:
        """Ten new recovery codes (the password given); the old ones stop working."""
        await self._check_password(account, password, address)
        codes = new_codes()
        await self._on_db(self._replace_codes_sync, account.id, [code_digest(c) for c in codes])
        return codes

    async def session(self, token: str) -> Account | None:
        return await self._on_db(self.session_account, token)

    async def log_out(self, token: str) -> None:
        await self._on_db(self.end_session, token)

    async def log_out_everywhere(self, account: Account) -> int:
        return await self._on_db(self.end_sessions, account.id)
