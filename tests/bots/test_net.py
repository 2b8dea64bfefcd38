"""The flag network (frontlines.bots.net): view-only facts, the exact combinator, the
hand-written gradients, the weights file's checks, the labels of the data, training,
the one-ply bot and its fallback without numpy."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, cast

import pytest

from frontlines.bots.heuristic import HeuristicBot, policy_for
from frontlines.bots.heuristic_battleline import game_value
from frontlines.bots.net import features
from frontlines.bots.net.data import (
    Afterstate,
    after_plays,
    afterstates,
    heuristic_game,
    play_out,
    play_to_end,
    positions,
    read_records,
    write_records,
)
from frontlines.games import new_state
from frontlines.games.battleline.codes import NUM_FLAGS
from frontlines.games.battleline.state import BattleLineState

np = pytest.importorskip("numpy")

from frontlines.bots.net.model import HEAD, TOWER, FlagNet, WeightsError, combine, stack  # noqa: E402
from frontlines.bots.net.train import Adam, Arrays, arrays, fit, losses, split, td_targets  # noqa: E402
from frontlines.bots.net.value import Evaluator  # noqa: E402


def _midgame(ruleset: str, seed: int, moves: int = 30) -> BattleLineState:
    state = cast(BattleLineState, new_state(ruleset, seed=seed))
    bots = [HeuristicBot(seed=seed), HeuristicBot(seed=seed + 1)]
    for _ in range(moves):
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state.view(player)))
    return state


@pytest.mark.parametrize("ruleset", ["battleline", "battleline-basic", "schotten-totten-tactics", "medieval"])
def test_facts_read_only_the_players_view(ruleset: str) -> None:
    """Every deal consistent with a player's view gives the same facts, and so does the
    view itself: hidden cards are never read."""
    state = _midgame(ruleset, 11)
    for player in (0, 1):
        got = features.facts(state, player)
        assert len(got.flag_numbers()) == NUM_FLAGS * features.FLAG_SIZE and len(got.glob) == features.GLOBAL_SIZE
        assert len(got.places) == 70 and all(0 <= i < features.NUM_PLACES for i in got.places)
        view = state.view(player)
        same = features.facts(view, player)
        assert (same.flags, same.glob, same.places, same.claimed) == (got.flags, got.glob, got.places, got.claimed)
        rng = random.Random(5)
        for _ in range(3):
            other = cast(BattleLineState, view.sample(rng))
            assert other.hands[1 - player] != state.hands[1 - player] or other.tdeck != state.tdeck
            again = features.facts(other, player)
            assert (again.flags, again.glob, again.places) == (got.flags, got.glob, got.places)
    assert features.facts(state, 0).flags != features.facts(state, 1).flags


def test_facts_of_a_card_played() -> None:
    """A card played to flag 1 lies on my side there for me and on theirs for the other
    player, and my side's count says one card."""
    for seed in range(50):
        s = cast(BattleLineState, new_state("battleline-basic", seed=seed))
        me = s.current_player()
        assert me is not None
        tens = [c for c in (9, 19, 29, 39, 49, 59) if s.hands[me] >> c & 1]
        if not tens:
            continue
        card = tens[0]
        before = features.facts(s, me)
        assert before.places[card] == card * features.NUM_LOCATIONS + features.MY_HAND
        assert before.flag_numbers()[0:5] == [1.0, 0.0, 0.0, 0.0, 0.0]  # nothing on my side of flag 1
        s.apply(card * 9 + 0)  # the ten to flag 1
        got = features.facts(s, me)
        assert got.places[card] == card * features.NUM_LOCATIONS + features.MY_SIDE_AT + 0
        assert got.flag_numbers()[0:5] == [0.0, 1.0, 0.0, 0.0, 0.0]
        theirs = features.facts(s, 1 - me)
        assert theirs.places[card] == card * features.NUM_LOCATIONS + features.THEIR_SIDE_AT + 0
        return
    pytest.fail("no deal with a ten in the first player's hand")


def test_combine_is_the_exact_game_rule() -> None:
    """The combinator is the heuristic's exact sum over the 512 ways of sharing the flags,
    and its derivative is the chance's per flag."""
    rng = np.random.default_rng(2)
    p = rng.random((5, 9))
    p[0, 3] = 1.0
    g, dg = combine(p)
    for row in range(5):
        value, weights = game_value(list(p[row]))
        assert g[row] == pytest.approx(value, abs=1e-5)  # chances are kept within 1e-6 of 0 and 1
        for f in range(9):
            if 0 < p[row, f] < 1:
                assert dg[row, f] == pytest.approx(weights[f], abs=1e-5)


