"""kakuro-np play without a browser: the game's rules, its files, and the server's answers to bad requests."""

import http.client
import json
import re
import select
import socket
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import kakuro_np as kn
from kakuro_np.cli import main
from kakuro_np.formats.pipe import pipe_marks, write_pipe
from kakuro_np.play.game import Game, MoveError, heads, solves
from kakuro_np.play.server import make_server

from conftest import PUZZLES, examples
from strategies import OPEN_BLOCK, filled_puzzles

TINY = "x ; 4 0 ; 3 0\n0 3 ; _ ; _\n0 4 ; _ ; _"          # one solution: 1 2 / 3 1
CSPUZ = "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"


def board_of(state):
    """What a state says of the board, to compare states."""
    return {k: state[k] for k in ("mode", "kind", "down", "across", "digits", "marks")}


# -- the game -----------------------------------------------------------------------------

def test_a_game_is_played_to_the_end_and_the_timer_stops():
    game = Game(kn.read(PUZZLES / "k2.txt"))
    solution = kn.kakuro(game.puzzle)[0]
    assert game.state()["running"] and game.status()["solutions"] == "unique"
    for r, c in np.argwhere(game.puzzle.blank):
        state = game.move({"op": "digit", "cell": [int(r), int(c)], "digit": int(solution[r, c])})
    assert state["solved"] and state["message"].startswith("Solved in ")
    assert not state["running"]
    assert game.hint()["message"] == "solved already"


def test_check_marks_a_wrong_digit_and_undo_restores_the_cell():
    game = Game(kn.parse(TINY))
    game.move({"op": "digit", "cell": [1, 1], "digit": 1})
    state = game.move({"op": "digit", "cell": [1, 2], "digit": 1})    # wrong: 2 belongs there
    assert game.check()["wrong"] == [[1, 2]]
    state = game.undo()
    assert state["digits"][1] == [0, 1, 0] and state["wrong"] == []
    assert game.redo()["digits"][1] == [0, 1, 1]
    assert game.undo()["can_redo"]


def test_marks_toggle_and_clear_takes_the_digit_first():
    game = Game(kn.parse(TINY))
    game.move({"op": "mark", "cell": [2, 2], "digit": 3})
    state = game.move({"op": "mark", "cell": [2, 2], "digit": 1})
    assert state["marks"][2][2] == [1, 3]
    assert game.move({"op": "mark", "cell": [2, 2], "digit": 3})["marks"][2][2] == [1]
    game.move({"op": "digit", "cell": [2, 2], "digit": 1})
    state = game.move({"op": "clear", "cell": [2, 2]})
    assert state["digits"][2][2] == 0 and state["marks"][2][2] == [1]
    assert game.move({"op": "clear", "cell": [2, 2]})["marks"][2][2] == []


@pytest.mark.parametrize("body, said", [
    ({"op": "digit", "cell": [1, 1], "digit": 0}, "a digit is 1-9"),
    ({"op": "digit", "cell": [1, 1], "digit": 10}, "a digit is 1-9"),
    ({"op": "digit", "cell": [1, 1], "digit": "5"}, "a digit is 1-9"),
    ({"op": "digit", "cell": [1, 1], "digit": True}, "a digit is 1-9"),
    ({"op": "digit", "cell": [3, 1], "digit": 5}, "no cell (3, 1)"),
    ({"op": "digit", "cell": [-1, 1], "digit": 5}, "no cell (-1, 1)"),
    ({"op": "digit", "cell": [0, 1], "digit": 5}, "not a blank cell"),
    ({"op": "digit", "cell": "1,1", "digit": 5}, "a cell is [row, col]"),
    ({"op": "digit", "digit": 5}, "a cell is [row, col]"),
    ({"op": "jump", "cell": [1, 1]}, "unknown move"),
])
def test_a_bad_move_is_refused_and_changes_nothing(body, said):
    game = Game(kn.parse(TINY))
    game.move({"op": "digit", "cell": [2, 1], "digit": 3})
    before = board_of(game.state())
    with pytest.raises(MoveError, match=re.escape(said)):
        game.move(body)
    assert board_of(game.state()) == before and game.state()["can_undo"]


@settings(max_examples=examples(30), deadline=None)
@given(filled_puzzles(max_side=6), st.lists(st.tuples(
    st.sampled_from(["digit", "mark", "clear", "undo", "redo"]), st.integers(0, 6),
    st.integers(0, 6), st.integers(-1, 10)), max_size=30))
