"""The tutorials: every step's script holds under the real engine, and the routes answer
the learner's moves (the rules' reason for a refused move, a hint for another legal one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from webhelpers import make_client

from frontlines.web import i18n, learn


@pytest.fixture
def api(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


@pytest.mark.parametrize("key", list(learn.TUTORIALS))
def test_every_step_of_the_script_holds_under_the_rules(key: str) -> None:
    tut = learn.tutorial(key)
    assert tut.steps[-1].task == "read" and "Easy bot" in tut.steps[-1].say[-1]
    for i, step in enumerate(tut.steps):
        state = learn.start_of(tut, i)
        view = learn.step_payload(key, i)["view"]
        if step.task == "move":
            assert state.current_player() == 0
            assert {e["text"] for e in view["legal"]} >= set(step.do)
            answer = learn.try_move(key, i, step.do[0])
            assert answer["ok"] and answer["done"] == list(step.done)
        elif step.task == "refuse":  # the card named is refused (or refused somewhere), with a reason
            refusals = view["refusals"]
            assert step.refuse in refusals["cards"] or step.refuse in refusals.get("deploy", {}) \
                or step.refuse in refusals.get("flags", {})
    assert set(learn.tutorial_messages()) <= set(i18n.learn_messages())


def test_every_tactics_card_and_both_formation_families_are_taught() -> None:
    bl = learn.tutorial("battleline")
    played = {text.split("@")[0].split(":")[0] for s in bl.steps for text in s.do} | {s.refuse for s in bl.steps}
    assert {"AL", "DA", "CC", "SB", "FO", "MU", "SC", "RE", "DE", "TR", "claim"} <= played
    said = " ".join(t for s in bl.steps for t in s.say)
    assert all(name in said for name in ("Wedge", "Phalanx", "Battalion Order", "Skirmish Line", "Host", "tactics limit"))
    st = " ".join(t for s in learn.tutorial("schotten-totten").steps for t in s.say)
    assert all(name in st for name in ("Colour Run", "Three of a Kind", "Colour:", "Run:", "Sum:"))


def test_medieval_teaches_its_battlefields_and_ends_in_a_game_with_them() -> None:
    """Every battlefield of the house set is named, the refusals the lesson asks to read come
    from battlefields (the Marsh, the Forest and the Village), and the game against Easy at
    the end is dealt with the battlefields face up, as taught."""
    from frontlines.games.battleline.medieval import load_set

    tut = learn.tutorial("medieval")
    said = " ".join(t for s in tut.steps for t in (*s.say, *s.done))
    assert all(b.name in said for b in load_set("house").cards)
    assert all(name in said for name in ("Wedge", "Square", "Column", "Skirmish", "Rabble", "King of England"))
    refused = {}
    for i, step in enumerate(tut.steps):
        if step.task == "refuse":
            flags = learn.step_payload("medieval", i)["view"]["refusals"]["flags"][step.refuse]
            refused[step.refuse] = {f: r["params"]["battlefield"] for f, r in flags.items()}
    assert refused == {"R9": {"6": "Marsh"}, "AL": {"5": "Forest", "9": "Village"}}
    last = learn.step_payload("medieval", len(tut.steps) - 1)
    assert last["options"] == {"battlefields": "face_up", "battlefield_set": "house"}
    assert learn.step_payload("battleline", 0)["options"] == {}


def test_the_routes_answer_each_kind_of_move(api: TestClient) -> None:
    assert [t["key"] for t in api.get("/api/learn").json()] == ["battleline", "schotten-totten", "medieval", "warmachine"]
    step = api.get("/api/learn/battleline/2").json()
    assert step["index"] == 1 and step["task"] == "move" and step["view"]["viewer"] == 0
    assert api.post("/api/learn/battleline/2", json={"text": "R9@3"}).json() == {"ok": False, "hint": learn.WRONG_MOVE}
    refused = api.post("/api/learn/battleline/2", json={"text": "B1@1"}).json()
    assert refused["ok"] is False and refused["reason"]["code"] == "not_in_hand"
    assert api.post("/api/learn/battleline/2", json={"text": "nonsense"}).json()["reason"]["code"] == "not_legal"
    done = api.post("/api/learn/battleline/2", json={"text": "R8@1"}).json()
    assert done["ok"] and done["view"]["flags"][0]["sides"][0] == ["R8"]
    limited = api.post("/api/learn/battleline/12", json={"text": "CC@5"}).json()
    assert limited["reason"]["code"] == "tactics_limit"
    assert api.get("/api/learn/battleline/0").status_code == 404
    assert api.get("/api/learn/battleline/99").status_code == 404
    assert api.get("/api/learn/chess/1").status_code == 404
    assert api.post("/api/learn/battleline/2", json={"text": "R8@1", "x": 1}).status_code == 400
    page = api.get("/learn/warmachine?lang=fa")
    assert page.status_code == 200 and 'dir="rtl"' in page.text and "یادگیری بازی" in page.text
    assert api.get("/learn/chess").status_code == 404
    assert 'href="/learn"' in api.get("/").text


def test_a_claim_step_says_the_proof_its_words_promise() -> None:
    """Once a flag is claimed it has no proof note to show: the step's words that promise why
    the proof holds get it from the move's answer ({proof}), and only claim steps ask for it."""
    for key, tut in learn.TUTORIALS.items():
        for i, step in enumerate(tut.steps):
            if any("{proof}" in d for d in step.done):
                assert step.do and all(d.startswith("claim:") for d in step.do), (key, i)
    answer = learn.try_move("battleline", 6, "claim:1")
    assert answer["ok"] and "{proof}" in answer["done"][0]
    assert answer["proof"]["claimable"] and answer["proof"]["why"]["code"] == "unbeatable"
    assert answer["proof"]["why"]["params"]["mine"]["params"] == {"formation": "wedge", "sum": 27}
    assert answer["view"]["flags"][0]["claimed_by"] == 0 and answer["view"]["flags"][0]["claim"] is None
    assert learn.try_move("battleline", 1, "R8@1")["proof"] is None