def _batch(ruleset: str = "battleline", n: int = 12) -> object:
    state = _midgame(ruleset, 7, 20)
    items = []
    rng = random.Random(3)
    bots = [HeuristicBot(seed=1), HeuristicBot(seed=2)]
    while len(items) < n and not state.is_terminal():
        player = state.current_player()
        assert player is not None
        items.append(features.facts(state, rng.randrange(2)))
        state.apply(bots[player].choose(state.view(player)))
    return stack(items)


def test_gradients_match_finite_differences() -> None:
    b = cast("object", _batch())
    net = FlagNet.fresh(1)
    rng = np.random.default_rng(0)
    for k in net.p:
        net.p[k] = net.p[k].astype(np.float64)
    net.p["wc2"] += rng.standard_normal(net.p["wc2"].shape) * 0.1
    bb = cast("object", b)
    bb.flags, bb.glob, bb.claimed = bb.flags.astype(np.float64), bb.glob.astype(np.float64), bb.claimed.astype(np.float64)  # type: ignore[attr-defined]
    n = len(bb)  # type: ignore[arg-type]
    yf = (rng.random((n, 9)) < 0.5).astype(float)
    yg = (rng.random(n) < 0.5).astype(float)

    def loss() -> tuple[float, dict[str, object], object]:
        _, _, c = net.forward(bb, keep=True)  # type: ignore[arg-type]
        t, m = c["tower"], bb.claimed < 0  # type: ignore[attr-defined]
        lf = np.sum(np.where(m, -(yf * np.log(t) + (1 - yf) * np.log(1 - t)), 0))
        v = 1 / (1 + np.exp(-c["z"]))
        return float(lf + np.sum(-(yg * np.log(v) + (1 - yg) * np.log(1 - v)))), c, v

    _, cache, v = loss()
    m = bb.claimed < 0  # type: ignore[attr-defined]
    grads = net.backward(bb, cache, np.where(m, cache["tower"] - yf, 0), v - yg)  # type: ignore[arg-type,operator]
    for name in ("scale", "wc1", "w3", "w2", "w1f", "w1g", "b1"):
        arr = net.p[name]
        for _ in range(3):
            ix = tuple(int(rng.integers(0, s)) for s in arr.shape)
            old = arr[ix]
            arr[ix] = old + 1e-6
            up = loss()[0]
            arr[ix] = old - 1e-6
            down = loss()[0]
            arr[ix] = old
            assert (up - down) / 2e-6 == pytest.approx(float(grads[name][ix]), rel=1e-3, abs=1e-6), name
    row = int(bb.places[0, 5])  # type: ignore[attr-defined]
    old = net.p["emb"][row, 3]
    net.p["emb"][row, 3] = old + 1e-6
    up = loss()[0]
    net.p["emb"][row, 3] = old - 1e-6
    down = loss()[0]
    net.p["emb"][row, 3] = old
    assert (up - down) / 2e-6 == pytest.approx(float(grads["emb"][row, 3]), rel=1e-3, abs=1e-6)


def test_weights_round_trip_and_refusals(tmp_path: Path) -> None:
    net = FlagNet.fresh(4, meta={"rulesets": ["battleline-basic"], "games": 10})
    path = tmp_path / "w.npz"
    net.save(path)
    again = FlagNet.load(path)
    assert again.rulesets == {"battleline-basic"} and again.meta["games"] == 10
    b = _batch("battleline-basic", 4)
    assert np.allclose(net.values(b), again.values(b), atol=1e-3)  # type: ignore[arg-type]
    # another feature layout or format version is refused with a message saying what to do
    import json

    with np.load(path) as data:
        arrays_ = {k: data[k] for k in data.files}
    header = json.loads(bytes(arrays_["header"]).decode())
    for change in ({"layout": "0000"}, {"version": 99}):
        arrays_["header"] = np.frombuffer(json.dumps({**header, **change}).encode(), dtype=np.uint8)
        bad = tmp_path / "bad.npz"
        np.savez(bad, **arrays_)
        with pytest.raises(WeightsError, match=r"train them again|format version"):
            FlagNet.load(bad)
    (tmp_path / "junk.npz").write_bytes(b"not a file")
    with pytest.raises(WeightsError):
        FlagNet.load(tmp_path / "junk.npz")