def test_undo_unwinds_any_moves_and_bad_ones_change_nothing(case, moves):
    """Any moves, bad ones among them, then undo to the start gives the start again;
    a refused move leaves the board as it was."""
    puzzle, _ = case
    game = Game(puzzle)
    start = board_of(game.state())
    for op, r, c, d in moves:
        before = board_of(game.state())
        try:
            if op in ("undo", "redo"):
                getattr(game, op)()
            else:
                game.move({"op": op, "cell": [r, c], "digit": d})
        except MoveError:
            assert board_of(game.state()) == before
    while game.state()["can_undo"]:
        game.undo()
    assert board_of(game.state()) == start


def test_hint_names_a_wrong_digit_then_wrong_marks_then_logic():
    game = Game(kn.parse(TINY))
    game.move({"op": "digit", "cell": [1, 1], "digit": 2})
    assert game.hint()["hint"]["technique"] == "mistake"
    game.move({"op": "clear", "cell": [1, 1]})
    game.move({"op": "mark", "cell": [1, 1], "digit": 2})          # leaves out the 1
    hint = game.hint()["hint"]
    assert hint["technique"] == "mistake" and hint["cells"] == [[1, 1]]
    game.move({"op": "mark", "cell": [1, 1], "digit": 1})
    hint = game.hint()["hint"]
    assert hint["technique"] != "mistake" and hint["reason"] and hint["cells"]


def test_marks_pencil_in_what_forced_moves_leave_and_hold_the_solution():
    puzzle = kn.read(PUZZLES / "k3.txt")                   # 40 solutions: forced moves stop
    solutions = kn.kakuro(puzzle)
    r, c = (int(i) for i in np.argwhere(puzzle.blank)[0])
    game = Game(puzzle)
    game.move({"op": "digit", "cell": [r, c], "digit": int(solutions[0][r, c])})
    state = game.fill_marks()
    marks = np.zeros(puzzle.shape + (9,), bool)
    for i, row in enumerate(state["marks"]):
        for j, digits in enumerate(row):
            marks[i, j, [d - 1 for d in digits]] = True
    empty = puzzle.blank & (np.array(state["digits"]) == 0)
    assert marks[empty].any(axis=1).all() and not marks[~empty].any()
    for s in solutions[solutions[:, r, c] == solutions[0][r, c]]:   # every solution kept
        assert marks[empty, s[empty] - 1].all()
    assert not any(any(row) for row in game.undo()["marks"])


def test_solve_fills_the_solution_and_can_be_undone():
    game = Game(kn.parse(TINY))
    state = game.solve()
    assert state["solved"] and state["digits"] == [[0, 0, 0], [0, 1, 2], [0, 3, 1]]
    assert game.undo()["digits"] == [[0, 0, 0]] * 3


def test_combos_come_from_kc_and_say_which_fit_the_digits():
    game = Game(kn.read(PUZZLES / "k2.txt"))
    game.move({"op": "digit", "cell": [1, 1], "digit": 4})
    down = game.combos([1, 1])["down"]
    assert down["combos"] == kn.kc(13, 4).tolist()
    assert down["fits"] == [4 in combo for combo in down["combos"]]
    with pytest.raises(MoveError):
        game.combos([0, 0])


def test_pipe_saves_digits_marks_and_time_and_loads_them_again():
    game = Game(kn.read(PUZZLES / "k2.txt"), "k2.txt")
    game.move({"op": "digit", "cell": [1, 1], "digit": 9})
    game.move({"op": "mark", "cell": [1, 2], "digit": 7})
    game.move({"op": "mark", "cell": [1, 2], "digit": 9})
    game.elapsed = 75.0
    saved = game.save({"format": "pipe"})
    assert saved["filename"] == "k2.txt" and saved["text"].startswith("# kakuro-np play: 7")
    other = Game()
    state = other.load({"text": saved["text"], "name": "k2.txt"})
    assert state["mode"] == "play" and state["digits"][1][1] == 9
    assert state["marks"][1][2] == [7, 9] and 75 <= state["elapsed"] < 80
    for fmt in kn.formats.FORMATS:
        text = game.save({"format": fmt})["text"]
        assert kn.parse(text).blank.tolist() == game.puzzle.blank.tolist()


