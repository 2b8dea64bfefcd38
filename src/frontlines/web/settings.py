"""The web app's settings, as ``frontlines serve`` options and as environment variables.

One table for both ways of starting the app, so that they cannot drift apart:
``frontlines serve`` and ``uvicorn frontlines.web.app:app_from_env --factory`` build their
:class:`Settings` with :func:`from_args` from the same options. Every option may also be
given in the environment as ``FRONTLINES_<OPTION>`` (``--bot-lease 5`` is
``FRONTLINES_BOT_LEASE=5``, a flag is ``1``/``0``); a command-line option wins over its
variable. Standard library only: ``frontlines serve --help`` must work without the web extra.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from frontlines.web.fanout import Limits, LobbyLimits


@dataclass(frozen=True)
class Hashing:
    """argon2id's parameters for passwords: OWASP's recommended minimum (m = 19 MiB, t = 2,
    p = 1). Kept here, not in :mod:`frontlines.web.accounts`, so that ``frontlines serve
    --help`` needs no web extra."""

    time_cost: int = 2
    memory_kib: int = 19 * 1024
    lanes: int = 1

ENV_PREFIX = "FRONTLINES_"
DEFAULT_DATABASE = "sqlite:///frontlines.db"


@dataclass
class Settings:
    database: str = DEFAULT_DATABASE
    bot_executor: str = "process"  # "process" or "thread"
    bot_workers: int = max(1, min(4, (os.cpu_count() or 2) - 1))
    cache_games: int = 256
    bot_delay: float = 0.0  # seconds a bot waits before answering (feels less abrupt to people)
    # A bot that worked this many seconds of its own CPU time (or waited 4 times as long on
    # the wall clock) without an answer forfeits (frontlines.web.workers.within_limit).
    bot_timeout: float = 30.0
    # A client may choose the deal ("seed") only where this is on, and only against a bot or
    # in pass-and-play: for tests and for studying a known deal, never on a public server.
    seeded_deals: bool = False
    new_games_per_minute: float = 10.0  # per client address (IPv6: per /64); 0 turns it off
    abandon_unstarted_after: float = 3600.0  # seconds a game without a move stays live
    abandon_idle_after: float = 7 * 86400.0  # seconds after the last move
    limits: Limits = field(default_factory=Limits)  # caps on connections and messages
    lobby: LobbyLimits = field(default_factory=LobbyLimits)  # the lobby's caps and times (web/lobby.py)
    # Several processes on one PostgreSQL: a bot turn whose process stops renewing its lease
    # for this long is taken over by another; a stopping process lets bot turns in progress
    # finish for up to ``shutdown_grace`` seconds, then hands them over.
    bot_lease: float = 10.0
    shutdown_grace: float = 5.0
    # Every process looks this often for clocks that ran out and that no process flagged
    # (their process died): such a flag comes at most about this late (play/clocks.py).
    clock_sweep: float = 1.0
    # PostgreSQL connections of this process (SQLAlchemy's pool; see docs/deploy.md for N
    # processes against max_connections), besides the one that listens for game events.
    db_pool_size: int = 5
    db_max_overflow: int = 10
    db_pool_timeout: float = 30.0
    # Create or migrate the schema at start-up; without, refuse a database that is not at
    # the newest revision (`frontlines serve` on PostgreSQL: `frontlines db upgrade` does it).
    upgrade_database: bool = True
    # Accounts (frontlines.web.accounts, guard): origins besides the server's own whose pages
    # may send requests and open WebSockets here (space- or comma-separated); Secure session
    # cookies: "auto" (when the request came over TLS, a trusted proxy's X-Forwarded-Proto
    # included), "always" or "never"; failed logins allowed per account and per address in
    # ``login_window`` seconds; new accounts per address an hour (0: no limit).
    allowed_origins: str = ""
    secure_cookies: str = "auto"
    login_failures_per_account: int = 10
    login_failures_per_address: int = 30
    login_window: float = 900.0
    signups_per_hour: int = 10
    # argon2id's cost (not an option: tests make it cheap; accounts.Hashing's defaults are
    # OWASP's recommended minimum)
    password_hashing: Hashing = field(default_factory=Hashing)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that make the app's :class:`Settings` (not where it listens: that is the server's)."""
    parser.add_argument("--bot-workers", type=int, default=None, help="processes that run bot moves")
    parser.add_argument("--bot-threads", action="store_true", help="run bots in threads instead of processes")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot pauses before moving (default 0.3)")
    parser.add_argument("--bot-timeout", type=float, default=30.0,
                        help="seconds of its own CPU time a bot may think before it forfeits, with a wall-time "
                             "cap of four times that (default 30)")
    caps = parser.add_argument_group("caps (0: none)")
    caps.add_argument("--max-spectators", type=int, default=1000, help="spectators per game (default 1000)")
    caps.add_argument("--max-connections-per-address", type=int, default=32,
                      help="open WebSockets per client address (default 32; behind a proxy see docs/web.md)")
    caps.add_argument("--max-messages-per-second", type=float, default=20.0,
                      help="messages a connection may send a second on average (default 20)")
    caps.add_argument("--message-burst", type=int, default=100,
                      help="messages a connection may send at once before that rate applies (default 100)")
    caps.add_argument("--send-queue", type=int, default=64,
                      help="messages waiting for a connection before it is dropped as too slow (default 64)")
    caps.add_argument("--max-seeks-per-connection", type=int, default=3,
                      help="open seeks in the lobby one page may hold (default 3)")
    caps.add_argument("--max-seeks-per-address", type=int, default=10,
                      help="open seeks in the lobby one client address may hold (default 10)")
    caps.add_argument("--max-open-seeks", type=int, default=5000,
                      help="open seeks the lobby lists at once (default 5000)")
    parser.add_argument("--seek-grace", type=float, default=10.0, metavar="SECONDS",
                        help="a seek stays open this long after its creator's page left (a reload, a "
                             "reconnection; default 10)")
    parser.add_argument("--seek-lease", type=float, default=15.0, metavar="SECONDS",
                        help="several processes on one PostgreSQL: a seek whose process stops renewing it "
                             "for this long (the process died) is swept by another (default 15)")
    parser.add_argument("--new-games-per-minute", type=float, default=10.0,
                        help="games one client address (IPv6: one /64) may start per minute, in bursts "
                             "of as many (default 10; 0: no limit)")
    parser.add_argument("--abandon-unstarted", type=float, default=3600.0, metavar="SECONDS",
                        help="a game with no move leaves the live list after this long (default 3600)")
    parser.add_argument("--abandon-idle", type=float, default=7 * 86400.0, metavar="SECONDS",
                        help="a game leaves the live list this long after its last move (default 604800, a week)")
    parser.add_argument("--bot-lease", type=float, default=10.0, metavar="SECONDS",
                        help="several processes on one PostgreSQL: a bot turn whose process stops renewing "
                             "its lease for this long is taken over by another (default 10)")
    parser.add_argument("--shutdown-grace", type=float, default=5.0, metavar="SECONDS",
                        help="on SIGTERM, bot turns in progress may finish for this long before they are "
                             "handed to another process (default 5)")
    parser.add_argument("--clock-sweep", type=float, default=1.0, metavar="SECONDS",
                        help="how often each process looks for game clocks that ran out unflagged, as when "
                             "the process serving the game died (default 1)")
    pool = parser.add_argument_group("PostgreSQL connections of each process (docs/deploy.md)")
    pool.add_argument("--db-pool-size", type=int, default=5, metavar="N",
                      help="connections kept open (default 5)")
    pool.add_argument("--db-max-overflow", type=int, default=10, metavar="N",
                      help="connections opened beyond those under load, closed again after (default 10); "
                           "besides these, one more listens for game events")
    pool.add_argument("--db-pool-timeout", type=float, default=30.0, metavar="SECONDS",
                      help="how long a request waits for a connection when all are taken (default 30)")
    accounts = parser.add_argument_group("accounts (docs/web.md, Accounts; docs/deploy.md)")
    accounts.add_argument("--allowed-origins", type=_origins, default="", metavar="ORIGINS",
                          help="origins besides this server's own whose pages may send requests and open "
                               "WebSockets here, e.g. 'https://club.example' (space- or comma-separated)")
    accounts.add_argument("--secure-cookies", choices=("auto", "always", "never"), default="auto",
                          help="mark the session cookie Secure: auto (when the request came over TLS, or "
                               "through a proxy trusted for X-Forwarded-Proto; default), always, never")
    accounts.add_argument("--login-failures-per-account", type=int, default=10, metavar="N",
                          help="failed logins one account may have within --login-window (default 10)")
    accounts.add_argument("--login-failures-per-address", type=int, default=30, metavar="N",
                          help="failed logins one client address (IPv6: one /64) may make within "
                               "--login-window (default 30)")
    accounts.add_argument("--login-window", type=float, default=900.0, metavar="SECONDS",
                          help="the window failed logins are counted in (default 900)")
    accounts.add_argument("--signups-per-hour", type=int, default=10, metavar="N",
                          help="new accounts one client address may make an hour (default 10; 0: no limit)")
    parser.add_argument("--seeded-deals", action="store_true",
                        help="accept a client's seed for games against a bot or pass-and-play "
                             "(for tests and study; never on a public server)")


