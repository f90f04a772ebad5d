"""kakuro-np play at its limits: grids too large for the library, numbers past bounds in a
saved game, slow clients, and layouts too large or too hard to fill."""

import importlib
import json
import select
import socket
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.errors import BudgetError, PuzzleError, SolveTimeout, TooManySolutions
from kakuro_np.play import game as game_module
from kakuro_np.play import server as server_module
from kakuro_np.play.game import MOST_SECONDS, GaveUp, Game, MoveError, analyse, heads
from kakuro_np.play.server import make_server

TINY = "x ; 4 0 ; 3 0\n0 3 ; _ ; _\n0 4 ; _ ; _"          # one solution: 1 2 / 3 1


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def strict_json(content: bytes):
    """``content`` as JSON, refusing NaN and Infinity as the standard does."""
    return json.loads(content, parse_constant=_no_constant)


def ask(server, path, body=None, timeout=30):
    """``(status, answer)`` of one request sent as the page sends it; the answer must be
    strict JSON."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path.lstrip("/"), data=data,
                                     headers=server.api_headers())
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            content, status = answer.read(), answer.status
    except urllib.error.HTTPError as e:
        content, status = e.read(), e.code
    return status, strict_json(content)


@pytest.fixture
def serve():
    """Start servers for games (``serve(game, answer_seconds=...)``); all stop at the end."""
    started = []

    def start(game, **options):
        server = make_server(game, **options)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return server
    yield start
    for server in started:
        server.shutdown()
        server.server_close()


@pytest.fixture
def served(serve):
    game = Game(kn.parse(TINY), "tiny.txt")
    game.state()                    # its status worked out (compiling, on a cold cache) first
    return serve(game)


def blocks(n_blocks=4, side=9, total=45) -> kn.Puzzle:
    """Open ``side`` x ``side`` blocks of blanks in a square grid, every sum ``total``."""
    H = n_blocks * (side + 1)
    blank = np.ones((H, H), bool)
    blank[::side + 1, :] = blank[:, ::side + 1] = False
    down, across = heads(blank)
    return kn.Puzzle(blank, np.where(down, total, 0), np.where(across, total, 0))


# -- whatever the library raises is an answer --------------------------------------------

def test_a_grid_too_large_to_analyse_says_so_and_the_game_goes_on(served):
    """16 open 9x9 blocks of 45s pass the solver's row budget (BudgetError): the load is
    answered, the state says the grid is too large, a solve is a 422, the state still
    answers."""
    text = kn.formats.format(blocks(), "pipe")
    status, state = ask(served, "/api/load", {"text": text, "name": "blocks.txt"})
    assert status == 200 and state["rows"] == 40
    deadline = time.monotonic() + 120
    while state["status"]["solutions"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.2)
        status, state = ask(served, "/api/state")
        assert status == 200
    assert "too large to analyse" in state["status"]["text"], state["status"]
    status, answer = ask(served, "/api/solve", {})
    assert status == 422 and "too large" in answer["error"]
    assert answer["state"]["rows"] == 40
    assert ask(served, "/api/state")[0] == 200
    assert ask(served, "/api/move", {"op": "digit", "cell": [1, 1], "digit": 5})[0] == 200


def test_a_grid_drawn_too_large_says_so_in_create_mode():
    """The same grid drawn cell by cell in create mode: its status says it is too large."""
    puzzle = blocks()
    game = Game()
    game.new({"rows": 40, "cols": 40})
    draw = Game.edit.__wrapped__                # the edits alone: the status comes last
    with game.lock:
        for r, c in np.argwhere(~puzzle.blank[1:, 1:]) + 1:
            draw(game, {"op": "toggle", "cell": [int(r), int(c)]})
        for r, c in np.argwhere((puzzle.down > 0) | (puzzle.across > 0)):
            draw(game, {"op": "sum", "cell": [int(r), int(c)], "down": int(puzzle.down[r, c]),
                        "across": int(puzzle.across[r, c])})
    assert game.puzzle == puzzle
    state = game.state()
    assert state["mode"] == "create" and "too large to analyse" in state["status"]["text"]
    assert game.edit({"op": "sum", "cell": [0, 1], "down": 44})["down"][0][1] == 44


@pytest.mark.parametrize("error, code", [
    (BudgetError("the tables would pass 10,000,000 rows"), 422),
    (TooManySolutions("too many"), 422),
    (MemoryError(), 422),
    (RecursionError("maximum recursion depth exceeded"), 422),
    (PuzzleError("a run of 1"), 422),
    (ValueError("a bad value"), 422),
    (SolveTimeout("timed out"), 503),
    (KeyError("a bug"), 500),
])
def test_whatever_a_request_raises_is_a_json_answer_with_the_state(served, monkeypatch,
                                                                    error, code):
    """The error path answers with the board as it stands, without asking the game's
    failing method again; the next request is served as usual."""
    def fail(*args):
        raise error
    monkeypatch.setattr(Game, "state", fail)
    status, answer = ask(served, "/api/state")
    assert status == code and answer["error"], answer
    assert answer["state"]["digits"] == [[0, 0, 0]] * 3
    monkeypatch.undo()
    assert ask(served, "/api/state")[0] == 200


@pytest.mark.parametrize("error", [BudgetError("rows"), TooManySolutions("many"), MemoryError(),
                                   RecursionError("deep")])
def test_analyse_says_a_grid_is_too_large_instead_of_raising(monkeypatch, error):
    import kakuro_np.solve

    def fail(*args, **kwargs):
        raise error
    monkeypatch.setattr(kakuro_np.solve, "kakuro", fail)
    solutions, status, complete = analyse(Game(kn.parse(TINY)).board, 5.0)
    assert solutions is None and complete
    assert status["solutions"] == "unknown" and "too large to analyse" in status["text"]


def test_an_answer_json_cannot_hold_is_a_500_in_json(served, monkeypatch):
    monkeypatch.setattr(Game, "state", lambda self, until=None: {"elapsed": float("nan")})
    status, answer = ask(served, "/api/state")
    assert status == 500 and answer["error"]


# -- numbers in a saved game ------------------------------------------------------------

@pytest.mark.parametrize("played", ["9" * 400, "9" * 400 + ".5", "99999999999"],
                         ids=["400 digits", "400 digits and a fraction", "11 digits"])
def test_a_saved_time_past_the_bound_loads_within_it(served, played):
    text = f"# kakuro-np play: {played} s\n" + kn.formats.format(kn.parse(TINY), "pipe")
    status, state = ask(served, "/api/load", {"text": text, "name": "long.txt"})
    assert status == 200 and state["elapsed"] <= MOST_SECONDS
    assert "99 hours" in state["message"]
    status, state = ask(served, "/api/solve", {})
    assert status == 200 and state["solved"] and state["elapsed"] <= MOST_SECONDS
    assert "Solved in 99:" in state["message"]


def test_a_game_given_a_huge_time_keeps_it_bounded():
    game = Game(kn.parse(TINY), elapsed=float("inf"))
    assert game.seconds() == MOST_SECONDS
    assert np.isfinite(game.state()["elapsed"])


# -- slow clients -------------------------------------------------------------------------

def _closed_within(conn, seconds) -> bool:
    """Whether the server closes ``conn`` (an end of file, a reset) within ``seconds``."""
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
        return True
    except (ConnectionError, OSError) as e:
        return not isinstance(e, TimeoutError)


def _slow(server, start=b"GET /api/state HTTP/1.1\r\n"):
    conn = socket.create_connection(server.server_address[:2], timeout=30)
    conn.sendall(start)
    return conn


def test_a_trickling_request_is_closed_when_its_whole_deadline_passes(served, monkeypatch):
    """A byte every 0.1 s keeps each read within its limit; the request as a whole may take
    ``Handler.request_seconds`` (here 1 s), then the server closes the connection."""
    monkeypatch.setattr(server_module.Handler, "request_seconds", 1.0)
    port = served.server_address[1]
    conn = _slow(served, f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
    started = time.monotonic()
    closed_after = None
    try:
        while time.monotonic() - started < 30.0:      # never closed: the test fails
            readable, _, _ = select.select([conn], [], [], 0.1)
            if readable and _closed_within(conn, 1.0):
                closed_after = time.monotonic() - started
                break
            try:
                conn.sendall(b"x")
            except (ConnectionError, OSError):
                closed_after = time.monotonic() - started
                break
    finally:
        conn.close()
    assert closed_after is not None and closed_after < 20.0, closed_after     # its 1 s, and slack


def test_a_ninth_connection_from_one_address_closes_the_oldest_waiting(served):
    """One address holds at most MOST_PER_ADDRESS connections waiting on it: the next one
    closes the one that has waited longest, and is served."""
    most = server_module.MOST_PER_ADDRESS
    conns = [_slow(served) for _ in range(most)]
    try:
        time.sleep(0.2)                             # all accepted, the first the oldest
        status, _ = ask(served, "/api/state")
        assert status == 200
        assert _closed_within(conns[0], 60.0)       # a wait on the close: at once idle
    finally:
        for conn in conns:
            conn.close()


def test_32_trickling_clients_shut_no_one_out(served):
    """32 connections sending a byte now and then (no token needed): the page and the state
    are still answered, each within the 5 s of the contract."""
    conns = [_slow(served) for _ in range(32)]
    stop = threading.Event()

    def trickle():
        while not stop.wait(0.3):
            for conn in conns:
                try:
                    conn.sendall(b"x")
                except OSError:
                    pass
    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        for path in ("/", "/api/state", "/", "/api/state", "/api/state"):
            started = time.monotonic()
            request = urllib.request.Request(served.url + path.lstrip("/"),
                                             headers=served.api_headers())
            with urllib.request.urlopen(request, timeout=30) as answer:
                assert answer.status == 200
                answer.read()
            assert time.monotonic() - started < 5.0, path
    finally:
        stop.set()
        trickler.join(5)
        for conn in conns:
            conn.close()


# -- a layout too large or too hard to fill ---------------------------------------------------

def test_a_layout_past_the_largest_is_refused_with_the_command_to_use(serve):
    """A 199x199 layout (a loaded puzzle, switched to create mode) is not filled here: a
    422 at once, naming ``kakuro-np generate --layout``."""
    H = 199
    blank = np.ones((H, H), bool)
    blank[::6, :] = blank[:, ::6] = False
    down, across = heads(blank)
    text = kn.formats.format(kn.Puzzle(blank, np.where(down, 15, 0), np.where(across, 15, 0)),
                             "pipe")
    server = serve(Game(kn.parse(TINY)), answer_seconds=1.0)
    assert ask(server, "/api/load", {"text": text, "name": "big.txt"})[0] == 200
    assert ask(server, "/api/mode", {"mode": "create"})[0] == 200
    status, answer = ask(server, "/api/fill", {})
    assert status == 422 and "kakuro-np generate --layout" in answer["error"], answer
    assert answer["state"]["rows"] == H and answer["state"]["mode"] == "create"


def _layout_game(side=6, answer_seconds=0.2) -> Game:
    game = Game(answer_seconds=answer_seconds)
    game.new({"rows": side, "cols": side})
    return game


def test_a_fill_that_never_ends_in_time_is_given_up_after_a_few_asks(monkeypatch):
    """Each ask waits ``answer_seconds`` and says to ask again; the MOST_FILL_ASKS-th says
    the fill gave up (a 422), and so does every ask after."""
    generate_module = importlib.import_module("kakuro_np.generator")
    release = threading.Event()

    def stuck(*args, **kwargs):
        release.wait(30)
        raise SolveTimeout("timed out")
    monkeypatch.setattr(generate_module, "generate", stuck)
    game = _layout_game()
    try:
        for _ in range(game_module.MOST_FILL_ASKS - 1):
            assert "ask again" in game.fill()["message"]
        for _ in range(2):
            with pytest.raises(GaveUp, match="kakuro-np generate --layout") as e:
                game.fill()
            assert e.value.status == 422
    finally:
        release.set()


def test_a_fill_the_library_gives_up_on_is_given_up_at_once(monkeypatch):
    generate_module = importlib.import_module("kakuro_np.generator")

    def too_hard(*args, **kwargs):
        raise SolveTimeout("timed out while making a puzzle unique")
    monkeypatch.setattr(generate_module, "generate", too_hard)
    game = _layout_game(answer_seconds=None)           # waits for the answer, however slow
    with pytest.raises(GaveUp, match="too large or too hard to fill here"):
        game.fill()
    assert isinstance(GaveUp("x"), MoveError)