class Clock:
    """A clock for a game's timer that moves only when told: ``clock.now += seconds``."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_timer_starts_when_the_page_first_asks_not_when_the_game_is_made():
    clock = Clock()
    game = Game(kn.parse(TINY), "tiny.txt", clock=clock)
    clock.now += 20                                     # the page opens 20 s later
    state = game.state()
    assert state["elapsed"] == 0 and state["running"]
    clock.now += 7
    assert game.state()["elapsed"] == 7
    assert game.save({"format": "pipe"})["text"].startswith("# kakuro-np play: 7.0 s\n")
    clock.now += 40
    assert game.solve()["message"] == "Solved in 0:47!"
    clock.now += 5
    assert game.state()["elapsed"] == 47 and not game.state()["running"]


def test_the_first_move_starts_the_timer_too_and_a_served_game_waits_for_its_page():
    clock = Clock()
    game = Game(kn.parse(TINY), clock=clock)
    clock.now += 20
    assert game.snapshot()["elapsed"] == 0 and not game.snapshot()["running"]
    game.move({"op": "digit", "cell": [1, 1], "digit": 1})
    clock.now += 3
    assert game.snapshot()["elapsed"] == 3
    server = make_server(game)                          # served: it waits for the page again
    try:
        clock.now += 20
        assert game.snapshot()["elapsed"] == 3 and not game.snapshot()["running"]
        clock.now += 1
        assert game.state()["elapsed"] == 3 and game.state()["running"]
    finally:
        server.server_close()


def test_a_loaded_game_goes_on_from_its_saved_time_and_a_new_puzzle_starts_at_0():
    clock = Clock()
    text = "# kakuro-np play: 75.0 s\n" + kn.formats.format(kn.parse(TINY), "pipe")
    game = Game(clock=clock)
    game.load({"text": text, "name": "tiny.txt"})       # as `kakuro-np play FILE` does
    make_server(game).server_close()
    clock.now += 20
    assert game.state()["elapsed"] == 75
    clock.now += 5
    assert game.state()["elapsed"] == 80
    clock.now += 5
    state = game.load({"text": text, "name": "tiny.txt"})     # the page loads it again
    assert state["elapsed"] == 75 and state["running"]
    clock.now += 2
    assert game.state()["elapsed"] == 77
    state = game.new({"rows": 4, "cols": 4})
    clock.now += 9
    assert state["elapsed"] == 0 and not game.state()["running"]
    game.load({"text": kn.formats.format(kn.parse(TINY), "pipe"), "name": "tiny.txt"})
    clock.now += 4
    assert game.state()["elapsed"] == 4


def test_write_pipe_and_pipe_marks_round_trip():
    p = kn.read(PUZZLES / "k1.txt")
    rng = np.random.default_rng(1)
    marks = (rng.random(p.shape + (9,)) < 0.3) & p.blank[:, :, None]
    assert (pipe_marks(write_pipe(p, marks)) == marks).all()
    assert kn.parse(write_pipe(p, marks)) == p


def test_load_takes_a_puzzlink_url_and_refuses_nonsense():
    game = Game()
    assert game.load({"text": CSPUZ})["rows"] == 6
    before = game.state()
    with pytest.raises(MoveError, match="cannot load"):
        game.load({"text": "hello world"})
    assert board_of(game.state()) == board_of(before)


# -- create mode --------------------------------------------------------------------------

def created(game, puzzle):
    """Make ``puzzle`` in create mode by toggles and sums, as the page does."""
    H, W = puzzle.shape
    state = game.new({"rows": H, "cols": W})
    for r in range(1, H):
        for c in range(1, W):
            if not puzzle.blank[r, c]:
                state = game.edit({"op": "toggle", "cell": [r, c]})
    for r, c in np.argwhere(~puzzle.blank & ((puzzle.down > 0) | (puzzle.across > 0))):
        state = game.edit({"op": "sum", "cell": [int(r), int(c)], "down": int(puzzle.down[r, c]),
                           "across": int(puzzle.across[r, c])})
    return state


def test_create_mode_says_unique_multiple_or_incomplete_and_plays():
    puzzle = kn.generate(6, 6, seed=3)
    game = Game()
    state = game.new({"rows": 6, "cols": 6})
    assert state["mode"] == "create" and state["status"]["solutions"] == "incomplete"
    state = created(game, puzzle)
    assert state["status"]["solutions"] == "unique" and state["status"]["grade"]
    assert game.puzzle == puzzle
    r, c = (int(i) for i in np.argwhere(puzzle.down > 0)[0])
    state = game.edit({"op": "sum", "cell": [r, c], "down": 0})
    assert state["status"]["solutions"] == "incomplete"
    with pytest.raises(MoveError, match="cannot play yet"):
        game.mode({"mode": "play"})
    game.undo()
    state = game.mode({"mode": "play"})
    assert state["mode"] == "play" and state["running"]


def test_create_mode_fills_a_drawn_layout_with_sums_of_one_solution():
    pattern = kn.read(PUZZLES / "k2.txt").blank
    game = Game()
    created(game, kn.Puzzle(pattern, np.zeros(pattern.shape, int), np.zeros(pattern.shape, int)))
    state = game.fill()
    assert state["mode"] == "create" and state["message"] == "sums filled in: one solution"
    assert np.array_equal(game.puzzle.blank, pattern) and kn.count(game.puzzle, limit=2) == 1
    filled = game.puzzle
    game.undo()
    assert not np.array(game.state()["down"]).any()
    game.redo()
    assert game.puzzle == filled
    game.edit({"op": "toggle", "cell": [1, 1]})                # k2's (1, 2) is left alone
    with pytest.raises(MoveError, match=r"cannot fill this layout: cell \(1, 2\): a run of 1"):
        game.fill()
    with pytest.raises(MoveError, match="create mode"):
        Game(kn.parse(TINY)).fill()


def test_create_mode_starts_on_the_size_the_pages_new_fields_show():
    from importlib import resources
    page = resources.files("kakuro_np.play").joinpath("static", "index.html").read_text()
    fields = [int(re.search(rf'<input id="{name}"[^>]* value="(\d+)"', page)[1])
              for name in ("new-rows", "new-cols")]
    state = Game().state()
    assert state["mode"] == "create" and [state["rows"], state["cols"]] == fields


def test_create_mode_refuses_bad_edits():
    game = Game()
    game.new({"rows": 5, "cols": 5})
    before = board_of(game.state())
    for body, said in [({"op": "sum", "cell": [2, 2], "down": 5}, "is a blank cell"),
                       ({"op": "sum", "cell": [0, 1], "down": 46}, "1-45"),
                       ({"op": "sum", "cell": [0, 1], "across": 5}, "no across run"),
                       ({"op": "paint", "cell": [1, 1]}, "unknown edit"),
                       ({"op": "toggle", "cell": [5, 0]}, "no cell")]:
        with pytest.raises(MoveError, match=said):
            game.edit(body)
    for body in ({"rows": 2, "cols": 5}, {"rows": 5, "cols": 41}, {"rows": "5", "cols": 5}):
        with pytest.raises(MoveError, match="3-40"):
            game.new(body)
    with pytest.raises(MoveError, match="create mode"):
        Game(kn.parse(TINY)).edit({"op": "toggle", "cell": [1, 1]})
    assert board_of(game.state()) == before


def test_heads_and_solves_agree_with_the_puzzles_runs():
    p = kn.read(PUZZLES / "k3.txt")
    down, across = heads(p.blank)
    assert (down == (p.down > 0)).all() and (across == (p.across > 0)).all()
    solution = kn.kakuro(p)[0]
    assert solves(p, solution)
    wrong = solution.copy()
    r, c = np.argwhere(p.blank)[0]
    wrong[r, c] = wrong[r, c] % 9 + 1
    assert not solves(p, wrong)


# -- the server ---------------------------------------------------------------------------

@pytest.fixture
def served():
    game = Game(kn.parse(TINY), "tiny.txt")
    game.state()                    # its status worked out (compiling, on a cold cache) first
    server = make_server(game)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def ask(server, path, body=None, raw=None, method=None, headers=None):
    """``(status, answer)`` of one request, sent as the page sends it (its token, JSON)
    unless ``headers`` say otherwise."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {**server.api_headers(), **(headers or {})}
    request = urllib.request.Request(server.url + path.lstrip("/"), data=data, method=method,
                                     headers={k: v for k, v in headers.items() if v is not None})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            content = answer.read()
            status = answer.status
    except urllib.error.HTTPError as e:
        content, status = e.read(), e.code
    try:
        return status, json.loads(content)
    except ValueError:
        return status, content


