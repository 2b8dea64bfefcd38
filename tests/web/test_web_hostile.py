"""The hostile client (issue 19): hypothesis sends every HTTP route and every WebSocket message
type what a stranger might, on SQLite and PostgreSQL, and the leak property is checked
mechanically: change the cards a connection cannot see in the real state, and every message
that connection receives must stay the same."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_api import RULESET, create
from webhelpers import make_client

from conftest import _fresh_pg_database
from frontlines.games import parse_state
from frontlines.web.fanout import Limits

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'web.db'}"
    else:
        url = _fresh_pg_database(request.getfixturevalue("pg_server"))
    with make_client(url) as client:
        yield client


@pytest.fixture(scope="module")
def games(server: TestClient) -> dict[str, dict[str, Any]]:
    """Games of every kind to aim at: live, finished, against a bot, pass-and-play."""
    done = create(server)
    server.post(f"/api/games/{done['id']}/action", json={"t": done["token"], "type": "resign"})
    return {"friend": create(server), "finished": done, "hotseat": create(server, opponent="hotseat"),
            "bot": create(server, opponent="bot:random", seat=1)}


# --- what a stranger sends ----------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
nasty_text = st.text(max_size=40) | st.sampled_from(
    ["", "\x00", "a\x00b", "\u202e", "../..", "%00", "x" * 300, "' OR 1=1 --", "<script>", "\ud800", "１", "-1"])


def with_nasty(games: dict[str, dict[str, Any]]) -> st.SearchStrategy[str]:
    real = [g["id"] for g in games.values()] + [g["token"] for g in games.values()]
    return st.sampled_from(real) | nasty_text


def url_quote(text: str) -> str:
    return quote(text, safe="", errors="surrogatepass")


ROUTES = [
    ("GET", "/"), ("GET", "/g/{id}"), ("GET", "/replay/{id}"), ("GET", "/i18n/{x}.json"), ("GET", "/static/{x}"),
    ("GET", "/api/rulesets"), ("GET", "/api/stats"), ("GET", "/api/games"), ("GET", "/api/games/{id}"),
    ("GET", "/api/games/{id}/record.txt"), ("GET", "/api/games/{id}/record.json"), ("GET", "/api/games/{id}/replay"),
    ("GET", "/api/games/{id}/replay/{x}"), ("POST", "/api/games"), ("POST", "/api/games/{id}/action"),
    ("POST", "/api/games/{id}/claim"), ("POST", "/api/games/{id}/invite"), ("GET", "/{x}"), ("POST", "/api/games/{id}"),
]


def bodies(games: dict[str, dict[str, Any]]) -> st.SearchStrategy[Any]:
    word = with_nasty(games)
    new_game = st.fixed_dictionaries({}, optional={
        "ruleset": st.sampled_from([RULESET, "battleline", "warmachine"]) | word, "opponent":
        st.sampled_from(["friend", "hotseat", "bot:random"]) | word, "seat": st.sampled_from(["0", "1", "random", 0, 1])
        | json_values, "name": word | json_values, "options": st.dictionaries(word, word, max_size=3) | json_values,
        "seed": st.integers() | json_values, "t": word, "text": word, "ply": st.integers() | json_values,
        "type": st.sampled_from(["action", "resign"]) | word, "invite": word})
    return new_game | json_values


@FUZZ
@given(data=st.data())
def test_every_route_answers_bad_requests_with_4xx(server: TestClient, games: dict[str, dict[str, Any]],
                                                   data: st.DataObject) -> None:
    method, template = data.draw(st.sampled_from(ROUTES))
    word = with_nasty(games)
    # Lone surrogates go out as the bytes Python would give them: invalid UTF-8 on the wire.
    path = template.replace("{id}", url_quote(data.draw(word))).replace("{x}", url_quote(data.draw(word)))
    params = data.draw(st.dictionaries(st.sampled_from(["t", "status", "ids", "seat", "lang", "invite"]), word, max_size=3))
    if params:
        path += "?" + "&".join(f"{k}={url_quote(v)}" for k, v in params.items())
        params = {}
    header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
    headers = {"Accept-Language": data.draw(header_text), "Cookie": f"lang={data.draw(header_text)}"}
    if method == "GET":
        r = server.get(path, params=params, headers=headers)
    elif data.draw(st.booleans()):
        r = server.post(path, params=params, json=data.draw(bodies(games)), headers=headers)
    else:
        headers["Content-Type"] = data.draw(st.sampled_from(["application/json", "text/plain", ""]))
        r = server.post(path, params=params, content=data.draw(st.binary(max_size=200)), headers=headers)
    assert r.status_code < 500, (method, path, r.text[:200])
    if r.status_code >= 400 and path.startswith("/api/"):
        body = r.json()
        assert isinstance(body.get("detail") or body.get("message"), str), body


ws_messages = (
    st.builds(json.dumps, st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "resign", "name", "ping", "sync"]) | st.text(max_size=8) | json_values},
        optional={"text": nasty_text | json_values, "ply": st.integers() | json_values, "name": nasty_text | json_values}))
    | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
    | st.integers(1, 5000).map(lambda n: "[" * n)
    | st.builds(json.dumps, json_values)
)


@FUZZ
@given(who=st.sampled_from(["seat", "other", "spectator", "ticket", "forged"]), messages=st.lists(ws_messages, min_size=1, max_size=6))
def test_every_message_type_answers_bad_messages_without_internal(server: TestClient, who: str, messages: list[str]) -> None:
    game = create(server)
    token = {"seat": game["token"], "other": game["friend_token"], "spectator": "", "ticket": game["invite_token"],
             "forged": "%00" + "A" * 40}[who]
    with server.websocket_connect(f"/ws/{game['id']}?t={token}") as ws:
        first = ws.receive_json()
        if first["type"] == "error":  # a token that is not a seat says so, then watches
            assert first["code"] == "bad_token"
            ws.receive_json()
        for raw in messages:
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] in ("view", "pong", "error"), reply
            assert reply.get("code") != "internal", (raw[:60], reply)


# --- the leak property ------------------------------------------------------------------------
_TROOP = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9]))(?![0-9])")
_TACTICS = ("AL", "DA", "CC", "SB", "FO", "MU", "SC", "RE", "DE", "TR")
_ANY = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9])|AL|DA|CC|SB|FO|MU|SC|RE|DE|TR)(?![A-Za-z0-9])")
# War Machine cards (docs/warmachine.md): two country letters, war machine first. In a message
# each stands alone (``GI``, ``GI^3``, ``burn:GI``); in notation piles and hands run them
# together (``piles=URGRBIBG/...``), and no other upper-case letters stand side by side there.
_WM_MENTIONED = re.compile(r"(?<![A-Za-z])([GIJBUR]{2})(?![A-Za-z])")
_WM_CARD = re.compile(r"[GIJBUR]{2}")


def hidden_from(view: dict[str, Any], setup: str) -> list[list[str]]:
    """The cards this view cannot place, in groups whose cards can take each other's places
    (Battle Line: troops, tactics; War Machine: every card in a pile, a hand, a burn or the
    leftover at the deal): never mentioned in the view, except in its list of unseen troops."""
    rest = json.dumps({k: v for k, v in view.items() if k != "unseen"})
    if view["game"] == "warmachine":
        mentioned = set(_WM_MENTIONED.findall(rest))
        return [sorted(c for c in set(_WM_CARD.findall(setup)) if c not in mentioned)]
    mentioned = set(_ANY.findall(rest))
    troops = [c for c in view.get("unseen") or [] if c not in mentioned]
    tactics = [c for c in _TACTICS if c not in mentioned]
    return [troops, tactics]


def altered_state(setup: str, actions: list[str], hidden: list[list[str]], rng: random.Random) -> Any:
    """The same game with the hidden cards exchanged among themselves, each group within
    itself: the setup and every action are rewritten with one permutation of those cards,
    then replayed."""
    swap: dict[str, str] = {}
    for group in hidden:
        shuffled = group[:]
        rng.shuffle(shuffled)
        swap.update(zip(group, shuffled, strict=True))
    card = _WM_CARD if setup.startswith("warmachine") else _ANY

    def rename(text: str) -> str:
        return card.sub(lambda m: swap.get(m.group(0), m.group(0)), text)

    state = parse_state(rename(setup))
    for text in actions:
        state.apply(state.parse_action(rename(text)))
    return state


def probes(ruleset: str, hidden: list[list[str]], rng: random.Random) -> list[dict[str, Any]]:
    """Moves a client might send to fish for hidden cards: playing, burning, taking or
    returning cards it does not hold (never legal: the cards are not in its hand), and
    garbage. Their answers must not depend on where those cards are."""
    cards = [c for group in hidden for c in group]
    out: list[dict[str, Any]] = [{"type": "action", "text": "?"}, {"type": "action"}, {"type": "sync", "ply": -1}]
    for c in rng.sample(cards, min(2, len(cards))):
        if ruleset == "warmachine":
            texts = [f"{c}^{rng.randint(1, 6)}", f"{c}v{rng.randint(1, 6)}", f"burn:{c}", f"take1:{c}"]
        else:
            texts = [f"{c}@{rng.randint(1, 9)}", f"return:{c}", f"DE:{c}", f"TR:{c}>{rng.randint(1, 9)}"]
        out += [{"type": "action", "text": t} for t in texts]
    return out


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # Which cards a message may depend on has nothing to do with the database: SQLite only.
    # The message-rate cap (tested in test_web_fanout) is lifted: these sockets play whole
    # games as fast as the server answers, with a sync after every move.
    url = f"sqlite:///{tmp_path_factory.mktemp('leak') / 'web.db'}"
    with make_client(url, limits=Limits(messages_per_second=0)) as client:
        yield client


def check_no_message_depends_on_hidden_cards(server: TestClient, ruleset: str, seed: int,
                                             options: dict[str, str] | None = None) -> None:
    """Two games of ``ruleset`` (between friends, pass-and-play) played at random through
    their sockets; at every ply one audience (a seat, the other seat, a spectator, the
    pass-and-play seat) is asked for its view and sends :func:`probes`, then asked again
    with the hidden cards exchanged in the server's state: every answer, on the socket and
    over HTTP, must be the same."""
    rng = random.Random(seed)
    friend = create(server, ruleset=ruleset, options=options)
    hotseat = create(server, opponent="hotseat", ruleset=ruleset, seed=seed, options=options)
    manager = server.app.state.manager  # type: ignore[attr-defined]
    audiences: list[tuple[str, str, str]] = [  # (game, token, name)
        (friend["id"], friend["token"], "seat 0"), (friend["id"], friend["friend_token"], "seat 1"),
        (friend["id"], "", "spectator"), (hotseat["id"], hotseat["token"], "pass-and-play")]
    changed = 0
    with server.websocket_connect(f"/ws/{friend['id']}?t={friend['token']}") as w0, \
            server.websocket_connect(f"/ws/{friend['id']}?t={friend['friend_token']}") as w1, \
            server.websocket_connect(f"/ws/{friend['id']}") as spec, \
            server.websocket_connect(f"/ws/{hotseat['id']}?t={hotseat['token']}") as both:
        socks = [w0, w1, spec, both]
        last = [ws.receive_json() for ws in socks]
        # The later joins: seat 1 coming online re-sends seat 0 its view; a spectator's
        # arrival changes no seat's presence, so nobody else hears of it (quiet arrivals).
        for ws, n in zip(socks, (1, 0, 0, 0), strict=True):
            for _ in range(n):
                last[socks.index(ws)] = ws.receive_json()
        for ply in range(400):
            active = False
            # The seat to move in each game plays through its own socket; every socket of
            # that game receives the new view.
            for mover in (0, 1, 3):
                msg = last[mover]
                if msg["status"] != "active" or not msg["view"]["legal"]:
                    continue
                active = True
                socks[mover].send_json({"type": "action", "text": rng.choice(msg["view"]["legal"])["text"]})
                for i, (g, _t, _n) in enumerate(audiences):
                    if g == audiences[mover][0]:
                        last[i] = socks[i].receive_json()
                        assert last[i]["type"] == "view", last[i]
            if not active:
                break
            # One audience a ply, in turn: the real messages, then the same with the hidden
            # cards exchanged (every audience is checked about 30 times a game).
            for i, (ws, (gid, token, name)) in enumerate(zip(socks, audiences, strict=True)):
                game = manager.games[gid]
                if i != ply % len(audiences):
                    continue
                if game.state.is_terminal():
                    continue
                ws.send_json({"type": "sync"})
                real = ws.receive_json()
                real_http = server.get(f"/api/games/{gid}", params={"t": token}).json()
                hidden = hidden_from(real["view"], game.stored.setup)
                fishing = probes(ruleset, hidden, rng)
                answers = []
                for probe in fishing:
                    ws.send_json(probe)
                    answers.append(ws.receive_json())
                state = game.state
                other = altered_state(game.stored.setup, game.stored.actions, hidden, rng)
                changed += other.to_notation() != state.to_notation()
                game.state = other
                try:
                    ws.send_json({"type": "sync"})
                    assert ws.receive_json() == real, (name, ply)
                    assert server.get(f"/api/games/{gid}", params={"t": token}).json() == real_http, (name, ply)
                    for probe, answer in zip(fishing, answers, strict=True):
                        ws.send_json(probe)
                        assert ws.receive_json() == answer, (name, ply, probe)
                finally:
                    game.state = state
    assert changed > 10  # the exchange really moved hidden cards


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ruleset=st.sampled_from(["battleline", "schotten-totten", "battleline-basic"]), seed=st.integers(0, 2**32))
def test_no_message_depends_on_a_card_its_receiver_cannot_see(sqlite_server: TestClient, ruleset: str, seed: int) -> None:
    check_no_message_depends_on_hidden_cards(sqlite_server, ruleset, seed)


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_no_war_machine_message_depends_on_a_card_its_receiver_cannot_see(sqlite_server: TestClient, seed: int) -> None:
    # Hidden in War Machine: the opponent's hand, every support pile, the opponent's
    # face-down burns and the leftover cards of the deal.
    check_no_message_depends_on_hidden_cards(sqlite_server, "warmachine", seed)


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_no_war_machine_message_tells_the_shuffler_what_the_chooser_saw(sqlite_server: TestClient, seed: int) -> None:
    # A seen choice: the chooser looks at the three leftover cards and keeps knowing them
    # (its view's leftover_seen); the shuffler and spectators must learn nothing of the
    # chooser's cards from it.
    check_no_message_depends_on_hidden_cards(sqlite_server, "warmachine", seed, {"leftover_choice_blind": "false"})
