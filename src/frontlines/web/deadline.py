"""A deadline for a request's headers, which uvicorn does not have (``frontlines serve``).

uvicorn waits for a request's headers as long as bytes keep coming: a client that sends one
header line every two seconds (a "slowloris") holds its connection, a file descriptor and a
place under the process's limits for ever, and a few hundred such clients fill a server.
uvicorn's ``timeout_keep_alive`` only closes a connection on which nothing at all arrives
after a response (any byte cancels it), and ``h11_max_incomplete_event_size`` bounds the
size of the headers, not their time.

:func:`header_deadline` wraps the HTTP protocol uvicorn would use (httptools, or h11 without
it): each request's headers must be complete within the deadline of the connection's start
or of the previous response's end; otherwise the connection is answered 408 and closed. A
request whose headers have arrived is not timed here (its body and the answer are the app's
business), nor is a WebSocket once upgraded.
"""

from __future__ import annotations

import asyncio
from typing import Any

TIMEOUT_RESPONSE = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def header_deadline(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (``http=`` of its config) with a deadline of ``seconds``
    for each request's headers."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol

    class HeaderDeadline(base):  # type: ignore[misc]  # uvicorn's classes are untyped here
        _timer: asyncio.TimerHandle | None = None
        _waiting: Any = None  # the request cycle that was current when the clock started

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._start_clock()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._timer is not None and (self.cycle is not self._waiting or not self._ours()):
                self._stop_clock()  # the headers are in (a new request cycle), or upgraded

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._start_clock()  # the next request on this connection, if one comes

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_clock()
            super().connection_lost(exc)

        def _ours(self) -> bool:
            return bool(self.transport.get_protocol() is self)

        def _start_clock(self) -> None:
            self._stop_clock()
            self._waiting = self.cycle
            self._timer = self.loop.call_later(seconds, self._out_of_time)

        def _stop_clock(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _out_of_time(self) -> None:
            self._timer = None
            if self.transport.is_closing() or not self._ours():
                return
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request being answered (a pipelined one): its end starts the clock again
            self.transport.write(TIMEOUT_RESPONSE)
            self.transport.close()

    return HeaderDeadline