def from_args(args: argparse.Namespace) -> Settings:
    """The settings the options (:func:`add_arguments`, and ``--database``) ask for."""
    from frontlines.web.database import sqlite_file

    limits = Limits(spectators_per_game=max(0, args.max_spectators),
                    connections_per_address=max(0, args.max_connections_per_address),
                    messages_per_second=max(0.0, args.max_messages_per_second),
                    message_burst=max(1, args.message_burst), send_queue=max(1, args.send_queue))
    settings = Settings(database=args.database, bot_executor="thread" if args.bot_threads else "process",
                        bot_delay=max(0.0, args.bot_delay), bot_timeout=max(0.1, args.bot_timeout),
                        seeded_deals=args.seeded_deals,
                        new_games_per_minute=max(0.0, args.new_games_per_minute),
                        abandon_unstarted_after=max(1.0, args.abandon_unstarted),
                        abandon_idle_after=max(1.0, args.abandon_idle), limits=limits,
                        lobby=LobbyLimits(seeks_per_connection=max(0, args.max_seeks_per_connection),
                                          seeks_per_address=max(0, args.max_seeks_per_address),
                                          open_seeks=max(0, args.max_open_seeks),
                                          grace=max(0.0, args.seek_grace), lease=max(0.5, args.seek_lease)),
                        # The embedded SQLite file migrates itself; PostgreSQL, shared by several
                        # processes, is migrated once per deploy by `frontlines db upgrade`.
                        upgrade_database=sqlite_file(args.database) is not None,
                        bot_lease=max(0.5, args.bot_lease), shutdown_grace=max(0.0, args.shutdown_grace),
                        clock_sweep=min(60.0, max(0.05, args.clock_sweep)),
                        db_pool_size=max(1, args.db_pool_size), db_max_overflow=max(0, args.db_max_overflow),
                        db_pool_timeout=max(0.1, args.db_pool_timeout),
                        allowed_origins=args.allowed_origins, secure_cookies=args.secure_cookies,
                        login_failures_per_account=max(1, args.login_failures_per_account),
                        login_failures_per_address=max(1, args.login_failures_per_address),
                        login_window=max(1.0, args.login_window), signups_per_hour=max(0, args.signups_per_hour))
    if args.bot_workers:
        settings.bot_workers = max(1, args.bot_workers)
    return settings


