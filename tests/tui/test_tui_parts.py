"""The terminal game's pure parts: move paths, table text, words, sessions, the command."""

from __future__ import annotations

import argparse
import ast
import os
import random
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from frontlines.commands import play as play_command
from frontlines.core.actions import ActionKind, ActionRecord
from frontlines.core.errors import IllegalAction
from frontlines.games import new_state
from frontlines.games.battleline.notation import build_state
from frontlines.tui.adapters import moves_from_view
from frontlines.tui.cards import ALL_TACTICS, formation_label, tracker_rows, unseen_tactics
from frontlines.tui.render import COLUMN_ROWS, Marks, column_hit, flag_cell, flag_column, plain_table
from frontlines.tui.session import HUMAN, GameConfig, GameSession
from frontlines.tui.steps import BUTTON, CARD, CLAIM, DECK, FLAG, HAND, Picker, Token
from frontlines.tui.widgets import side_info, tracker_text
from frontlines.tui.words import (
    claim_explanation,
    describe_action,
    flag_details,
    in_clan_words,
    in_place_words,
    in_ruleset_words,
    outcome_text,
    own_words,
    plural,
)

SNAPSHOTS = Path(__file__).parent / "snapshots"


# A real position (viewer 0 to move) with every kind of tactics choice: a provable flag, a
# refused one, Mud, a claimed flag, morale and guile cards on both sides.
SAMPLE = ("n=9 f1=-/R8.R9.R10:1/B2/ f2=-/G3.Y3.P3:2/O4.O5/ f3=-/B7/Y10.AL/ f5=-/P1.P2/G9/M1 "
          "f6=1/O1.O2.O3:3/Y5.Y6.Y7:4/ f7=-//B9/ f8=-/CC// h0=G1.FO.SC.RE.DE.TR "
          "h1=P10.P9.P8.P7.P6.O10.SB xd=DA tp=1.2 lead=2")
# The moves these tests walk, among the engine's own legal entries for that position.
SAMPLE_MOVES = ("G1@3", "G1@9", "FO@9", "claim:1", "SC", "RE:P1>9", "RE:P1>x", "RE:B7>9",
                "DE:Y10", "DE:AL", "DE:B9", "TR:Y10>9", "TR:B9>3")


def sample_view() -> dict[str, Any]:
    """The view dictionary of ``SAMPLE`` as the engine writes it (``to_dict``), its legal
    list cut to ``SAMPLE_MOVES`` so that the picker tests stay small."""
    view: dict[str, Any] = build_state(SAMPLE).view(0).to_dict()
    entries = {entry["text"]: entry for entry in view["legal"]}
    view["legal"] = [entries[text] for text in SAMPLE_MOVES]  # each one really legal
    return view


# --- move paths -----------------------------------------------------------------------------


def test_paths_walk_every_tactics_card_step_by_step() -> None:
    view = sample_view()
    moves = {m.text: m for m in moves_from_view(view)}
    assert moves["G1@3"].path == (Token(HAND, "G1"), Token(FLAG, "3"))
    assert moves["claim:1"].path == (Token(CLAIM, "1"),)
    assert moves["RE:P1>x"].path == (Token(HAND, "RE"), Token(FLAG, "5"), Token(CARD, "P1"), Token(FLAG, "x"))
    assert moves["DE:AL"].path == (Token(HAND, "DE"), Token(FLAG, "3"), Token(CARD, "AL"))
    assert moves["TR:B9>3"].path == (Token(HAND, "TR"), Token(FLAG, "7"), Token(CARD, "B9"), Token(FLAG, "3"))
    assert moves["SC"].path == (Token(HAND, "SC"),)