def test_the_server_serves_the_page_and_the_state(served):
    assert served.url.startswith("http://127.0.0.1:")
    status, page = ask(served, "/")
    assert status == 200 and b"play.js" in page
    for name in ("/play.js", "/play.css"):
        assert ask(served, name)[0] == 200
    status, state = ask(served, "/api/state")
    assert status == 200 and state["status"]["text"] == "unique, easy (10.1)"
    status, state = ask(served, "/api/move", {"op": "digit", "cell": [1, 1], "digit": 1})
    assert status == 200 and state["digits"][1][1] == 1
    assert ask(served, "/api/formats")[1]["formats"] == list(kn.formats.FORMATS)
    assert ask(served, "/api/combos?cell=1,2")[1]["down"]["combos"] == [[1, 2]]


@pytest.mark.parametrize("path, body, raw, method, code, said", [
    ("/api/move", {"op": "digit", "cell": [1, 1], "digit": 12}, None, None, 400, "1-9"),
    ("/api/move", {"op": "digit", "cell": [9, 9], "digit": 1}, None, None, 400, "no cell"),
    ("/api/move", None, b"{not json", None, 400, "not JSON"),
    ("/api/move", None, b"[1, 2]", None, 400, "JSON object"),
    ("/api/move", None, b"\xff\xfe", None, 400, "not JSON"),
    ("/api/nothing", {}, None, None, 404, "no such path"),
    ("/api/state", {}, None, None, 405, "takes GET"),
    ("/api/undo", None, None, "GET", 405, "takes POST"),
    ("/api/combos?cell=a,b", None, None, None, 400, "row,col"),
    ("/api/combos?cell=0,0", None, None, None, 400, "not a blank cell"),
    ("/api/save", {"format": "png"}, None, None, 400, "unknown format"),
    ("/api/edit", {"op": "toggle", "cell": [1, 1]}, None, None, 400, "create mode"),
    ("/api/pause", {"running": "no"}, None, None, 400, "true or false"),
])
def test_bad_requests_get_a_clear_error_and_keep_the_game(served, path, body, raw, method,
                                                          code, said):
    ask(served, "/api/move", {"op": "digit", "cell": [2, 1], "digit": 3})
    before = board_of(ask(served, "/api/state")[1])
    status, answer = ask(served, path, body, raw, method)
    assert status == code and said in answer["error"]
    assert board_of(answer["state"]) == before
    assert board_of(ask(served, "/api/state")[1]) == before     # and the server still serves