def _origins(text: str) -> str:
    """``--allowed-origins``: each word an origin, ``scheme://host[:port]``."""
    from urllib.parse import urlsplit

    for word in text.replace(",", " ").split():
        parts = urlsplit(word)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
                or parts.query or parts.username:
            raise ValueError(word)
    return " ".join(text.replace(",", " ").split())


def env_name(option: str) -> str:
    """``--bot-lease`` -> ``FRONTLINES_BOT_LEASE``."""
    return ENV_PREFIX + option.removeprefix("--").upper().replace("-", "_")


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _from_env(name: str, convert: Callable[[str], Any] | None) -> Callable[[str], Any]:
    """A conversion that names the variable when its value is wrong (argparse shows the message)."""

    def parse(text: str) -> Any:
        try:
            return text if convert is None else convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid value {text!r} (from the command line or {name})") from None

    return parse


def _flag(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise ValueError(text)


def use_environment(parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None) -> None:
    """Take each option's default from ``FRONTLINES_<OPTION>`` where that is set.

    The variable's text is converted as the option's own would be, when the command line is
    parsed, so a wrong value is a usage error naming the variable (exit 2), not a traceback.
    """
    environ = os.environ if environ is None else environ
    for action in parser._actions:  # argparse has no public list of a parser's options
        names = [o for o in action.option_strings if o.startswith("--")]
        if not names or action.dest == "help":
            continue
        name = env_name(names[0])
        if name not in environ:
            continue
        flag = isinstance(action, argparse._StoreTrueAction)
        action.type = _from_env(name, _flag if flag else action.type)  # type: ignore[arg-type]
        # A string default goes through ``type`` when the option is not given.
        action.default = environ[name]


def from_environment(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings ``frontlines serve`` would use with no options, in this environment."""
    parser = argparse.ArgumentParser(prog="frontlines web app", exit_on_error=False)
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    add_arguments(parser)
    use_environment(parser, environ)
    try:
        return from_args(parser.parse_args([]))
    except argparse.ArgumentError as exc:
        raise ValueError(str(exc)) from None


__all__ = ["DEFAULT_DATABASE", "ENV_PREFIX", "Hashing", "Settings", "add_arguments", "env_name", "from_args",
           "from_environment", "use_environment"]
