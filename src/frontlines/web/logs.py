"""Keep secrets out of every log line: seat tokens, invite tickets, database passwords,
session cookies and CSRF tokens (passwords and recovery codes never reach a log at all: they
travel only in request bodies, which no log line holds).

Seat links carry their token in the query (``/g/<id>?t=…``, ``/ws/<id>?t=…``), and
uvicorn logs request lines (access log), WebSocket handshakes (error log, level INFO) and,
at ``trace`` level, whole ASGI scopes with their query strings and Referer headers. One
filter, installed on the loggers that write such lines and on their handlers, rewrites
each record before any handler formats it: the message, its arguments and any traceback.
"""

from __future__ import annotations

import logging
import re

# "t=" or "invite=" as a query parameter, wherever it appears: "?t=…", "&invite=…", and
# b't=…' in a logged ASGI scope. The value runs to the next separator.
_QUERY_SECRET = re.compile(r"(?<![A-Za-z0-9_])((?:t|invite)=)[^&\s'\"#]+")
# user:password@ in a URL.
_URL_PASSWORD = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*:)[^\s/]*@")
# The session cookie (Cookie and Set-Cookie headers, as uvicorn's trace level shows them) and
# the CSRF token header: (b'x-csrf-token', b'…').
_COOKIE = re.compile(r"((?:__Host-)?frontlines_session=)[^;\s'\"]+")
_CSRF = re.compile(r"(x-csrf-token['\"]?\s*[,:]\s*b?['\"]?)[^'\"\s,)]+", re.IGNORECASE)
# The loggers whose lines can carry a request target or a database URL.
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "frontlines", "frontlines.web",
           "sqlalchemy", "sqlalchemy.engine", "sqlalchemy.pool")
REDACTED = "***"


def redact(text: str) -> str:
    """``text`` with seat tokens, invite tickets, URL passwords, session cookies and CSRF
    tokens replaced by ``***``."""
    text = _QUERY_SECRET.sub(rf"\1{REDACTED}", text)
    text = _COOKIE.sub(rf"\1{REDACTED}", text)
    text = _CSRF.sub(rf"\1{REDACTED}", text)
    return _URL_PASSWORD.sub(rf"\1{REDACTED}@", text)


def mask_url(url: str) -> str:
    """A database URL fit to print: ``postgresql://ann:***@host/db``."""
    return _URL_PASSWORD.sub(rf"\1{REDACTED}@", url)


class RedactSecrets(logging.Filter):
    """Rewrites a record in place so every handler after it sees only the redacted text."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_frontlines_redacted", False):
            return True
        if not _redact_arguments(record):
            try:
                message = record.getMessage()
            except Exception:  # a broken format string: log what there is, redacted
                message = f"{record.msg!s} {record.args!r}"
            record.msg = redact(message)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        setattr(record, "_frontlines_redacted", True)  # noqa: B010 (LogRecord has no such field)
        return True


def _redact_arguments(record: logging.LogRecord) -> bool:
    """Redact the format string and each argument, keeping them apart: formatters such as
    uvicorn's access log read the arguments themselves (client, method, path, version,
    status), and fail on a record whose arguments were merged into its message."""
    if not isinstance(record.args, tuple) or not isinstance(record.msg, str):
        return False
    msg, args = record.msg, record.args
    record.msg = redact(msg)
    record.args = tuple(a if isinstance(a, int | float) else redact(a if isinstance(a, str) else str(a)) for a in args)
    try:
        record.getMessage()
    except Exception:  # an argument for %d that was not a number, a broken format string
        record.msg, record.args = msg, args
        return False
    return True


_FILTER = RedactSecrets()


def install() -> None:
    """Put the filter on the loggers above, on their handlers and on the root's handlers.

    Idempotent; called at start-up (after uvicorn configured logging) so that handlers an
    operator's logging configuration adds are covered too.
    """
    targets: list[logging.Filterer] = []
    for name in LOGGERS:
        logger = logging.getLogger(name)
        targets.append(logger)
        targets.extend(logger.handlers)
    targets.extend(logging.getLogger().handlers)
    for target in targets:
        if _FILTER not in target.filters:
            target.addFilter(_FILTER)


def uvicorn_log_config() -> dict[str, object]:
    """uvicorn's own logging configuration with the filter on both of its handlers."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, object] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": "frontlines.web.logs.RedactSecrets"}}
    handlers = config["handlers"]
    assert isinstance(handlers, dict)
    for handler in handlers.values():
        handler["filters"] = ["redact"]
    return config
