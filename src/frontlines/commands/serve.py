"""``frontlines serve``: the web app (http://127.0.0.1:8000, SQLite file by default)."""

from __future__ import annotations

import argparse

from frontlines.commands.db import add_database_argument

HELP = "Start the web app: play in the browser against bots or a friend, watch and replay games."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_database_argument(parser)
    parser.add_argument("--bot-workers", type=int, default=None, help="processes that run bot moves")
    parser.add_argument("--bot-threads", action="store_true", help="run bots in threads instead of processes")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot pauses before moving (default 0.3)")
    parser.add_argument("--bot-timeout", type=float, default=30.0,
                        help="seconds a bot may think before it forfeits (default 30)")
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
    parser.add_argument("--ws-compression", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): a fifth of the bytes, but each "
                             "connection compresses each message again, the main cost of a large audience")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
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
    parser.add_argument("--seeded-deals", action="store_true",
                        help="accept a client's seed for games against a bot or pass-and-play "
                             "(for tests and study; never on a public server)")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (the web extra: a clear message below if it is missing)

        from frontlines.web import migrations
        from frontlines.web.app import Settings, create_app
        from frontlines.web.cluster import run_server
        from frontlines.web.database import lock_sqlite, sqlite_file, unlock_sqlite
        from frontlines.web.fanout import Limits
        from frontlines.web.logs import mask_url, uvicorn_log_config
    except ImportError as exc:  # the web stack is an optional extra
        print(f"frontlines serve needs the web extra: pip install 'frontlines[web]' ({exc})")
        return 2
    # Before the port is bound: a wrong URL, a database that does not answer, a SQLite file
    # another server holds or a schema that is not at the newest revision ends here, in one
    # line (DatabaseError: exit 2, or 1 when the database did not answer). The embedded
    # SQLite default migrates itself; PostgreSQL, shared by several processes, is migrated
    # once per deploy by `frontlines db upgrade`.
    embedded = sqlite_file(args.database) is not None
    held = lock_sqlite(args.database)  # held for the life of the process; the kernel drops it at exit
    try:
        migrations.prepare(args.database, allow_upgrade=embedded)
    except BaseException:
        unlock_sqlite(held)
        raise
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
                        upgrade_database=embedded, bot_lease=max(0.5, args.bot_lease),
                        shutdown_grace=max(0.0, args.shutdown_grace))
    if args.bot_workers:
        settings.bot_workers = max(1, args.bot_workers)
    app = create_app(settings)
    print(f"Frontlines: http://{args.host}:{args.port}  (database {mask_url(args.database)})", flush=True)
    # Seat tokens ride in URLs: every uvicorn line goes through the redacting filter.
    # On SIGTERM the process drains first: bot turns handed over, clients told to reconnect.
    run_server(app, grace=settings.shutdown_grace, host=args.host, port=args.port, log_level=args.log_level,
               ws_max_size=64 * 1024, log_config=uvicorn_log_config(), ws_per_message_deflate=args.ws_compression)
    return 0
