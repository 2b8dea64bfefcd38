"""The tutorials' pages and JSON routes (``learn.py`` holds the tutorials themselves), and
the rules summaries (``rules_summary.py``).

``GET /learn`` lists them, ``GET /learn/<key>`` is one tutorial's page; the page asks
``GET /api/learn/<key>/<step>`` for a step (1-based) and sends the learner's move to
``POST /api/learn/<key>/<step>`` as ``{"text": "R8@1"}``. Nothing is stored: each step's
position is worked out from the script. ``GET /rules`` lists the rulesets, ``GET
/rules/<ruleset>`` summarises one; the table links there with its game's options as the query
(``?claim_timing=after_play``), which the page marks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from frontlines.web import learn, rules_summary

Page = Callable[..., HTMLResponse]


class LearnMove(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    text: Annotated[str, Field(min_length=1, max_length=64)]


def _index(key: str, step: int) -> int:
    tut = learn.TUTORIALS.get(key)
    if tut is None or not 1 <= step <= len(tut.steps):
        raise HTTPException(404, "no such tutorial step")
    return step - 1


def install(app: FastAPI, page: Page) -> None:
    """Add the tutorials' routes to ``app``; ``page(request, template, **context)`` renders."""

    @app.get("/learn", response_class=HTMLResponse)
    async def learn_list(request: Request) -> HTMLResponse:
        return page(request, "learn.html", key="", tutorials=learn.tutorial_list())

    @app.get("/learn/{key}", response_class=HTMLResponse)
    async def learn_page(request: Request, key: str) -> HTMLResponse:
        if key not in learn.TUTORIALS:
            raise HTTPException(404, "no such tutorial")
        return page(request, "learn.html", key=key, tutorials=learn.tutorial_list())

    @app.get("/learn/for/{ruleset}")
    async def learn_for(request: Request, ruleset: str) -> RedirectResponse:
        """The lesson of a ruleset (the table's "Learn to play" link)."""
        key = rules_summary.TUTORIAL_OF.get(ruleset)
        if key is None:
            raise HTTPException(404, "no such ruleset")
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/learn/{key}{query}", status_code=303)

    @app.get("/rules", response_class=HTMLResponse)
    async def rules_list(request: Request) -> HTMLResponse:
        from frontlines.games import all_rulesets

        titles = {r.name: r.title for r in all_rulesets()}
        return page(request, "rules.html", summary=None,
                    rulesets=[(name, titles[name]) for name in rules_summary.rulesets()])

    @app.get("/rules/{ruleset}", response_class=HTMLResponse)
    async def rules_page(request: Request, ruleset: str) -> HTMLResponse:
        if ruleset not in rules_summary.rulesets():
            raise HTTPException(404, "no such ruleset")
        chosen = {k: v for k, v in request.query_params.items() if k != "lang"}
        return page(request, "rules.html", summary=rules_summary.summary(ruleset, chosen))

    @app.get("/api/learn")
    async def learn_api_list() -> list[dict[str, str]]:
        return learn.tutorial_list()

    @app.get("/api/learn/{key}/{step}")
    async def learn_step(key: str, step: int) -> dict[str, Any]:
        return learn.step_payload(key, _index(key, step))

    @app.post("/api/learn/{key}/{step}")
    async def learn_move(key: str, step: int, body: LearnMove) -> dict[str, Any]:
        return learn.try_move(key, _index(key, step), body.text)