def test_picker_offers_only_what_leads_to_a_legal_move() -> None:
    picker = Picker(moves_from_view(sample_view()))
    top = picker.options()
    assert {t.value for t in top if t.kind == HAND} == {"G1", "FO", "SC", "RE", "DE", "TR"}
    assert Token(CLAIM, "1") in top
    # Deserter: flag 3 holds two opponent cards, so the card is asked for ...
    assert picker.choose(Token(HAND, "DE")) is None
    assert {t.value for t in picker.options()} == {"3", "7"}
    assert picker.choose(Token(FLAG, "3")) is None
    assert picker.options() == [Token(CARD, "Y10"), Token(CARD, "AL")]
    done = picker.choose(Token(CARD, "AL"))
    assert done is not None and done.text == "DE:AL"
    # ... while at flag 7 the only card is taken without asking
    picker.reset()
    picker.choose(Token(HAND, "DE"))
    done = picker.choose(Token(FLAG, "7"))
    assert done is not None and done.text == "DE:B9"
    # Redeploy P1: auto-picked card, then move or discard; Esc steps back over the automatic step
    picker.reset()
    picker.choose(Token(HAND, "RE"))
    assert picker.choose(Token(FLAG, "5")) is None
    assert picker.prefix[-1] == Token(CARD, "P1")
    assert picker.options() == [Token(FLAG, "9"), Token(FLAG, "x")]
    assert picker.back()
    assert picker.prefix == [Token(HAND, "RE")]
    with pytest.raises(ValueError):
        picker.choose(Token(FLAG, "1"))


def test_draw_and_scout_steps() -> None:
    view = sample_view()
    view["legal"] = [{"text": "scout:troop", "kind": "scout_draw", "deck": "troop"},
                     {"text": "scout:tactics", "kind": "scout_draw", "deck": "tactics"}]
    picker = Picker(moves_from_view(view))
    assert picker.options() == [Token(DECK, "troop"), Token(DECK, "tactics")]
    view["legal"] = [{"text": "return:G1", "kind": "scout_return", "card": "G1"}]
    picker = Picker(moves_from_view(view))
    move = picker.choose(Token(HAND, "G1"))
    assert move is not None and move.text == "return:G1"


def test_every_engine_legal_entry_gets_a_path() -> None:
    """Whatever the engine offers, the picker can build it, and builds nothing else."""
    rng = random.Random(7)
    for ruleset in ("battleline", "schotten-totten-tactics", "medieval", "warmachine"):
        state = new_state(ruleset, seed=rng.randrange(1000))
        for _ in range(150):
            if state.is_terminal():
                break
            player = state.current_player()
            view = state.view(player).to_dict()
            moves = moves_from_view(view)
            assert sorted(m.text for m in moves) == sorted(state.action_to_text(a) for a in state.legal_actions())
            paths = [m.path for m in moves]
            assert len(set(paths)) == len(paths), "two actions share one path"
            state.apply(rng.choice(state.legal_actions()))


# --- table text -----------------------------------------------------------------------------


def test_table_text_matches_the_stored_rendering() -> None:
    text = plain_table(sample_view(), 0)
    path = SNAPSHOTS / "battleline-table.txt"
    if os.environ.get("FRONTLINES_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")
    assert all(line.isascii() and cell_len(line) == len(line) for line in text.splitlines())


def test_flag_column_content() -> None:
    view = sample_view()
    column = [row.plain for row in flag_column(view["flags"][0], 0, 8, Marks(claimable={1}))]
    assert len(column) == COLUMN_ROWS
    assert column[-1].strip() == "Wedge 27"
    assert column[5].strip() == "1*"
    assert [c.strip() for c in column[6:9]] == ["R8", "R9", "R10"]
    mud = [row.plain.strip() for row in flag_column(view["flags"][4], 0, 8, Marks())]
    assert mud[5] == "5M"
    claimed = [row.plain.strip() for row in flag_column(view["flags"][5], 0, 8, Marks())]
    assert claimed[5] == "6:opp" and claimed[0] == "Wedge 18"
    assert column_hit(view["flags"][2], 0, 4) == ("card", 1, "Y10")
    assert column_hit(view["flags"][2], 0, 3) == ("card", 1, "AL")
    assert column_hit(view["flags"][2], 0, 6) == ("card", 0, "B7")
    assert column_hit(view["flags"][2], 0, 5) == ("flag", 3, None)