def test_subnormal_weights_are_flushed_to_zero(tmp_path: Path) -> None:
    """Decayed weights below float32's normal range (slow on the CPU: they made one product
    of the tower 60 times slower) are zero once loaded, and after a training step; the
    values do not change."""
    tiny = np.finfo(np.float32).tiny
    net = FlagNet.fresh(6, meta={"rulesets": ["battleline-basic"]})
    b = _batch("battleline-basic", 6)
    for name in ("w1f", "w2"):
        net.p[name][0, :5] = tiny / 8
    before = net.values(b)
    path = tmp_path / "w.npz"
    net.save(path)
    with np.load(path) as data:
        assert np.count_nonzero((data["w2"] != 0) & (np.abs(data["w2"]) < tiny)) == 5  # in the file as made
    loaded = FlagNet.load(path)
    for v in loaded.p.values():
        assert not ((v != 0) & (np.abs(v) < tiny)).any()
    assert np.allclose(loaded.values(b), before, atol=1e-6)
    trained = {"w2": net.p["w2"]}
    trained["w2"][1, :3] = tiny / 4
    opt = Adam(trained, lr=0.0, decay=0.0)
    opt.step(trained, {"w2": np.zeros_like(trained["w2"])})
    assert not ((trained["w2"] != 0) & (np.abs(trained["w2"]) < tiny)).any()


def test_a_game_record_replays_and_labels_every_flag(tmp_path: Path) -> None:
    record = heuristic_game("battleline-basic", 5)
    path = tmp_path / "g.jsonl.gz"
    write_records(path, [record])
    (again,) = read_records(path)
    assert again == record
    # the play-out gives the game's winner its flags and labels the others
    assert record.winner in (0, 1)
    assert sum(1 for f in record.flags if f == record.winner) >= 3
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    for a in record.actions:
        state.apply(a)
    assert state.is_terminal()
    for f in range(NUM_FLAGS):  # flags claimed in the game keep their owner
        if state.claimed[f] >= 0:
            assert record.flags[f] == state.claimed[f]
    kept = list(positions(record, keep=1.0))
    assert kept and all(not p.state.is_terminal() for p in kept)
    assert [p.ply for p in positions(record, 0.3)] == [p.ply for p in positions(record, 0.3)]
    plays = list(after_plays(record))
    assert plays and all(p.state.phase == 1 for p in plays)  # the draw phase, after the play


def test_play_out_goes_on_past_the_victory() -> None:
    """A game won early is played on: every flag gets a taker, the game's own claims stay,
    and the finished state is not changed."""
    for seed in range(40):
        state = cast(BattleLineState, new_state("battleline-basic", seed=seed))
        phase = play_to_end(state, [HeuristicBot(seed=seed), HeuristicBot(seed=seed + 1)], seed)
        if min(state.claimed) >= 0:
            continue
        before = state.to_notation()
        flags = play_out(state, phase, random.Random(1))
        assert state.to_notation() == before
        assert all(f in (0, 1) for f in flags)
        assert all(flags[f] == state.claimed[f] for f in range(NUM_FLAGS) if state.claimed[f] >= 0)
        return
    pytest.fail("every game claimed every flag")


def test_afterstates_are_the_moves_of_a_decision() -> None:
    record = heuristic_game("battleline-basic", 6)
    rows = afterstates(record, rate=0.05, most=5)
    assert rows
    row = Afterstate.from_json(rows[0].to_json())
    pos = row.position()
    assert pos.state.current_player() == row.viewer  # just after its play, before its draw
    assert len(pos.flag_labels()) == 9 and pos.game_label() in (0.0, 0.5, 1.0)


def test_training_learns_and_td_targets_end_in_the_labels() -> None:
    records = [heuristic_game("battleline-basic", g) for g in range(24)]
    data = arrays(records, keep=0.5, hand_share=0.5)
    assert data.glob[:, -1].any() and not data.glob[:, -1].all()  # some positions read the opponent's hand
    net = FlagNet.fresh(1, hidden=(16, 8), embed=8, head=8, meta={"rulesets": ["battleline-basic"]})
    _, held = split(data, 1, 0.25)
    before = losses(net, data.take(held))
    report = fit(net, data, seed=1, epochs=4, holdout=0.25, progress=False, lr=3e-3)
    assert report.history[-1][0] < report.history[0][0]  # the training loss falls
    assert report.flag_loss < before[0]  # and the held-out games' flags are predicted better
    targets = td_targets(net, records[:3], lam=0.7)
    assert len(targets) > 0
    assert ((targets.yflag >= 0) & (targets.yflag <= 1) | (targets.yflag == -1)).all()