def test_a_huge_body_is_refused(served):
    # The server answers from the Content-Length, before reading the body (a client
    # sending 2 MiB meanwhile may meet a closed socket): this one sends the headers.
    host, port = served.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.putrequest("POST", "/api/load")
    for name, value in served.api_headers().items():
        conn.putheader(name, value)
    conn.putheader("Content-Length", str(1 << 21))
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413 and "at most" in json.loads(answer.read())["error"]
    conn.close()


def test_the_command_line_refuses_a_bad_file_and_a_taken_port(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("x ; 3 0\n0 3 ; q\n")
    assert main(["play", str(bad), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.txt:2" in err
    game = Game(kn.parse(TINY))
    with make_server(game) as taken:
        port = taken.server_address[1]
        assert main(["play", str(PUZZLES / "k1.txt"), "--no-browser", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err


def test_play_serves_a_puzzlink_url_without_a_browser():
    """`kakuro-np play URL --no-browser --port 0`: the first line on stderr names the page."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "kakuro_np", "play", CSPUZ, "--no-browser"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        while line.startswith("kakuro-np: compiling"):
            line = proc.stderr.readline()
        assert line.startswith("kakuro-np play: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=60) as answer:           # the page: its token
            token = re.search(r'name="kakuro-token" content="([^"]+)"', answer.read().decode())[1]
        ask_state = urllib.request.Request(url + "api/state", headers={"X-Kakuro-Token": token})
        with urllib.request.urlopen(ask_state, timeout=60) as answer:
            state = json.load(answer)
        assert (state["rows"], state["cols"]) == kn.parse(CSPUZ).shape and state["mode"] == "play"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# -- what the server trusts, and what no request can stall ----------------------------------

def raw_request(server, lines, body=b"", timeout=30):
    """``(status, answer)`` of a request written by hand: the request line and headers."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        answer = http.client.HTTPResponse(conn)
        answer.begin()
        content = answer.read()
    try:
        return answer.status, json.loads(content)
    except ValueError:
        return answer.status, content


@pytest.mark.parametrize("headers, code", [
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, 403),  # a cross-site form
    ({"Origin": "http://evil.example"}, 403),                          # even with the token
    ({"Origin": "null"}, 403),
    ({"X-Kakuro-Token": None}, 403),                                   # no token
    ({"X-Kakuro-Token": "guess"}, 403),
    ({"X-Kakuro-Token": ""}, 403),
    ({"Content-Type": "text/plain"}, 415),                             # the token, not JSON
    ({"Content-Type": None}, 415),
])
def test_a_request_that_is_not_the_pages_is_refused_and_changes_nothing(served, headers, code):
    before = ask(served, "/api/state")[1]
    for path, body in (("/api/move", {"op": "digit", "cell": [1, 1], "digit": 1}),
                       ("/api/load", {"text": "x ; 3 0\n0 3 ; _"}), ("/api/solve", {}),
                       ("/api/new", {"rows": 5, "cols": 5}), ("/api/restart", {})):
        status, answer = ask(served, path, body, headers=headers)
        assert status == code and answer["error"], (path, answer)
    after = ask(served, "/api/state")[1]
    assert board_of(after) == board_of(before) and after["can_undo"] == before["can_undo"]


def test_a_foreign_host_gets_neither_the_page_nor_the_state(served):
    port = served.server_address[1]
    token = served.token
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.2:{port}",
                 f"localhost:{port + 1}", ""):
        for path in ("/", "/api/state"):
            lines = [f"GET {path} HTTP/1.1", f"Host: {host}", f"X-Kakuro-Token: {token}",
                     "Connection: close"]
            status, answer = raw_request(served, lines)
            assert status == 403 and token.encode() not in json.dumps(answer).encode(), host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        lines = ["GET /api/state HTTP/1.1", f"Host: {host}", f"X-Kakuro-Token: {token}",
                 "Connection: close"]
        assert raw_request(served, lines)[0] == 200


def test_the_page_carries_the_servers_own_token(served):
    status, page = ask(served, "/", headers={"X-Kakuro-Token": None})
    assert status == 200
    assert f'<meta name="kakuro-token" content="{served.token}">'.encode() in page
    other = make_server(Game(kn.parse(TINY)))
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        assert other.token != served.token and len(served.token) >= 32
        assert ask(other, "/api/state", headers={"X-Kakuro-Token": served.token})[0] == 403
    finally:
        other.shutdown()
        other.server_close()


def test_a_slow_body_stalls_no_other_client(served, monkeypatch):
    """A socket that promises 100 bytes and sends 1 holds only its own request: the game is
    not locked while a body is read, and the socket gives up after READ_SECONDS (408)."""
    from kakuro_np.play import server as play_server
    read_seconds = 6.0
    monkeypatch.setattr(play_server.Handler, "timeout", read_seconds)
    host, port = served.server_address[:2]
    slow = socket.create_connection((host, port), timeout=30)
    head = ["POST /api/move HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Length: 100",
            f"X-Kakuro-Token: {served.token}", "Content-Type: application/json"]
    slow.sendall(("\r\n".join(head) + "\r\n\r\n{").encode())
    try:
        time.sleep(0.2)                                 # the slow request is being read
        started = time.monotonic()
        for path, body in (("/api/state", None), ("/api/move", {"op": "digit", "cell": [1, 1],
                                                                 "digit": 1}),
                           ("/api/undo", {})):
            status, _ = ask(served, path, body)
            assert status == 200, path
        # all answered while the slow request is still read: a game locked meanwhile answers
        # them only once it gives up, ``read_seconds`` after its last byte (each takes ms)
        assert not select.select([slow], [], [], 0)[0], "the slow request ended first"
        assert time.monotonic() - started < read_seconds / 2
        answer = http.client.HTTPResponse(slow)
        answer.begin()
        assert answer.status == 408 and "longer than" in json.loads(answer.read())["error"]
    finally:
        slow.close()
    assert ask(served, "/api/state")[1]["digits"][1] == [0, 0, 0]


def test_a_long_answer_holds_no_lock(served, monkeypatch):
    """While a hint is worked out, other requests are answered at once; the hint comes back
    after the time limit with a message, and the board it was asked of is left alone."""
    import kakuro_np.play.game as game_module
    release, working = threading.Event(), threading.Event()

    def slow_hint(board, solutions=None, seconds=None):
        working.set()
        release.wait(60)
        return game_module.STUCK

    monkeypatch.setattr(game_module, "hint_of", slow_hint)
    served.game.answer_seconds = answer_seconds = 5.0
    answers = []
    asking = threading.Thread(target=lambda: answers.append(ask(served, "/api/hint", {})))
    asking.start()
    try:
        assert working.wait(60)                         # the hint is being worked out
        started = time.monotonic()
        status, state = ask(served, "/api/move", {"op": "digit", "cell": [1, 1], "digit": 1})
        assert status == 200 and state["digits"][1][1] == 1
        # at once: a lock held while the hint's request waits for it would hold the move
        # until that request gives up, ``answer_seconds`` on (the move itself takes ms)
        assert time.monotonic() - started < answer_seconds / 2
        asking.join(60)
        status, state = answers[0]
        assert status == 200 and f"takes longer than {answer_seconds:g} s" in state["message"]
        assert state["hint"] is None
    finally:
        release.set()


def test_a_hint_on_the_open_block_answers_within_the_time_limit():
    """An open 9x9 block of 45s with a few digits placed: each answer within 5 s (and a
    hint or a message saying it goes on), whatever the machine's speed."""
    from kakuro_np.play.game import ANSWER_SECONDS
    game = Game(kn.Puzzle.from_rows(OPEN_BLOCK))
    server = make_server(game)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for r, c, d in ((1, 1, 5), (2, 3, 7), (5, 5, 1), (9, 9, 2)):
            ask(server, "/api/move", {"op": "digit", "cell": [r, c], "digit": d})
        for path in ("/api/hint", "/api/check", "/api/marks", "/api/hint"):
            started = time.monotonic()
            status, state = ask(server, path, {})
            took = time.monotonic() - started
            assert status in (200, 400) and took < ANSWER_SECONDS + 1.0, (path, took)
            state = state.get("state", state)
            assert state["hint"] or state["message"], path
    finally:
        server.shutdown()
        server.server_close()


def test_undo_keeps_the_newest_moves_within_its_caps(monkeypatch):
    import kakuro_np.play.game as game_module
    monkeypatch.setattr(game_module, "MOST_MOVES", 50)
    game = Game(kn.read(PUZZLES / "k2.txt"))
    cells = [[int(r), int(c)] for r, c in np.argwhere(game.puzzle.blank)]
    for i in range(200):
        game.move({"op": "mark", "cell": cells[i % len(cells)], "digit": i % 9 + 1})
    assert len(game.history) == 50
    newest = board_of(game.state())
    for _ in range(50):
        game.undo()
    with pytest.raises(MoveError, match="nothing to undo"):
        game.undo()
    for _ in range(50):
        game.redo()
    assert board_of(game.state()) == newest


def test_memory_after_5000_create_mode_edits_stays_under_the_caps():
    """A 40x40 grid edited 5,000 times: the undo stack keeps at most MOST_HISTORY_BYTES of
    boards, what the solver said at most MOST_KNOWN_BYTES, and the process's memory grows
    by no more than those (measured by tracemalloc)."""
    import tracemalloc
    from kakuro_np.play.game import MOST_HISTORY_BYTES, MOST_KNOWN_BYTES
    game = Game()
    game.new({"rows": 40, "cols": 40})
    rng = np.random.default_rng(5)
    cells = rng.integers(1, 40, size=(5000, 2))
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for r, c in cells:
            with game.lock:             # the edit alone: the state's JSON is the page's
                Game.edit.__wrapped__(game, {"op": "toggle", "cell": [int(r), int(c)]})
            game._analysed(game.board, game._key())
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert game.history_bytes <= MOST_HISTORY_BYTES and game.known_bytes <= MOST_KNOWN_BYTES
    assert len(game.history) < 5000
    assert grown < MOST_HISTORY_BYTES + MOST_KNOWN_BYTES + (8 << 20), grown
    assert game.undo()["can_undo"]