def test_formation_labels_fit_narrow_columns() -> None:
    for name in ("Wedge", "Phalanx", "Battalion Order", "Skirmish Line", "Host", "Klin", "Zastup"):
        for width in (6, 7, 8, 12):
            label = formation_label({"name": name, "sum": 27}, width)
            assert len(label) <= width and label.endswith("27")


def test_tracker_lists_unseen_cards_by_colour() -> None:
    rows = [r.plain for r in tracker_rows(["R1", "R10", "B4"])]
    assert rows[0] == " R 1 10" and rows[4] == " B 4" and rows[1] == " O -"
    full = tracker_rows([f"G{v}" for v in range(1, 11)])[3]
    assert full.plain == " G 1 2 3 4 5 6 7 8 9 10" and cell_len(full.plain) <= 23  # tracker: 24 wide less its border
    assert unseen_tactics(sample_view()) == ["DA", "SB"]  # MU lies at flag 5


def test_counts_are_worded_with_plural_forms() -> None:
    """Issue 30 item 12: no "action(s)" or "1 cards": every count in words goes through
    ``plural`` (the terminal speaks English only)."""
    assert plural(1, "action", "actions") == "1 action" and plural(3, "action", "actions") == "3 actions"
    assert plural(0, "card", "cards") == "0 cards" and plural(1, "refuses", "refuse", number=False) == "refuses"
    take = ActionRecord(ActionKind.TAKE, "take:1", count=1)
    assert describe_action(take) == "takes 1 card"
    assert describe_action(ActionRecord(ActionKind.TAKE, "take:2", count=2)) == "takes 2 cards"
    glued = []
    for path in (Path(__file__).parents[2] / "src" / "frontlines" / "tui").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        glued += [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and id(node) not in docstrings and "(s)" in node.value]
    assert glued == []


def test_side_lines_mention_tactics_only_where_the_ruleset_has_them() -> None:
    view = sample_view()
    mine, theirs = side_info(view, 0, "you", opponent=False).plain, side_info(view, 1, "bot", opponent=True).plain
    assert "decks: troop 32 tactics 1" in mine and "tactics played 1" in mine
    assert "(6 troops, 1 tactic)" in theirs and "tactics played 2" in theirs
    one = {**view, "hand_sizes": [7, 2], "hand_tactics": [0, 1]}
    assert "hand 2 (1 troop, 1 tactic)" in side_info(one, 1, "bot", opponent=True).plain
    basic = new_state("battleline-basic", seed=3).view(0).to_dict()
    assert not basic["has_tactics"]
    mine, theirs = side_info(basic, 0, "you", opponent=False).plain, side_info(basic, 1, "bot", opponent=True).plain
    assert "troop deck" in mine
    assert "tactics" not in mine and "tactics" not in theirs, (mine, theirs)


# --- words ----------------------------------------------------------------------------------


def _words(ruleset: str, text: str) -> str:
    """The terminal's words for an action, from the game's record of it (never its text)."""
    state = new_state(ruleset, seed=1)
    return describe_action(state.describe_action(state.parse_action(text)))


def test_words() -> None:
    assert _words("battleline", "R7@3") == "R7 to 3"
    assert _words("battleline", "RE:R7>x") == "Redeploy R7 out"
    assert _words("battleline", "TR:B3>4") == "Traitor B3>4"
    assert _words("battleline", "claim:5") == "claims flag 5"
    assert _words("battleline", "FO@2") == "Fog at 2" and _words("battleline", "draw:tactics") == "draws tactics"
    assert _words("warmachine", "GJ^4") == "GJ WM to 4" and _words("warmachine", "IJv2") == "IJ inf to 2"
    assert describe_action({"text": "burn:?", "kind": "burn", "card": "?"}) == "burns a card"
    assert _words("warmachine", "draw:6") == "draws pile 6" and _words("warmachine", "take1") == "takes 1 card"
    flags = sample_view()["flags"]
    assert claim_explanation(flags[0]) == "Flag 1 can be claimed: no unseen troop cards can beat your wedge (27)"
    text = claim_explanation(flags[1])
    assert "cannot be claimed" in text and "Counter-example: O6" in text
    assert "not complete" in claim_explanation(flags[2])
    details = flag_details(flags[4], 0, ["you", "opponent"])
    assert details == "Flag 5; Mud: 4 cards a side; you: P1 P2 (2/4); opponent: G9 (1/4)."
    assert "wedge 27" in flag_details(flags[0], 0, ["you", "opponent"])
    assert outcome_text({"winner": 0, "reason": "breakthrough"}, ["You", "bot hard"]) == "You win by breakthrough"