def test_fit_holds_out_the_rows_it_is_given() -> None:
    """fit(held_out=...): those rows, not a share of games drawn anew (a warm start refitted
    on grown data, as examples/beat_heuristic.py does, is judged on the same games each time)."""
    records = [heuristic_game("battleline-basic", g) for g in range(6)]
    data = arrays(records, keep=0.3)
    held = data.game % 3 == 0
    assert held.any() and not held.all()
    net = FlagNet.fresh(2, hidden=(8, 4), embed=4, head=4)
    report = fit(net, data, seed=1, epochs=2, progress=False, held_out=held)
    assert (report.train_rows, report.test_rows) == (int((~held).sum()), int(held.sum()))
    assert report.flag_loss == pytest.approx(losses(net, data.take(held))[0], rel=1e-5)  # the kept net on those rows


def test_evaluator_calls_agree() -> None:
    net = FlagNet.fresh(2, meta={"rulesets": ["battleline"]})
    ev = Evaluator(net)
    state = _midgame("battleline", 9)
    player = state.current_player()
    assert player is not None
    one = ev.value(state, player)
    assert 0.0 < one < 1.0
    assert ev.value(state.view(player), player) == pytest.approx(one, abs=1e-6)
    legal = state.legal_actions()[:6]
    after = ev.afterstates(state, player, legal)
    for a, v in zip(legal, after, strict=True):
        s = state.clone()
        s.apply(a)
        assert ev.value(s, player) == pytest.approx(v, abs=1e-5)
    assert len(ev.flag_chances(state, player)) == 9


def test_medieval_is_judged_by_the_battle_line_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """Medieval's default game (battlefields face down) is Battle Line with tactics move for
    move, and ``frontlines train --rules medieval`` makes battleline.npz's arrays bit for bit:
    that one packaged file covers both rulesets and judges the same deal alike in each."""
    from frontlines.bots.net.value import evaluator

    monkeypatch.delenv("FRONTLINES_NET_WEIGHTS", raising=False)
    medieval, battleline = evaluator("medieval"), evaluator("battleline")
    assert medieval is not None and medieval is battleline
    state, same = _midgame("medieval", 4), _midgame("battleline", 4)
    player = state.current_player()
    assert player is not None and player == same.current_player()
    assert medieval.value(state, player) == battleline.value(same, player)
    assert medieval.flag_chances(state, player) == battleline.flag_chances(same, player)


def test_netply_plays_medieval_with_face_up_battlefields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The packaged weights judge Medieval with the house battlefields face up too (sides of
    two and four cards, troops allowed by value, sums only): whole games, by the rules."""
    from frontlines.bots.registry import make_bot

    monkeypatch.delenv("FRONTLINES_NET_WEIGHTS", raising=False)
    options = {"battlefields": "face_up", "battlefield_set": "house"}
    state = new_state("medieval", seed=6, options=options)
    bots = [make_bot("netply", 1), make_bot("heuristic", 2)]
    for seat, bot in enumerate(bots):
        bot.new_game("medieval", seat, 6)
    judged = 0
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        view = state.view(player)
        action = bots[player].choose(view)
        assert action in view.legal_actions()
        judged += player == 0 and "value" in bots[0].info()
        state.apply(action)
    assert judged > 5 and "fallback" not in bots[0].info()


def test_netply_plays_whole_games_and_takes_claims(tmp_path: Path) -> None:
    from frontlines.bots.registry import make_bot
    from frontlines.core.referee import Referee

    path = tmp_path / "w.npz"
    FlagNet.fresh(3, meta={"rulesets": ["battleline", "battleline-basic"]}).save(path)
    for ruleset in ("battleline", "battleline-basic"):
        bots = [make_bot(f"netply:weights={path}", 1), make_bot("random", 2)]
        result = Referee(new_state(ruleset, seed=4)).play(bots, seed=4)
        assert result.outcome is not None and result.failed is None


def test_netply_without_numpy_plays_as_the_heuristic() -> None:
    """With numpy made unimportable, netply falls back to the heuristic's moves."""
    _run_without_numpy(
        """
        from frontlines.bots.registry import make_bot
        from frontlines.games import new_state
        state = new_state("battleline-basic", seed=3)
        p = state.current_player()
        a = make_bot("netply", 5); a.new_game("battleline-basic", p, 3)
        b = make_bot("heuristic", 5); b.new_game("battleline-basic", p, 3)
        assert a.choose(state.view(p)) == b.choose(state.view(p))
        assert a.info() == {"fallback": "heuristic"}
        print("ok")
        """
    )


