"""Screenshots of single moments of the web app for people to look at (issue 30): the tutorial's
Next button, replays, the table's links to the rules, the pass-and-play handover, a friend game's
creator waiting, War Machine's tracker, Medieval with face-down battlefields.

    .venv/bin/python artifacts/web/scenes.py --out DIR [--scenes a,b] [--langs en,fa] [--widths 390,1280]

Each shot is <scene>-<lang>-<width>.png in DIR (default: a folder under /tmp, never the work
tree's tracked files). Games are set up through the HTTP API with fixed seeds; the random bot's
replies are its own.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from webhelpers import LiveServer  # noqa: E402

SIZES = {390: 844, 1280: 900}
LANGS = ["en", "fa", "ja", "cs"]


def play_out(base: str, ruleset: str, seed: int, options: dict[str, str] | None = None, stop_at: int | None = None,
             opponent: str = "bot:random") -> tuple[str, str]:
    """A game against the random bot, this seat playing seeded random moves, to its end (or to
    the first own turn at ply ``stop_at``)."""
    g = httpx.post(f"{base}/api/games", json={"ruleset": ruleset, "opponent": opponent, "seed": seed,
                                               "seat": "0", "options": options or {}}).json()
    rng = random.Random(seed)
    deadline = time.time() + 120
    while time.time() < deadline:
        m = httpx.get(f"{base}/api/games/{g['id']}", params={"t": g["token"]}).json()
        v = m["view"]
        if v["to_move"] is None:
            break
        if v["to_move"] != v["viewer"] or not v["legal"]:
            time.sleep(0.05)
            continue
        if stop_at is not None and m["ply"] >= stop_at and {e["kind"] for e in v["legal"]} & {"play", "deploy"}:
            break
        e = rng.choice(v["legal"])
        httpx.post(f"{base}/api/games/{g['id']}/action", json={"t": g["token"], "text": e["text"], "ply": m["ply"]})
    return g["id"], g["token"]


Scene = Callable[[Any, str, str], None]  # (page, base, lang) -> the page ready for its picture


def learn_next_blocked(page: Any, base: str, lang: str) -> None:
    """Battle Line tutorial, step 2 before the move: Next is disabled; clicking it says why."""
    page.goto(f"{base}/learn/battleline?step=2&lang={lang}")
    page.wait_for_selector('#learn[data-step="2"]')
    page.click("#learn-next", force=True)
    page.wait_for_timeout(300)


def learn_claim(page: Any, base: str, lang: str) -> None:
    """Battle Line tutorial, step 7 after the claim: the proof is said."""
    page.goto(f"{base}/learn/battleline?step=7&lang={lang}")
    page.wait_for_selector('#learn[data-step="7"]')
    page.click('[data-tok="claim:1"]')
    page.wait_for_selector('#learn[data-done="true"]')


def replay_scene(ruleset: str, step_back: int) -> Scene:
    made: dict[str, tuple[str, str]] = {}

    def scene(page: Any, base: str, lang: str) -> None:
        if base not in made:
            made[base] = play_out(base, ruleset, 4)
        gid = made[base][0]
        page.goto(f"{base}/replay/{gid}?lang={lang}")
        page.wait_for_selector("#step-label:not(:empty)")
        page.click("#last")
        for _ in range(step_back):
            page.click("#prev")
        page.wait_for_timeout(400)
    return scene


def table_scene(ruleset: str, seed: int, plies: int, options: dict[str, str] | None = None, over: bool = False,
                anchor: str = "") -> Scene:
    made: dict[str, tuple[str, str]] = {}

    def scene(page: Any, base: str, lang: str) -> None:
        if base not in made:
            made[base] = play_out(base, ruleset, seed, options, None if over else plies)
        gid, token = made[base]
        page.goto(f"{base}/g/{gid}?t={token}&lang={lang}")
        page.wait_for_selector('#table[data-turn="over"]' if over else '#table[data-turn="me"]')
        if anchor:
            page.locator(anchor).scroll_into_view_if_needed()
        page.wait_for_timeout(400)
    return scene


def handover(page: Any, base: str, lang: str) -> None:
    """Pass and play after the first player's whole turn: the device changes hands."""
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="battleline"]', state="attached")
    page.check('input[name="kind"][value="hotseat"]')
    page.select_option("#seat", "first")
    page.click("#start")
    page.wait_for_selector('#table[data-turn="me"]')
    page.locator(".hand .card.selectable").first.click()
    page.locator(".slot.selectable").first.click()
    page.wait_for_selector(".deck.selectable")
    page.locator(".deck.selectable").first.click()
    page.wait_for_selector("#handover:not([hidden])")
    page.wait_for_timeout(300)


def friend_waiting(page: Any, base: str, lang: str) -> None:
    """A friend game's creator, the friend not yet come."""
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="battleline"]', state="attached")
    page.check('input[name="kind"][value="friend"]')
    page.select_option("#seat", "second")
    page.click("#start")
    page.wait_for_selector("#table[data-ply]")
    page.wait_for_selector("#invite:not([hidden])")
    page.wait_for_timeout(400)


def rules_scene(ruleset: str, query: str = "") -> Scene:
    def scene(page: Any, base: str, lang: str) -> None:
        page.goto(f"{base}/rules/{ruleset}?{query}&lang={lang}")
        page.wait_for_selector("h1")
    return scene


SCENES: dict[str, Scene] = {
    "learn-next-blocked": learn_next_blocked,
    "learn-claim": learn_claim,
    "replay-warmachine": replay_scene("warmachine", 6),
    "replay-battleline": replay_scene("battleline", 10),
    "table-battleline": table_scene("battleline", 3, 20),
    "table-warmachine-tracker": table_scene("warmachine", 2, 10, anchor="#tracker"),
    "medieval-face-down": table_scene("medieval", 11, 24, {"battlefields": "face_down", "battlefield_set": "house"}),
    "medieval-mixed": table_scene("medieval", 11, 24, {"battlefields": "mixed", "battlefield_set": "house"}),
    "medieval-face-down-over": table_scene("medieval", 11, 0, {"battlefields": "face_down", "battlefield_set": "house"},
                                           over=True),
    "handover": handover,
    "friend-waiting": friend_waiting,
    "rules-battleline": rules_scene("battleline"),
    "rules-schotten-totten-tactics": rules_scene("schotten-totten-tactics", "claim_timing=before_draw"),
    "rules-medieval": rules_scene("medieval"),
    "rules-warmachine": rules_scene("warmachine"),
    "table-links": table_scene("battleline", 3, 20, anchor=".actions-row"),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "frontlines-scenes"))
    ap.add_argument("--scenes", default=",".join(SCENES))
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--widths", default=",".join(map(str, SIZES)))
    ap.add_argument("--full", action="store_true", help="the whole page, not only the screen")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    widths = [int(w) for w in args.widths.split(",")]
    with tempfile.TemporaryDirectory() as tmp, LiveServer(f"sqlite:///{tmp}/scenes.db") as server, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for name in args.scenes.split(","):
            scene = SCENES[name]
            for lang in args.langs.split(","):
                for w in widths:
                    phone = w < 700
                    ctx = browser.new_context(viewport={"width": w, "height": SIZES.get(w, 900)}, is_mobile=phone,
                                              has_touch=phone, device_scale_factor=2 if phone else 1)
                    page = ctx.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e: errors.append(str(e)))  # noqa: B023
                    scene(page, server.base, lang)
                    path = out / f"{name}-{lang}-{w}.png"
                    page.screenshot(path=str(path), full_page=args.full)
                    print(path, *errors)
                    ctx.close()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