# --- session --------------------------------------------------------------------------------


def test_session_undo_pops_back_to_the_humans_decision() -> None:
    state = new_state("battleline", seed=5, options={"first_player": "0"})
    session = GameSession(state, (HUMAN, "random"), seed=5)
    rng = random.Random(1)
    start = state.to_notation()
    assert not session.can_undo()
    session.play(rng.choice(state.legal_actions()))  # human plays
    after_play = state.to_notation()
    session.play(rng.choice(state.legal_actions()))  # human draws
    while session.bot_to_move() is not None:
        bot = session.bots[1]
        session.play(bot.choose(state.view(1)))
    assert session.undo() >= 2
    assert state.to_notation() == after_play
    assert session.undo() == 1
    assert state.to_notation() == start
    assert session.undo() == 0


@pytest.mark.parametrize(("error", "detail"), [
    (ValueError("boom"), "crash: ValueError: boom"),
    (IllegalAction("R99@9 is not legal"), "illegal: R99@9 is not legal"),
])
def test_a_failing_bot_forfeits_through_the_referee(error: Exception, detail: str) -> None:
    state = new_state("battleline", seed=5, options={"first_player": "1"})
    session = GameSession(state, (HUMAN, "random"), seed=5)
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        session.referee.move(0, state.legal_actions()[0])  # the bot is to move, not the human
    session.forfeit(1, error)
    outcome = state.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason, outcome.detail) == (0, "forfeit", detail)
    assert not session.can_undo() and session.to_move() is None
    with pytest.raises(IllegalAction, match="over"):
        session.play(state.legal_actions()[0] if state.legal_actions() else 0)
    record = session.record()
    assert (record.tags["Termination"], record.tags["Loser"]) == ("forfeit", "1")
    again = GameSession.from_record(record, (HUMAN, HUMAN))
    assert again.state == state


def test_first_move_choice_maps_to_the_ruleset_option() -> None:
    assert GameConfig(ruleset="battleline", seat=1, first="me").game_options() == {"first_player": "1"}
    assert GameConfig(ruleset="battleline", seat=1, first="opponent").game_options() == {"first_player": "0"}
    assert GameConfig(ruleset="warmachine", seat=0, first="me").game_options() == {"shuffler": "1"}
    assert GameConfig(ruleset="battleline", first="random").game_options() == {}
    for seat in (0, 1):
        session = GameSession.new(GameConfig(ruleset="battleline", seat=seat, first="me", seed=3))
        assert session.state.current_player() == seat


# --- command --------------------------------------------------------------------------------


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_play_command_rejects_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert play_command.run(_args("--rules", "nonsense")) == 2
    assert "unknown ruleset" in capsys.readouterr().err
    assert play_command.run(_args("--rules", "battleline", "--option", "claim_timing=never")) == 2
    assert play_command.run(_args("--option", "novalue")) == 2
    assert "--option wants NAME=VALUE, not 'novalue'" in capsys.readouterr().err
    assert play_command.run(_args("--replay", str(tmp_path / "missing.txt"))) == 2
    args = _args("--rules", "warmachine", "--opponent", "hard", "--seat", "p2", "--seed", "9")
    assert (args.rules, args.opponent, args.seat, args.seed) == ("warmachine", "hard", 1, 9)
    # seats are P1 and P2 as everywhere the terminal names them; 0 and 1 keep their old meaning
    assert [_args("--seat", text).seat for text in ("p1", "P2", "0", "1")] == [0, 1, 0, 1]
    with pytest.raises(SystemExit):
        _args("--seat", "2")
    assert "choose p1 or p2, not '2'" in capsys.readouterr().err


