"""The server's own CPU per page of a lobby broadcast, without sockets: ``--pages`` connections
(web/fanout.py's Client, each with its writer task) on a sender that does nothing, and
``--messages`` messages to all of them through fanout.Broadcast (or, in a checkout without
it, queued on each in turn). What it leaves out is uvicorn's and websockets' part of a send
(about half of it in ``bench_lobby.py --profile``); what it measures is ours: the queues, the
writers' wake-ups, the slices.

    .venv/bin/python benchmarks/bench_fanout.py --pages 2000 --messages 200 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Mapping
from typing import Any

from frontlines.web import fanout


class NullSocket:
    delivered = 0  # messages "sent", all sockets together

    async def send_text(self, data: str) -> None:
        NullSocket.delivered += 1

    async def receive(self) -> Mapping[str, Any]:
        await asyncio.Event().wait()
        return {}

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


async def once(pages: int, messages: int) -> float:
    """CPU seconds per page-message."""
    clients = [fanout.Client(NullSocket(), None, f"page {i}", queue=messages + 1) for i in range(pages)]
    for client in clients:
        client.start()
    await asyncio.sleep(0)
    text = '{"type":"seeks","add":[],"remove":["x"]}'
    broadcast = getattr(fanout, "Broadcast", None)
    sender = broadcast(lambda: clients) if broadcast is not None else None
    NullSocket.delivered = 0
    start = time.process_time()
    for n in range(1, messages + 1):
        if sender is not None:
            sender.send(text)
        else:
            for client in clients:
                client.send(text)
        while NullSocket.delivered < n * pages:
            await asyncio.sleep(0)
    spent = time.process_time() - start
    for client in clients:
        await client.stop()
    return spent / (pages * messages)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    per_page = [asyncio.run(once(args.pages, args.messages)) for _ in range(args.runs)]
    print(f"{statistics.median(per_page) * 1e6:.2f} us of CPU per page-message (median of {args.runs}; "
          f"runs {', '.join(f'{x * 1e6:.2f}' for x in per_page)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
