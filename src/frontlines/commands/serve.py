"""``frontlines serve``: the web app (http://127.0.0.1:8000, SQLite file by default)."""

from __future__ import annotations

import argparse
import errno
import socket

from frontlines.commands.db import add_database_argument
from frontlines.core.errors import FrontlinesError
from frontlines.web import settings as web_settings

HELP = ("Start the web app: play in the browser against bots or a friend, watch and replay games. "
        "Every option may also be set in the environment: FRONTLINES_BOT_LEASE=5 for --bot-lease 5, "
        "FRONTLINES_SEEDED_DEALS=1 for a flag; the command line wins.")


class ListenError(FrontlinesError):
    """The address cannot be listened on: exit 2, a mistake to fix (a host this machine does
    not have, a port it may not use)."""

    exit_status = 2


class PortInUse(ListenError):
    """Another process listens on the port: exit 1, as for a database that did not answer,
    since it may pass by itself (the server before this one is still stopping)."""

    exit_status = 1


def listen_on(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of ``host`` at ``port`` (as asyncio's create_server
    binds them), made before the server starts, so that a port in use is one line before
    the banner and the app's start-up rather than uvicorn's error after them."""
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {host}: {exc.strerror}") from None
    bound: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            bound.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # one socket per family, as asyncio does
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                shown = address[0] if family == socket.AF_INET else f"[{address[0]}]"
                if exc.errno == errno.EADDRINUSE:
                    raise PortInUse(f"port {port} is in use on {shown} (another server?): "
                                    "stop it, or choose another port with --port") from None
                raise ListenError(f"cannot listen on {shown}:{port}: {exc.strerror}") from None
    except BaseException:
        for sock in bound:
            sock.close()
        raise
    return bound


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:  # NaN too
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_database_argument(parser)
    web_settings.add_arguments(parser)
    parser.add_argument("--ws-compression", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): a fifth of the bytes, but each "
                             "connection compresses each message again, the main cost of a large audience")
    parser.add_argument("--header-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                        help="seconds a client has to send a request's headers, from its connection or its previous "
                             "answer (default 10): a client that sends them a line at a time is cut off then")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    # Every option may also come from the environment: FRONTLINES_BOT_LEASE=5 is --bot-lease 5.
    web_settings.use_environment(parser)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (the web extra: a clear message below if it is missing)

        from frontlines.web import migrations
        from frontlines.web.app import create_app
        from frontlines.web.cluster import run_server
        from frontlines.web.database import sqlite_file
        from frontlines.web.deadline import header_deadline
        from frontlines.web.logs import mask_url, uvicorn_log_config
    except ImportError as exc:  # the web stack is an optional extra
        print(f"frontlines serve needs the web extra: pip install 'frontlines[web]' ({exc})")
        return 2
    # Before the port is bound: a wrong URL, a database that does not answer, a SQLite file
    # another server holds or a schema that is not at the newest revision ends here, in one
    # line (DatabaseError: exit 2, or 1 when the database did not answer). The embedded
    # SQLite default migrates itself; PostgreSQL, shared by several processes, is migrated
    # once per deploy by `frontlines db upgrade`.
    # A SQLite file's lock stays held for the life of the process; the kernel drops it at exit.
    migrations.prepare_held(args.database, allow_upgrade=sqlite_file(args.database) is not None)
    settings = web_settings.from_args(args)
    listeners = listen_on(args.host, args.port)  # a port in use: one line, before the banner
    app = create_app(settings)
    port = listeners[0].getsockname()[1]  # the one the system chose for --port 0
    print(f"Frontlines: http://{args.host}:{port}  (database {mask_url(args.database)})", flush=True)
    # Seat tokens ride in URLs: every uvicorn line goes through the redacting filter.
    # On SIGTERM the process drains first: bot turns handed over, clients told to reconnect.
    # uvicorn has no deadline for a request's headers: its HTTP protocol is given one.
    run_server(app, grace=settings.shutdown_grace, sockets=listeners, host=args.host, port=args.port,
               log_level=args.log_level, http=header_deadline(args.header_timeout),
               ws_max_size=64 * 1024, log_config=uvicorn_log_config(), ws_per_message_deflate=args.ws_compression)
    return 0