def test_spec_errors() -> None:
    from frontlines.bots.registry import make_bot

    with pytest.raises(ValueError, match="unknown netply option"):
        make_bot("netply:bogus=1")
    with pytest.raises(ValueError, match="temperature"):
        make_bot("netply:temperature=-1")


def test_the_search_cut_off_with_the_network() -> None:
    """``ismcts:value=`` judges its cut-offs by the network (mixed by the share), reading
    the deal's opponent hand with ``eval_hand``; elsewhere the policy is left as it is."""
    from frontlines.bots.learned import LearnedPolicy, learned_policy

    ev = Evaluator(FlagNet.fresh(5, meta={"rulesets": ["battleline"]}))
    base = policy_for("battleline")
    state = _midgame("battleline", 3)
    player = state.current_player()
    assert player is not None
    full = learned_policy(base, "battleline", 1.0, evaluator=ev)
    assert isinstance(full, LearnedPolicy)
    assert full.evaluate(state, player) == pytest.approx(ev.value(state, player), abs=1e-6)
    half = learned_policy(base, "battleline", 0.5, evaluator=ev)
    assert half.evaluate(state, player) == pytest.approx(0.5 * ev.value(state, player) + 0.5 * base.evaluate(state, player), abs=1e-6)
    hand = full.with_evaluation(0, 0.0, hand=True)
    assert hand.evaluate(state, player) == pytest.approx(ev.value(state, player, opponent_hand=True), abs=1e-6)
    assert learned_policy(base, "battleline", 0.0, evaluator=ev) is base
    assert learned_policy(policy_for("warmachine"), "warmachine", 1.0, evaluator=ev) is policy_for("warmachine")


def test_the_search_without_numpy_keeps_todays_evaluation() -> None:
    _run_without_numpy(
        """
        from frontlines.bots.learned import available
        from frontlines.bots.registry import make_bot
        from frontlines.games import new_state
        assert not available("battleline-basic")
        state = new_state("battleline-basic", seed=8)
        p = state.current_player()
        moves = []
        for spec in ("ismcts:iterations=40,value=1", "ismcts:iterations=40"):
            bot = make_bot(spec, 5)
            bot.new_game("battleline-basic", p, 8)
            moves.append(bot.choose(state.view(p)))
        assert moves[0] == moves[1], moves
        print("ok")
        """
    )


