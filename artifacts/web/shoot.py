"""Screenshots of the table for people to look at (issue 21): real games against a bot, set up
through the HTTP API, photographed in Debian's Chromium at phone, tablet and desktop sizes.

    .venv/bin/python artifacts/web/shoot.py [--out DIR] [--only NAME-FRAGMENT]

Each shot is <ruleset>-<lang>-<width>.png. The deal and this player's moves are fixed by
seeds; the bot's replies are its own, so positions differ a little from run to run.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from webhelpers import LiveServer  # noqa: E402

SIZES = {360: 740, 390: 844, 768: 1024, 1280: 900}
# (ruleset, plies to play before the picture, seed)
GAMES = [("battleline", 30, 3), ("schotten-totten", 26, 5), ("medieval", 30, 11), ("warmachine", 14, 2)]
OPTIONS = {"medieval": {"battlefields": "face_up", "battlefield_set": "house"}}
LANGS = ["en", "fa", "ja", "cs"]


def play_to(base: str, ruleset: str, plies: int, seed: int) -> tuple[str, str]:
    """A game against the random bot, played (randomly, but by seed) until at least ``plies``
    moves are made and it is this player's turn to put a card down."""
    g = httpx.post(f"{base}/api/games", json={"ruleset": ruleset, "opponent": "bot:random", "seed": seed,
                                               "seat": "0", "options": OPTIONS.get(ruleset, {})}).json()
    rng = random.Random(seed)
    deadline = time.time() + 60
    while time.time() < deadline:
        m = httpx.get(f"{base}/api/games/{g['id']}", params={"t": g["token"]}).json()
        v = m["view"]
        if v["to_move"] is None:
            break
        if v["to_move"] != v["viewer"] or not v["legal"]:
            time.sleep(0.05)
            continue
        kinds = {e["kind"] for e in v["legal"]}
        if m["ply"] >= plies and kinds & {"play", "deploy"}:
            break
        # keep the flags undecided for a fuller picture: claim nothing until late
        choices = [e for e in v["legal"] if e["kind"] != "claim"] or v["legal"]
        e = rng.choice(choices)
        httpx.post(f"{base}/api/games/{g['id']}/action", json={"t": g["token"], "text": e["text"], "ply": m["ply"]})
    return g["id"], g["token"]


def finished(base: str, ruleset: str, seed: int) -> tuple[str, str]:
    """A pass-and-play game played to its end by seeded random moves (both hands then open)."""
    from frontlines.games import new_state

    state, rng, texts = new_state(ruleset, seed=seed), random.Random(seed), []
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        entry = rng.choice(state.view(seat).to_dict()["legal"])
        texts.append(entry["text"])
        state.apply(state.parse_action(entry["text"]))
    g = httpx.post(f"{base}/api/games", json={"ruleset": ruleset, "opponent": "hotseat", "seed": seed}).json()
    for text in texts:
        httpx.post(f"{base}/api/games/{g['id']}/action", json={"t": g["token"], "text": text}).raise_for_status()
    return g["id"], g["token"]


def claimable(base: str) -> tuple[str, str]:
    """A pass-and-play Battle Line game (seeded random moves) at the first position where the
    mover may claim a flag: the claim button and its proof note."""
    from frontlines.games import new_state

    for seed in range(200):
        state, rng, texts = new_state("battleline", seed=seed), random.Random(seed), []
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            legal = state.view(seat).to_dict()["legal"]
            if len(texts) >= 12 and any(e["kind"] == "claim" for e in legal):
                g = httpx.post(f"{base}/api/games", json={"ruleset": "battleline", "opponent": "hotseat", "seed": seed}).json()
                for text in texts:
                    httpx.post(f"{base}/api/games/{g['id']}/action", json={"t": g["token"], "text": text}).raise_for_status()
                return g["id"], g["token"]
            entry = rng.choice([e for e in legal if e["kind"] != "claim"] or legal)
            texts.append(entry["text"])
            state.apply(state.parse_action(entry["text"]))
    raise SystemExit("no claimable position found")


def home_games(base: str) -> list[tuple[str, str]]:
    """Games for the home page's lists: one against the easy bot by a player named Ann, resigned
    (finished), one by an unnamed player still going, and a pass-and-play game of Ann and Bob."""
    games = []
    for body in ({"ruleset": "battleline", "opponent": "bot:easy", "seat": "0", "name": "Ann"},
                 {"ruleset": "schotten-totten", "opponent": "bot:easy", "seat": "0"},
                 {"ruleset": "warmachine", "opponent": "hotseat", "seat": "0", "name": "Ann", "other_name": "Bob"}):
        g = httpx.post(f"{base}/api/games", json=body).json()
        games.append((g["id"], g["token"]))
    httpx.post(f"{base}/api/games/{games[0][0]}/action", json={"t": games[0][1], "type": "resign"}).raise_for_status()
    return games


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "artifacts" / "web"))
    ap.add_argument("--only", default="")
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--widths", default=",".join(map(str, SIZES)))
    ap.add_argument("--rulesets", default=",".join(g[0] for g in GAMES))
    ap.add_argument("--pick", action="store_true", help="pick the first playable card before the picture")
    ap.add_argument("--over", action="store_true", help="a finished pass-and-play game (seed 5) instead")
    ap.add_argument("--claim", action="store_true", help="a Battle Line position with a flag to claim: claim-<lang>-<width>")
    ap.add_argument("--home", action="store_true", help="the home page's game lists instead: home-lists-<lang>-<width>")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    widths = [int(w) for w in args.widths.split(",")]
    with tempfile.TemporaryDirectory() as tmp, LiveServer(f"sqlite:///{tmp}/shots.db") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        special = home_games(server.base) if args.home else [claimable(server.base)] if args.claim else []
        for lang in args.langs.split(",") if special else ():
            for w in widths:
                name = f"{'home-lists' if args.home else 'claim'}-{lang}-{w}"
                ctx = browser.new_context(viewport={"width": w, "height": SIZES[w]}, is_mobile=w < 700,
                                          has_touch=w < 700, device_scale_factor=2 if w < 700 else 1)
                page = ctx.new_page()
                for gid, token in special:  # the browser remembers the games it has opened
                    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
                    page.wait_for_selector("#table[data-turn]")
                if args.home:
                    page.goto(f"{server.base}/?lang={lang}")
                    page.wait_for_selector("#my-games li")
                    page.wait_for_selector("#done-games li a")
                page.wait_for_timeout(400)
                page.screenshot(path=str(out / f"{name}.png"), full_page=args.home)
                print(out / f"{name}.png")
                ctx.close()
        for ruleset, plies, seed in GAMES if not special else ():
            if ruleset not in args.rulesets.split(","):
                continue
            gid, token = finished(server.base, ruleset, 5) if args.over else play_to(server.base, ruleset, plies, seed)
            for lang in args.langs.split(","):
                for w in widths:
                    name = f"{ruleset}-{lang}-{w}" + ("-picked" if args.pick else "") + ("-over" if args.over else "")
                    if args.only and args.only not in name:
                        continue
                    ctx = browser.new_context(viewport={"width": w, "height": SIZES[w]}, is_mobile=w < 700,
                                              has_touch=w < 700, device_scale_factor=2 if w < 700 else 1)
                    page = ctx.new_page()
                    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
                    page.wait_for_selector('#table[data-turn="over"]' if args.over else '#table[data-turn="me"]')
                    if args.pick:
                        page.locator(".hand .selectable").first.click()
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(out / f"{name}.png"))
                    print(out / f"{name}.png")
                    ctx.close()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