def test_resume_config_reads_the_seats_of_a_record() -> None:
    from frontlines.core.record import GameRecord
    from frontlines.tui.session import resume_config

    def seats(p0: str, p1: str, **given: Any) -> tuple[tuple[str, str], int | None]:
        config = resume_config(GameRecord({"Player0": p0, "Player1": p1, "Seed": "7", "Setup": "x"}), **given)
        return config.seat_kinds(), config.seed

    assert seats("human", "easy") == ((HUMAN, "easy"), 7)
    assert seats("expert", "human") == (("expert", HUMAN), 7)
    assert seats("human", "human") == ((HUMAN, HUMAN), 7)
    assert seats("Alice", "bot:master")[0] == (HUMAN, "master")  # a web app record
    assert seats("random", "hard")[0] == (HUMAN, "hard")  # two bots: the person takes P1
    assert seats("random", "hard", seat=1)[0] == ("random", HUMAN)
    assert seats("human", "easy", opponent="medium", seat=1, seed=3) == (("medium", HUMAN), 3)
    # a record cannot make the terminal start a program
    assert seats("human", "cmd:rm -rf ~")[0] == (HUMAN, HUMAN)


def test_log_names_who_moved_from_the_views_log_records() -> None:
    from frontlines.tui.app import _log_lines

    state = new_state("battleline-basic", seed=3)
    rng = random.Random(1)
    for _ in range(4):  # play, draw; play, draw
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(0).to_dict()
    names = ["Ann", "Bot"]
    first = view["log_records"][0]["seat"]
    text = _log_lines(view, names, 10).plain
    assert text.index(f"{names[first]}: ") < text.index(f"{names[1 - first]}: ")
    # a log entry that does not say who made it gets no name, never a wrong one
    unsigned = [{k: v for k, v in e.items() if k != "seat"} for e in view["log_records"]]
    bare = _log_lines({"log_records": unsigned}, names, 10).plain
    assert "Ann" not in bare and "Bot" not in bare


# --- per-game adapters ------------------------------------------------------------------------


def test_each_game_gets_its_adapter_once_and_unknown_games_the_generic_one() -> None:
    from frontlines.tui.adapters import BattleLineUI, GameUI, WarMachineUI, ui_for
    from frontlines.tui.warmachine import END

    battleline, warmachine, other = ui_for("battleline"), ui_for("warmachine"), ui_for("chess")
    assert isinstance(battleline, BattleLineUI) and battleline.claims and battleline.has_tracker
    assert isinstance(warmachine, WarMachineUI) and not warmachine.claims and warmachine.has_tracker  # its legend
    assert type(other) is GameUI and other.key_token("p", [Token(BUTTON, "pass")]) is None
    # the same letter means what each game means by it, and only when it is offered
    assert battleline.key_token("p", [Token(BUTTON, "pass")]) == Token(BUTTON, "pass")
    assert warmachine.key_token("p", [Token(BUTTON, "skip")]) == Token(BUTTON, "skip")
    assert battleline.key_token("x", [Token(FLAG, "x")]) == Token(FLAG, "x")
    assert battleline.key_token("t", [Token(DECK, "tactics")]) is None
    assert warmachine.key_token("i", [Token(END, "infantry")]) == Token(END, "infantry")
    assert battleline.card_owner(Token(HAND, "DE"), 0) == 1 and battleline.card_owner(Token(HAND, "RE"), 0) == 0


