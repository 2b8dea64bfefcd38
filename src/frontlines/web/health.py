"""Probes for a load balancer or an orchestrator.

``GET /healthz``: the process is alive and its event loop answers (200; touches nothing
else, so a slow database never gets a live process restarted).

``GET /readyz``: this process should be sent traffic: the database answers, every revision
this code knows is applied (a newer schema, migrated for the next release during a rolling
deploy, still counts), and the process is not shutting down. 200
``{"status": "ready", "revision": …}``, else 503 ``{"status": "unavailable", "reason": …}``
with a short reason (the driver's own words go to the log only: they may name internal
hosts).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from frontlines.web.database import one_line

log = logging.getLogger("frontlines.web")
# Seconds /readyz waits for the database before it answers 503 (probes time out themselves).
READY_TIMEOUT = 3.0


def _answer(code: int, **body: Any) -> JSONResponse:
    return JSONResponse(body, status_code=code, headers={"cache-control": "no-store"})


def add_routes(app: FastAPI) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        return _answer(200, status="alive")

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        state = request.app.state
        manager = getattr(state, "manager", None)
        # Draining (SIGTERM, several processes): the balancer should send new clients elsewhere.
        if manager is None or getattr(state, "stopping", False) or getattr(manager, "draining", False):
            return _answer(503, status="unavailable", reason="starting or shutting down")
        loop = asyncio.get_running_loop()
        try:
            found = await asyncio.wait_for(loop.run_in_executor(None, manager.store.ready), READY_TIMEOUT)
        except TimeoutError:
            return _answer(503, status="unavailable", reason=f"database did not answer within {READY_TIMEOUT:g} s")
        except SQLAlchemyError as exc:
            log.warning("readyz: database unreachable: %s", one_line(exc))
            return _answer(503, status="unavailable", reason="database unreachable")
        if found.state == "newer":
            # A rolling deploy: `frontlines db upgrade` ran for the next release, which keeps
            # the previous one working (revisions add, then remove only what no release uses);
            # this process serves on until it is restarted.
            return _answer(200, status="ready", revision=",".join(found.current), note="schema newer than this process")
        if found.state != "current":
            return _answer(503, status="unavailable", reason=f"database schema {found.describe()}")
        return _answer(200, status="ready", revision=",".join(found.current))
