"""``frontlines serve``: the web app (http://127.0.0.1:8000, SQLite file by default)."""

from __future__ import annotations

import argparse
import logging
import os
import re

# Seat links carry their token as ?t=…; an access log must not hand seats to whoever reads it.
_TOKEN = re.compile(r"([?&]t=)[^&\s]+")


class RedactSeatTokens(logging.Filter):
    """Replace seat tokens in uvicorn's access-log lines with ``***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
        return True

HELP = "Start the web app: play in the browser against bots or a friend, watch and replay games."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--database", default=os.environ.get("FRONTLINES_DATABASE", "sqlite:///frontlines.db"),
                        help="sqlite:///FILE (default sqlite:///frontlines.db) or postgresql://user:pw@host/db")
    parser.add_argument("--bot-workers", type=int, default=None, help="processes that run bot moves")
    parser.add_argument("--bot-threads", action="store_true", help="run bots in threads instead of processes")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot pauses before moving (default 0.3)")
    parser.add_argument("--bot-timeout", type=float, default=30.0,
                        help="seconds a bot may think before it forfeits (default 30)")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from frontlines.web.app import Settings, create_app
    except ImportError as exc:  # the web stack is an optional extra
        print(f"frontlines serve needs the web extra: pip install 'frontlines[web]' ({exc})")
        return 2
    settings = Settings(database=args.database, bot_executor="thread" if args.bot_threads else "process",
                        bot_delay=max(0.0, args.bot_delay), bot_timeout=max(0.1, args.bot_timeout))
    if args.bot_workers:
        settings.bot_workers = max(1, args.bot_workers)
    app = create_app(settings)
    print(f"Frontlines: http://{args.host}:{args.port}  (database {args.database})", flush=True)
    logging.getLogger("uvicorn.access").addFilter(RedactSeatTokens())
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=64 * 1024)
    return 0