def test_tactics_help_follows_the_views_rules_family() -> None:
    from frontlines.tui.adapters import ui_for

    ui = ui_for("battleline")
    for ruleset, words in (("schotten-totten-tactics", "under their decks"), ("battleline", "put 2 back")):
        view = new_state(ruleset, seed=1).view(0).to_dict()
        question = ui.question([Token(HAND, "SC")], [Token(FLAG, "1")], [], view)
        assert words in question, question


def _flag(index: int, mine: list[str], theirs: list[str], **extra: Any) -> dict[str, Any]:
    """A flag entry with only the fields the word and label functions below read."""
    flag: dict[str, Any] = {"index": index, "claimed_by": None, "capacity": 3, "fog": False, "mud": False,
                            "battlefield": None, "sides": [mine, theirs], "formation": [None, None],
                            "completed_first": None, "claim": None}
    flag.update(extra)
    return flag


def test_schotten_totten_labels_fit_with_a_gap() -> None:
    for name in ("Sum", "Run", "Colour", "Three of a Kind", "Colour Run", "Rabble", "Column", "Square"):
        for width in (8, 9, 13):
            label = formation_label({"name": name, "sum": 27}, width - 1)
            assert len(label) <= width - 1 and label.endswith("27"), (name, width)
    assert formation_label({"name": "Colour Run", "sum": 24}, 8) == "C.Run 24"
    flag = _flag(1, ["R7", "R8", "R9"], [], formation=[{"name": "Colour Run", "rank": 5, "sum": 24}, None])
    assert flag_column(flag, 0, 9, Marks(), gap=1)[-1].plain.endswith(" ")


def test_a_formation_name_too_long_for_its_row_takes_the_free_row() -> None:
    """Issue 30 item 26: "Col 15" was cryptic in an 8-cell column; the name now sits whole on
    its own row with the sum on the free card row beside it (mirrored for the opponent)."""
    colour = {"name": "Colour", "rank": 3, "sum": 15}
    flag = _flag(2, ["R1", "R5", "R9"], ["B2", "B4", "B7"], formation=[colour, colour])
    rows = [row.plain.strip() for row in flag_column(flag, 0, 8, Marks(), gap=1)]
    assert rows[:2] == ["Colour", "15"] and rows[-2:] == ["15", "Colour"], rows
    assert "Colour 15" in [r.plain.strip() for r in flag_column(flag, 0, 13, Marks(), gap=1)]  # fits one row
    mud = _flag(2, ["R1", "R5", "R9", "R2"], [], formation=[{"name": "Colour", "rank": 3, "sum": 17}, None], mud=True)
    assert flag_column(mud, 0, 8, Marks(), gap=1)[-1].plain.strip() == "Colr 17"  # no free row: the short form
    battalion = _flag(3, ["R1", "R5"], [], formation=[{"name": "Battalion Order", "rank": 3, "sum": 12}, None])
    assert [r.plain.strip() for r in flag_column(battalion, 0, 8, Marks(), gap=1)][-2:] == ["12", "Battn"]


def test_tracker_wraps_the_tactics_inside_its_box() -> None:
    view = {"unseen": [f"R{v}" for v in range(1, 11)], "has_tactics": True, "flags": [], "hands": [[], []]}
    text = tracker_text(view, 23, 8).plain.splitlines()
    assert len(text) <= 8 and all(cell_len(line) <= 23 for line in text)
    assert " ".join(text).split("Tactics:")[1].split() == list(ALL_TACTICS)
    roomy = tracker_text(view, 23, 12).plain.splitlines()
    assert roomy[0] == "Unseen troops" and len(roomy) == 9


def test_claim_proofs_use_the_rulesets_formation_names() -> None:
    names = ["Sum", "Run", "Colour", "Three of a Kind", "Colour Run"]
    flag = _flag(1, ["R7", "R8", "R9"], [], claim={"claimable": True, "counterexample": None,
                                                   "reason": "no unseen troop cards can beat your wedge (24)"})
    assert claim_explanation(flag, names) == "Flag 1 can be claimed: no unseen troop cards can beat your colour run (24)"
    st = new_state("schotten-totten", seed=2).view(0).to_dict()
    assert st["formation_names"] == names
    assert in_ruleset_words("their phalanx (9) beats your skirmish line (6)", names) == \
        "their three of a kind (9) beats your run (6)"