def _run_without_numpy(code: str) -> None:
    """Run ``code`` in a fresh interpreter where numpy cannot be imported; it prints ok."""
    blocker = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path, target=None):
                if name == "numpy" or name.startswith("numpy."):
                    raise ImportError("blocked")
        sys.meta_path.insert(0, Block())
        """
    )
    out = subprocess.run([sys.executable, "-c", blocker + textwrap.dedent(code)], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_frontlines_train_is_seeded_and_resumes_where_it_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``frontlines train`` from nothing (a short run through every stage), with its progress
    bars; a run stopped after its games (the training and self-play products gone, a shard's
    positions to be replayed from its records) makes the same weights; another seed others."""
    from frontlines.cli import main

    def train(state: Path, *more: str) -> FlagNet:
        assert main(["train", "--short", "--games", "10", "--state", str(state), *more]) == 0
        finals = list((state / "battleline-basic").glob("final-*.npz"))
        assert len(finals) == 1
        return FlagNet.load(finals[0])

    first = train(tmp_path / "a")
    err = capsys.readouterr().err
    assert "heuristic games [" in err and "self-play round 1 [" in err and "training [" in err
    # the TD round moves the tower and leaves the correction head as the first stage left it
    # (its fit on game results made one-ply play weaker: docs/bots.md)
    (sup,) = (tmp_path / "a" / "battleline-basic").glob("supervised-*.npz")
    before = FlagNet.load(sup)
    assert any(not np.array_equal(first.p[k], before.p[k]) for k in TOWER)
    assert all(np.array_equal(first.p[k], before.p[k]) for k in HEAD)
    assert first.meta["command"].startswith("frontlines train --rules battleline-basic --seed 0 --games 10")
    stopped = tmp_path / "b"
    shutil.copytree(tmp_path / "a", stopped)
    for pattern in ("final-*.npz", "supervised-*.npz", "td/td01-*[0-9a-f].npz", "games/*.npz"):
        for path in (stopped / "battleline-basic").glob(pattern):
            path.unlink()
    resumed = train(stopped, "--quiet")
    assert capsys.readouterr().err == ""
    assert sorted(first.p) == sorted(resumed.p)
    assert all(np.array_equal(first.p[k], resumed.p[k]) for k in first.p)
    other = train(tmp_path / "c", "--quiet", "--seed", "1")
    assert not np.array_equal(first.p["w2"], other.p["w2"])
    # TD rounds on a first stage made by a run without them: the final names its own command
    for path in (tmp_path / "c" / "battleline-basic").glob("final-*.npz"):
        path.unlink()
    assert main(["train", "--short", "--games", "10", "--seed", "1", "--state", str(tmp_path / "c"), "--quiet", "--td-rounds", "0"]) == 0
    (path,) = (tmp_path / "c" / "battleline-basic").glob("final-*.npz")
    assert "--td-rounds 0" in FlagNet.load(path).meta["command"]
    path.unlink()
    command = train(tmp_path / "c", "--quiet", "--seed", "1").meta["command"]
    assert "--td-rounds 1" in command and "--seed 1" in command