def test_battlefield_text_ends_in_one_full_stop() -> None:
    flag = _flag(3, [], [], battlefield={"name": "Marsh", "face_up": True,
                                         "text": "House rule: no troops of value 8 to 10 may be played here."})
    text = flag_details(flag, 0, ["you", "opponent"])
    assert text.endswith("here.") and ".." not in text
    assert "3 Marsh" in flag_cell(flag, 0, 9, Marks()).plain


def test_schotten_totten_guile_cards_go_by_their_own_names() -> None:
    names = new_state("schotten-totten-tactics", seed=2).view(0).to_dict()["card_names"]
    record = ActionRecord(ActionKind.DESERTER, "DE:R5", card="R5")
    assert describe_action(record, names) == "Banshee R5"
    assert describe_action(record) == "Deserter R5"


def test_schotten_totten_calls_its_places_stones() -> None:
    text = "Flag 3 can be claimed; flags may be claimed only after playing; your side of flag 2 is full."
    assert in_place_words(text, "stone") == \
        "Stone 3 can be claimed; stones may be claimed only after playing; your side of stone 2 is full."
    assert in_place_words(text, "flag") == text
    # a file name is the player's word, not the game's
    assert in_place_words("Saved to /tmp/flag-test.txt and flags/x.txt", "stone") == \
        "Saved to /tmp/flag-test.txt and flags/x.txt"
    words = own_words(new_state("schotten-totten", seed=2).view(0).to_dict())
    assert words is not None and words("claims flag 4") == "claims stone 4"
    assert own_words(new_state("battleline", seed=2).view(0).to_dict()) is None
    from frontlines.games import ruleset

    assert [ruleset(n).place_name for n in ("battleline", "schotten-totten", "schotten-totten-tactics", "medieval")] \
        == ["flag", "stone", "stone", "flag"]


def test_schotten_totten_calls_its_troop_cards_clan_cards() -> None:
    assert in_clan_words("Draw: t troop. Unseen troops; hand 7 (5 troops, 2 tactics); decks: troop 30 tactics 10") \
        == "Draw: t clan card. Unseen clan cards; hand 7 (5 clan cards, 2 tactics); decks: clan 30 tactics 10"
    assert in_clan_words("the troop deck is empty; only 2 unseen troop cards left; Troop deck") == \
        "the clan deck is empty; only 2 unseen clan cards left; Clan deck"
    words = own_words(new_state("schotten-totten", seed=2).view(0).to_dict())
    assert words is not None and words("draws troop at flag 3") == "draws clan card at stone 3"


def test_war_machine_front_says_the_forces_in_words() -> None:
    """Issue 30 item 26: no "GERWM" / "GERin" / "p4": each force names its country and its end,
    each position what winning there scores and how many support cards are left."""
    from frontlines.tui.warmachine import position_column

    position = {"index": 3, "country": "GBR", "depicted": "war_machine", "pile": 4, "status": "open",
                "sides": [[{"code": "GJ", "up": "war_machine", "country": "GER", "strength": 2}],
                          [{"code": "GJ", "up": "infantry", "country": "JPN", "strength": 1}]],
                "strengths": [2, 1], "colours": ["GER", "JPN"], "winner": None}
    wide = [row.plain.strip() for row in position_column(position, 0, 13, False, False, ["you", "bot"])]
    assert {"GER machine", "JPN infantry", "2pt, pile 4"} <= set(wide), wide
    narrow = [row.plain.strip() for row in position_column(position, 0, 9, False, False, ["you", "bot"])]
    assert {"GER WM", "JPN inf", "2pt p4"} <= set(narrow), narrow
    assert not any(word in " ".join(wide + narrow) for word in ("GERWM", "JPNin", "WM 2pt"))