def test_numpy_blas_runs_in_one_thread_unless_the_user_chose() -> None:
    """The network's small products only lose with a BLAS thread pool (150 times slower
    on a busy machine): loading it before numpy sets one thread, unless the user set it."""
    code = "import os; import frontlines.bots.net.value; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env)
    assert out.stdout.strip() == "1", out.stderr
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                         env={**env, "OPENBLAS_NUM_THREADS": "3"})
    assert out.stdout.strip() == "3", out.stderr
    # frontlines train checks that numpy is there: after the network's package, not before it
    # (its fits and self-play ran with a thread pool, several times slower on the loaded machine)
    code = textwrap.dedent("""
        import argparse, os
        from frontlines.commands import train
        parser = argparse.ArgumentParser()
        train.add_arguments(parser)
        train.run(parser.parse_args(["--rules", "warmachine"]))  # refused after the check
        print(os.environ.get("OPENBLAS_NUM_THREADS"))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env)
    assert out.stdout.strip() == "1", out.stderr


def test_a_td_round_is_judged_on_rows_no_earlier_fit_was_trained_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TD round keeps the epoch (or its start) that predicts the held-out rows best, so they
    must be new to the starting weights: a tenth of the round's own self-play games and the
    first-stage rows of the games the first stage held out. (Before, a tenth of all the round's
    games was drawn anew: most first-stage rows among them came from games the start was
    fitted on.) Its learning rate is ``--td-lr``. ``--td-v1-rounds N`` makes the first N rounds
    as before (drawn games, 1e-3), to remake weights made so; the final's command names it and
    makes the same weights again."""
    import shlex

    from frontlines.bots.net import pipeline
    from frontlines.cli import main

    seen: list[tuple[Any, Any, float]] = []
    real_fit = pipeline.fit

    def spy(net: FlagNet, data: Any, seed: int, **kw: Any) -> Any:
        held = kw.get("held_out")
        if held is None:
            held = split(data, seed, kw.get("holdout", 0.1))[1]
        seen.append((data.game.copy(), np.asarray(held, dtype=bool), kw.get("lr", 1e-3)))
        return real_fit(net, data, seed, **kw)

    monkeypatch.setattr(pipeline, "fit", spy)

    def train(state: Path, *more: str) -> FlagNet:
        seen.clear()
        assert main(["train", "--short", "--games", "20", "--state", str(state), "--quiet", *more]) == 0
        (final,) = (state / "battleline-basic").glob("final-*.npz")
        return FlagNet.load(final)

    fair = train(tmp_path / "a")
    (first_games, first_held, _), (td_games, td_held, lr) = seen
    assert lr == 1e-4
    trained = set(first_games[~first_held].tolist())
    first_held_games = set(first_games[first_held].tolist())
    judged = set(td_games[td_held].tolist())
    assert judged and not judged & trained
    assert judged - set(first_games.tolist())  # some of the round's new games
    assert judged & first_held_games  # and the mixed-in rows of the games the first stage held out
    v1 = train(tmp_path / "b", "--td-v1-rounds", "1")
    _, (td_games, td_held, lr) = seen
    assert lr == 1e-3
    assert set(td_games[td_held].tolist()) & trained  # as before: the start judged on games it was fitted on
    command = v1.meta["command"]
    assert "--td-v1-rounds 1" in command and "--td-v1-rounds" not in fair.meta["command"]
    assert not all(np.array_equal(fair.p[k], v1.p[k]) for k in TOWER)
    again = train(tmp_path / "c", *shlex.split(command)[2:])
    assert all(np.array_equal(v1.p[k], again.p[k]) for k in v1.p)


def test_a_stopped_td_round_plays_only_its_unfinished_shard_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TD round's self-play games are kept in shards as they are made (a round took 20-40
    minutes on a loaded machine and a stopped one lost every game): a run stopped in the middle
    of a round plays again only the games of the shard it was in, and makes the same weights
    as a run that was not stopped."""
    from frontlines.bots.net import pipeline
    from frontlines.cli import main

    def train(state: Path) -> FlagNet:
        assert main(["train", "--short", "--games", "10", "--state", str(state), "--quiet"]) == 0
        (final,) = (state / "battleline-basic").glob("final-*.npz")
        return FlagNet.load(final)

    whole = train(tmp_path / "a")
    played: list[int] = []
    real = pipeline._play_self

    def stop_at_fifth(job: Any) -> Any:
        played.append(job[1])
        if len(played) == 5:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(pipeline, "_play_self", stop_at_fifth)
    with pytest.raises(KeyboardInterrupt):
        train(tmp_path / "b")
    td = tmp_path / "b" / "battleline-basic" / "td"
    assert len(list(td.glob("td01-*-games-*.jsonl.gz"))) == 2  # games 0-2 and 2-4 kept, 4-6 not
    played.clear()
    resumed = train(tmp_path / "b")
    assert len(played) == 2  # the last shard's games only
    assert all(np.array_equal(whole.p[k], resumed.p[k]) for k in whole.p)
    assert not list(td.glob("td01-*-games-*.jsonl.gz")) and list(td.glob("td01-*-games.jsonl.gz"))


def test_distillation_teaches_the_search_values_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--distill-games N`` (stage 4): on the decisions of the first N heuristic games, each
    of the search's candidates' positions after its card gets the search's mean over its
    deals (the TD network at the leaves) as its game value and no flag label; the network is
    fitted on them, its tower only. A run stopped in the middle labels only the unfinished
    shard again and makes the same weights; the final weights name the command."""
    from frontlines.bots.net import pipeline
    from frontlines.bots.net.data import GameRecord
    from frontlines.bots.pimc import PimcBot, PimcParams, judge
    from frontlines.cli import main
    from frontlines.games.battleline.codes import PLAY

    labelled: list[int] = []
    real = pipeline._search_labels

    def spy(job: Any) -> Any:
        labelled.append(GameRecord.from_json(job[0]).seed)
        return real(job)

    monkeypatch.setattr(pipeline, "_search_labels", spy)

    def train(state: Path) -> FlagNet:
        assert main(["train", "--short", "--games", "10", "--distill-games", "4", "--state", str(state), "--quiet"]) == 0
        (final,) = (state / "battleline-basic").glob("final-*.npz")
        return FlagNet.load(final)

    whole = train(tmp_path / "a")
    assert len(labelled) == 4
    assert whole.meta["stage"] == "distill" and "--distill-games 4" in whole.meta["command"]
    folder = tmp_path / "a" / "battleline-basic" / "distill"
    shards = sorted(p for p in folder.glob("distill-*-0*.npz"))
    assert len(shards) == 2  # games 0-2 and 2-4
    labels = Arrays.load(shards[0])
    assert len(labels) and np.all(labels.yflag == -1) and np.all((labels.ygame >= 0) & (labels.ygame <= 1))
    (teacher,) = folder.glob("distill-*-teacher.npz")
    (td,) = (tmp_path / "a" / "battleline-basic" / "td").glob("td01-*[0-9a-f].npz")
    assert all(np.array_equal(FlagNet.load(teacher).p[k], FlagNet.load(td).p[k]) for k in whole.p)
    assert any(not np.array_equal(whole.p[k], FlagNet.load(td).p[k]) for k in TOWER)
    assert all(np.array_equal(whole.p[k], FlagNet.load(td).p[k]) for k in HEAD)

    # the first labels are the search's means at the game's first decision judged
    plan = pipeline.Plan("battleline-basic", tmp_path / "a", seed=0, games=10, shard=20)
    record = pipeline.first_stage_records(plan, 1)[0]
    got = real((record.to_json(), str(teacher), 1.0, 2, 0, 0.0))
    ev = Evaluator(FlagNet.load(teacher))
    state = cast(BattleLineState, new_state(record.ruleset, seed=record.seed))
    policy = policy_for(record.ruleset)
    ply = 0
    while True:
        mover = state.current_player()
        if state.phase == PLAY and mover is not None:
            view = state.view(mover)
            legal = view.legal_actions()
            if len(legal) > 1 and policy.forced(view, legal) is None:
                break
        state.apply(record.actions[ply])
        ply += 1
    search = PimcBot(seed=0, params=PimcParams(deals=2, net=1))
    seed = pipeline._deal_seed(0, f"distill:{record.seed}", ply)
    actions = search.candidates(view, policy, seed)
    judged = judge(view, actions, search.params, seed, policy, ev.batch_evaluation(opponent_hand=True))
    after = [state.clone() for _ in actions]
    for s, a in zip(after, actions, strict=True):
        s.apply(a)
    want = [judged.mean(i) for i, s in enumerate(after) if not s.is_terminal()]
    assert np.allclose(got.ygame[: len(want)], want, atol=1e-6)
    assert int(got.game[0]) == record.seed
    # --distill-hand: each position twice, the second time with the opponent's hand read and
    # the means of the search that knows that hand
    both = real((record.to_json(), str(teacher), 1.0, 2, 0, 1.0))
    assert len(both) == 2 * len(got)
    told = state.clone()
    told.known[view.viewer or 0] |= told.hands[1 - (view.viewer or 0)]
    known = judge(told.view(view.viewer), actions, search.params, seed, policy, ev.batch_evaluation(opponent_hand=True))
    want_known = [known.mean(i) for i, s in enumerate(after) if not s.is_terminal()]
    assert np.allclose(both.ygame[: 2 * len(want) : 2], want, atol=1e-6)
    assert np.allclose(both.ygame[1 : 2 * len(want) : 2], want_known, atol=1e-6)
    assert want_known != want
    hand_read = features.facts(next(s for s in after if not s.is_terminal()), view.viewer or 0, True)
    assert np.array_equal(both.places[1], np.asarray(hand_read.places, dtype=np.int16))

    stopped = tmp_path / "b"
    shutil.copytree(tmp_path / "a", stopped)
    for path in [*(stopped / "battleline-basic").glob("final-*.npz"), stopped / "battleline-basic" / "distill" / shards[1].name]:
        path.unlink()
    (fitted,) = (stopped / "battleline-basic" / "distill").glob("distill-*-e4.npz")
    fitted.unlink()
    labelled.clear()
    resumed = train(stopped)
    assert len(labelled) == 2  # the second shard's games only
    assert all(np.array_equal(whole.p[k], resumed.p[k]) for k in whole.p)

    # into given weights (the shipped ones, say): the first stage's games, the labels, the fit
    given = tmp_path / "given.npz"
    shutil.copyfile(td, given)
    state = tmp_path / "c"
    assert main(["train", "--short", "--games", "10", "--distill-games", "4", "--distill-from", str(given),
                 "--state", str(state), "--quiet"]) == 0
    (final,) = (state / "battleline-basic").glob("final-*.npz")
    assert final.name.endswith("-from.npz") and not list((state / "battleline-basic").glob("supervised-*"))
    into = FlagNet.load(final)
    assert f"--distill-from {given}" in into.meta["command"] and into.meta["distilled_from"]["file"] == "given.npz"
    assert all(np.array_equal(into.p[k], whole.p[k]) for k in whole.p)  # the same teacher, labels and fit
    assert main(["train", "--short", "--games", "10", "--distill-from", str(given), "--state", str(state), "--quiet"]) == 2
