"""The game the play page shows: a puzzle, the player's digits and pencil marks, undo, a timer.

Every decision is the library's: ``check``, ``hint``, ``kakuro``, ``count``,
``grade`` and ``kc`` answer; this module keeps the state between requests and
writes it as the JSON of ``CONTRACT.md``.

A game serves several requests at once (the server's threads). Its ``lock``
guards the board and is held only while the board is read or changed, never
while the library works: a question to the library (the status, check, hint,
solve, pencil marks) reads the board under the lock, is worked out on the
background thread of ``worker`` with a time limit, and its answer is written
under the lock again, unless the board changed meanwhile. An answer that takes
longer than the game's ``answer_seconds`` (the server's: ``ANSWER_SECONDS``; none
for a game used directly) says so (status "pending", or a message to ask again)
while the work goes on. When the library gives up on a grid (``TOO_LARGE``: its
tables would pass the row budget, memory runs out, the search nests too deep)
the status says the grid is too large to analyse, and a question about it raises
``GaveUp``; the game goes on. A fill gives up likewise, on a layout past
``LARGEST`` a side or still at work after ``MOST_FILL_ASKS`` asks. The time
played is at most ``MOST_SECONDS``; the timer starts when the page first asks for
the state (a move's answer is the state too), not when the game is made or served.
Undo keeps at most ``MOST_MOVES`` boards and ``MOST_HISTORY_BYTES`` of their
arrays, and ``known`` at most ``MOST_KNOWN`` puzzles and ``MOST_KNOWN_BYTES``,
dropping the oldest first.

Glossary
--------
board  : what undo restores: the mode, the layout and sums (create mode edits
         them), the digits and the pencil marks.
block  : a cell that is not blank; a block is a clue when a run starts below
         or right of it (``heads``), else inactive.
marks  : pencil marks, (H, W, 9) bool: ``marks[r, c, d - 1]`` for digit d.

Examples
--------
>>> import kakuro_np as kn
>>> game = Game(kn.read("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _"))
>>> game.move({"op": "digit", "cell": [1, 1], "digit": 2})["message"]
'2 at (1, 1)'
>>> game.check()["wrong"]
[[1, 1]]
>>> game.undo()["digits"][1]
[0, 0, 0]
"""

from __future__ import annotations

import functools
import re
import sys
import threading
import time
import traceback
from collections import OrderedDict, deque
from typing import NamedTuple

import numpy as np

from ..errors import BudgetError, PuzzleError, SolveTimeout, TooManySolutions
from ..puzzle import Puzzle
from . import worker

#: The longest a request to the server waits for the library (the status, check, hint,
#: solve, marks): the server's ``answer_seconds``.
ANSWER_SECONDS = 5.0
#: The share of ``answer_seconds`` the library is given as its time limit.
WORK_SHARE = 0.9
#: A status cut short by its time limit is worked out again after this many seconds.
RETRY_SECONDS = 30.0
#: Undo keeps at most this many boards, and this many bytes of their arrays.
MOST_MOVES, MOST_HISTORY_BYTES = 10_000, 64 << 20
#: What the solver said is kept for at most this many puzzles, and this many bytes.
MOST_KNOWN, MOST_KNOWN_BYTES = 256, 16 << 20
#: Sizes a new grid may have.
SMALLEST, LARGEST = 3, 40
#: The (rows, cols) of the grid create mode starts on (the page's New fields show it too).
NEW_SIZE = (10, 10)
#: The pipe file's comment line that keeps the time played.
TIME_LINE = re.compile(r"^#\s*kakuro-np play: (\d+(?:\.\d*)?) s\s*$", re.MULTILINE)
#: The most time played a game keeps (a saved time past it loads as this).
MOST_SECONDS = 99 * 3600.0
#: What the library raises when a grid is past what it can work out here.
TOO_LARGE = (BudgetError, TooManySolutions, MemoryError, RecursionError)
#: A layout's fill is given up when this many asks found it still at work.
MOST_FILL_ASKS = 3
#: The fills kept (a layout's sums, or why it gave up), for this many layouts.
MOST_FILLS = 16
#: Where a layout too large or too hard to fill here can be filled.
FILL_ELSEWHERE = ("save it in the pipe format and fill it on the command line, with all "
                  "the time it needs: kakuro-np generate --layout FILE --timeout SECONDS")


class MoveError(ValueError):
    """A request the game refuses (a bad cell, digit, op or mode); the game is unchanged."""


class GaveUp(MoveError):
    """The library gave up on this grid (too large or too hard here); the game is unchanged."""
    status = 422


def why_too_large(error: BaseException) -> str:
    """What a ``TOO_LARGE`` error (or any other) says, in a few words.

    Examples
    --------
    >>> why_too_large(MemoryError()), why_too_large(BudgetError("rows"))
    ('the memory ran out', 'rows')
    """
    if isinstance(error, MemoryError):
        return "the memory ran out"
    if isinstance(error, RecursionError):
        return "its search nests too deep"
    said = re.sub(r"\s*\(raise max_rows= to allow more\)", "", str(error))   # not the page's
    return said or type(error).__name__


def bounded_seconds(seconds) -> float:
    """``seconds`` played, within 0 and ``MOST_SECONDS`` (NaN: 0).

    Examples
    --------
    >>> bounded_seconds(float("inf")) == MOST_SECONDS, bounded_seconds(-3.0)
    (True, 0.0)
    """
    seconds = float(seconds)
    return min(max(seconds, 0.0), MOST_SECONDS) if seconds == seconds else 0.0


class Board(NamedTuple):
    """What undo restores (see the module's glossary)."""
    mode: str               #: "play" or "create"
    blank: np.ndarray       #: (H, W) bool
    down: np.ndarray        #: (H, W) int, a clue cell's down sum, 0: none
    across: np.ndarray      #: (H, W) int
    digits: np.ndarray      #: (H, W) int8, the player's digits, 0: none
    marks: np.ndarray       #: (H, W, 9) bool


def heads(blank) -> tuple:
    """``(down, across)``: (H, W) bool, the blocks a down (across) run starts below (right of).

    Examples
    --------
    >>> d, a = heads(np.array([[0, 0, 0], [0, 1, 1], [0, 1, 1]], bool))
    >>> d.astype(int).tolist(), a.astype(int).tolist()
    ([[0, 1, 1], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [1, 0, 0]])
    """
    blank = np.asarray(blank, bool)
    down, across = np.zeros_like(blank), np.zeros_like(blank)
    down[:-1] = ~blank[:-1] & blank[1:]
    across[:, :-1] = ~blank[:, :-1] & blank[:, 1:]
    return down, across


def run_through(blank, r, c, dr, dc) -> list:
    """The cells ``(row, col)`` of the run through blank cell (r, c) along (dr, dc), in order."""
    H, W = blank.shape
    while 0 <= r - dr < H and 0 <= c - dc < W and blank[r - dr, c - dc]:
        r, c = r - dr, c - dc
    cells = []
    while 0 <= r < H and 0 <= c < W and blank[r, c]:
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


def solves(puzzle, digits) -> bool:
    """Whether ``digits`` fill every blank of ``puzzle`` and keep every run's rules.

    Examples
    --------
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> solves(p, [[0, 0, 0], [0, 1, 2], [0, 3, 1]]), solves(p, [[0, 0, 0], [0, 2, 1], [0, 2, 2]])
    (True, False)
    """
    from ..engine.build.entries import entries
    digits = np.asarray(digits).ravel()
    if (digits[puzzle.blank.ravel()] == 0).any():
        return False
    cells, sums = entries(puzzle)
    return all(len(set(digits[run].tolist())) == len(run) and digits[run].sum() == total
               for run, total in zip(cells, sums))


def _clock_text(seconds) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _changes(method):
    """A request that changes the game: ``method`` runs under the game's lock (a
    ``MoveError`` leaves the game as it was), then the answer is the state."""
    @functools.wraps(method)
    def changed(self, *args):
        with self.lock:
            method(self, *args)
        return self.state()
    return changed


def _board_key(board: Board) -> bytes:
    """Everything a board holds, as bytes: the key of a question about it."""
    return b"".join(np.ascontiguousarray(a).tobytes() for a in board[1:]) + board.mode.encode()


def _nbytes(board: Board, below=None) -> int:
    """The bytes of ``board``'s arrays that it does not share with the board ``below`` it."""
    shared = () if below is None else tuple(id(a) for a in below[1:])
    return sum(a.nbytes for a in board[1:] if id(a) not in shared)


class Game:
    """One player's game: a board, its undo and redo stacks, a timer, what the solver said.

    Each public method answers one request of the page (see ``CONTRACT.md``) with
    the state as a dict, and raises ``MoveError`` for a request it refuses. The
    methods may be called from several threads at once (see the module's notes).

    Parameters
    ----------
    puzzle : Puzzle, optional
        The puzzle to play; its given digits are the player's. None: create mode, a
        new ``NEW_SIZE`` grid.
    name : str
        The file name saves are offered under.
    marks : (H, W, 9) bool, optional
    elapsed : float
        Seconds already played (kept within 0 and ``MOST_SECONDS``).
    answer_seconds : float, optional
        The longest a request waits for the library; None: until it answers.
    clock : callable, optional
        The timer's clock, seconds as a float (default ``time.monotonic``).
    """

    def __init__(self, puzzle=None, name="puzzle.txt", marks=None, elapsed=0.0,
                 answer_seconds=None, *, clock=time.monotonic):
        self.answer_seconds = answer_seconds
        self.clock = clock
        self.lock = threading.RLock()
        self.version = 0                # counts the boards: a slow answer checks it is current
        self.fills = OrderedDict()      # layout key -> [asks found at work, made or error]
        self.book = None                # the PDF ``add_to_book`` adds to (``play --book``)
        self.book_lock = threading.Lock()   # one addition at a time, the game's lock free
        self._start(puzzle, name, marks, elapsed)

    # -- the state ----------------------------------------------------------
    def _start(self, puzzle, name, marks=None, elapsed=0.0):
        if puzzle is None:
            self.name = "new.txt"
            board = self._empty_board(*NEW_SIZE)
        else:
            H, W = puzzle.shape
            marks = np.zeros((H, W, 9), bool) if marks is None else np.asarray(marks, bool)
            self.name = name
            board = Board("play", puzzle.blank.copy(), puzzle.down.astype(np.int64),
                          puzzle.across.astype(np.int64), puzzle.given.astype(np.int8),
                          marks & puzzle.blank[:, :, None])
        self._set_board(board)
        self.history, self.future = deque(), []
        self.history_bytes = 0
        self.elapsed, self.since, self.paused = bounded_seconds(elapsed), None, False
        self.shown = False              # the timer waits until the page asks for the state
        self.wrong, self.hint_shown, self.message = [], None, ""
        self.known = OrderedDict()      # puzzle key -> (solutions or None, status, retry at)
        self.known_bytes = 0

    def _set_board(self, board: Board):
        self.board = board
        self.version += 1

    @staticmethod
    def _empty_board(H, W) -> Board:
        blank = np.ones((H, W), bool)
        blank[0, :] = blank[:, 0] = False
        zeros = np.zeros((H, W), np.int64)
        return Board("create", blank, zeros, zeros.copy(), np.zeros((H, W), np.int8),
                     np.zeros((H, W, 9), bool))

    @property
    def puzzle(self) -> Puzzle:
        """The clue-only puzzle on the board (PuzzleError when it is not one yet)."""
        b = self.board
        return Puzzle(b.blank, b.down, b.across)

    def _key(self, board=None) -> bytes:
        """The key of the board's puzzle (its clues, not the player's digits) in ``known``."""
        b = self.board if board is None else board
        return b.blank.tobytes() + b.down.tobytes() + b.across.tobytes()

    def _solved(self) -> bool:
        try:
            return self.board.mode == "play" and solves(self.puzzle, self.board.digits)
        except (PuzzleError, *TOO_LARGE):
            return False

    def _run_timer(self):
        """Start or stop the timer: it runs once the game is shown, in play mode, unpaused,
        until solved."""
        run = (self.shown and self.board.mode == "play" and not self.paused
               and not self._solved())
        now = self.clock()
        if run and self.since is None:
            self.since = now
        elif not run and self.since is not None:
            self.elapsed = bounded_seconds(self.elapsed + now - self.since)
            self.since = None

    def wait_for_page(self):
        """Stop the timer, keeping the time played, until the page next asks for the state:
        a game about to be served waits for its player."""
        with self.lock:
            self.shown = False
            self._run_timer()

    def seconds(self) -> float:
        """Seconds played so far (at most ``MOST_SECONDS``)."""
        running = self.clock() - self.since if self.since is not None else 0.0
        return bounded_seconds(self.elapsed + running)

    def state(self, until=None) -> dict:
        """The state the page draws (``CONTRACT.md``); the status is worked out first
        when the puzzle is new (for ``answer_seconds``, or until the monotonic time
        ``until``; then "pending"). The first answer starts the timer."""
        with self.lock:
            board, key = self.board, self._key()
            found = self.known.get(key)
        if found is None or (found[2] is not None and time.monotonic() > found[2]):
            try:
                worker.run((id(self), "status", key), lambda: self._analysed(board, key),
                           self._wait(until))
            except worker.TooLong:
                pass
        with self.lock:
            if not self.shown:
                self.shown = True
                self._run_timer()
            return self._state()

    def snapshot(self) -> dict:
        """The state as it stands, asking the library nothing (an error's answer carries it)."""
        with self.lock:
            return self._state()

    def _state(self) -> dict:
        b = self.board
        head_down, head_across = heads(b.blank)
        block = ~b.blank
        clue = block & (head_down | head_across | (b.down > 0) | (b.across > 0))
        kind = np.where(b.blank, "blank", np.where(clue, "clue", "inactive"))
        digit_of = np.arange(1, 10)
        marks = [[digit_of[cell].tolist() for cell in row] for row in b.marks]
        found = self.known.get(self._key())
        return {
            "mode": b.mode, "rows": int(b.blank.shape[0]), "cols": int(b.blank.shape[1]),
            "kind": kind.tolist(), "down": b.down.tolist(), "across": b.across.tolist(),
            "heads": np.stack([head_down, head_across], axis=2).tolist(),
            "digits": b.digits.tolist(), "marks": marks,
            "elapsed": round(self.seconds(), 2), "running": self.since is not None,
            "solved": self._solved(), "can_undo": bool(self.history),
            "can_redo": bool(self.future), "wrong": self.wrong, "hint": self.hint_shown,
            "status": found[1] if found else PENDING, "message": self.message,
            "name": self.name,
        }

    # -- what the solver says -------------------------------------------------
    @property
    def work_seconds(self):
        """The time limit the library gets for one answer (None: none)."""
        return None if self.answer_seconds is None else WORK_SHARE * self.answer_seconds

    def _analysed(self, board, key) -> None:
        """Work out the status of the puzzle of ``board`` (whose key is ``key``) into
        ``known``: up to two solutions ((n, H, W), None when unknown), the status dict,
        and when to try again (None: never; the time limit cut it short)."""
        with self.lock:
            found = self.known.get(key)
            if found is not None and (found[2] is None or time.monotonic() <= found[2]):
                return
        try:
            solutions, status, complete = analyse(board, self.work_seconds)
        except Exception as e:          # a bug: said in the status (asked again in a while)
            traceback.print_exc(file=sys.stderr)
            said = f"cannot analyse this grid: {type(e).__name__}: {why_too_large(e)}"
            solutions, status, complete = None, _status("unknown", None, said), False
        retry_at = None if complete else time.monotonic() + RETRY_SECONDS
        with self.lock:
            self._remember(key, (solutions, status, retry_at))

    def _remember(self, key, found):
        """Keep ``found`` for the puzzle ``key``, dropping the oldest past the caps."""
        if key in self.known:
            self.known_bytes -= _known_bytes(key, self.known.pop(key))
        self.known[key] = found
        self.known_bytes += _known_bytes(key, found)
        while len(self.known) > 1 and (len(self.known) > MOST_KNOWN
                                       or self.known_bytes > MOST_KNOWN_BYTES):
            self.known_bytes -= _known_bytes(*self.known.popitem(last=False))

    def status(self) -> dict:
        """Unique, multiple, none, unknown, incomplete or pending, and the grade when unique."""
        return self.state()["status"]

    def _until(self):
        """The monotonic time by which a request starting now answers (None: no limit)."""
        return None if self.answer_seconds is None else time.monotonic() + self.answer_seconds

    def _wait(self, until):
        """The seconds left until ``until`` (``answer_seconds`` when None)."""
        return self.answer_seconds if until is None else max(0.0, until - time.monotonic())

    def _ask(self, what: str, key, work, until):
        """``work()`` on the background thread, until the monotonic time ``until``: its
        answer, or None with a message saying why there is none (the time ran out)."""
        try:
            return worker.run((id(self), what, key), work, self._wait(until))
        except worker.Busy as e:
            said = f"{what}: {e}"
        except worker.TooLong:
            said = (f"{what} takes longer than {self.answer_seconds:g} s; it goes on, "
                    f"ask again in a moment")
        except SolveTimeout:
            said = f"{what} took too long on this grid"
        except TOO_LARGE as e:
            raise GaveUp(f"{what}: this grid is too large to work out here "
                         f"({why_too_large(e)})") from None
        with self.lock:
            self.wrong, self.hint_shown, self.message = [], None, said
        return None

    def _played(self, what: str) -> tuple:
        """``(board, version, puzzle with the player's digits)``, read under the lock (play
        mode only): what the question ``what`` to the library is asked of."""
        with self.lock:
            self._mode_is("play")
            self._not_given_up(what)
            return self.board, self.version, self.puzzle.with_given(self.board.digits)

    def _not_given_up(self, what: str):
        """``GaveUp`` when the library gave up on the board's puzzle already (under the lock):
        the question ``what`` would only take the time to give up again."""
        found = self.known.get(self._key())
        if found is not None and _gave_up(found):
            raise GaveUp(f"{what}: {found[1]['text']}")

    def _current(self, version: int, what: str) -> bool:
        """Whether the board is still the one ``what`` was asked of (say so when not);
        under the lock."""
        if self.version == version:
            return True
        self.message = f"the grid changed while {what} was worked out; ask again"
        return False

    # -- changes --------------------------------------------------------------
    def _commit(self, board: Board, message: str):
        self._push(self.board)
        self.future.clear()
        self._set_board(board)
        self._after(message)

    def _push(self, board: Board):
        """Put ``board`` on the undo stack, dropping the oldest past the caps."""
        below = self.history[-1][0] if self.history else None
        size = _nbytes(board, below)
        self.history.append((board, size))
        self.history_bytes += size
        while len(self.history) > 1 and (len(self.history) > MOST_MOVES
                                         or self.history_bytes > MOST_HISTORY_BYTES):
            _, dropped = self.history.popleft()
            oldest, charged = self.history[0]             # it owns what it shared with the dropped
            self.history[0] = (oldest, _nbytes(oldest))
            self.history_bytes += _nbytes(oldest) - charged - dropped

    def _pop(self) -> Board:
        board, size = self.history.pop()
        self.history_bytes -= size
        return board

    def _after(self, message: str, celebrate=True):
        """After a change: say ``message`` (or that the grid is solved)."""
        self.wrong, self.hint_shown, self.message = [], None, message
        self._run_timer()
        if celebrate and self._solved():
            self.message = f"Solved in {_clock_text(self.seconds())}!"

    def _cell(self, body, want_blank=None) -> tuple:
        """The (row, col) of ``body["cell"]``, checked."""
        cell = body.get("cell")
        if (not isinstance(cell, (list, tuple)) or len(cell) != 2
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in cell)):
            raise MoveError(f"a cell is [row, col], got {cell!r}")
        H, W = self.board.blank.shape
        r, c = cell
        if not (0 <= r < H and 0 <= c < W):
            raise MoveError(f"there is no cell ({r}, {c}) in a {H}x{W} grid")
        if want_blank is True and not self.board.blank[r, c]:
            raise MoveError(f"({r}, {c}) is not a blank cell")
        if want_blank is False and self.board.blank[r, c]:
            raise MoveError(f"({r}, {c}) is a blank cell, not a block")
        return r, c

    def _mode_is(self, mode):
        if self.board.mode != mode:
            raise MoveError(f"that works in {mode} mode; switch to it first")

    @_changes
    def move(self, body):
        """Put a digit, toggle a pencil mark or clear a cell (play mode)."""
        self._mode_is("play")
        op = body.get("op")
        if op not in ("digit", "mark", "clear"):
            raise MoveError(f"unknown move {op!r}: use digit, mark or clear")
        r, c = self._cell(body, want_blank=True)
        b = self.board
        if op == "clear":
            if b.digits[r, c]:
                digits = b.digits.copy()
                digits[r, c] = 0
                return self._commit(b._replace(digits=digits), f"cleared ({r}, {c})")
            marks = b.marks.copy()
            marks[r, c] = False
            return self._commit(b._replace(marks=marks), f"cleared ({r}, {c})")
        d = body.get("digit")
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 9:
            raise MoveError(f"a digit is 1-9, got {d!r}")
        if op == "digit":
            digits = b.digits.copy()
            digits[r, c] = d
            return self._commit(b._replace(digits=digits), f"{d} at ({r}, {c})")
        marks = b.marks.copy()
        marks[r, c, d - 1] = not marks[r, c, d - 1]
        said = "marked" if marks[r, c, d - 1] else "unmarked"
        return self._commit(b._replace(marks=marks), f"{said} {d} at ({r}, {c})")

    @_changes
    def undo(self):
        """One step back (as far back as the undo stack keeps)."""
        if not self.history:
            raise MoveError("nothing to undo")
        self.future.append(self.board)
        self._set_board(self._pop())
        self._after("undone")

    @_changes
    def redo(self):
        """One step forward again."""
        if not self.future:
            raise MoveError("nothing to redo")
        self._push(self.board)
        self._set_board(self.future.pop())
        self._after("redone")

    @_changes
    def restart(self):
        """Clear every digit and mark, and the timer (undoable)."""
        self._mode_is("play")
        b = self.board
        self.elapsed, self.since = 0.0, None
        self._commit(b._replace(digits=np.zeros_like(b.digits), marks=np.zeros_like(b.marks)),
                     "started again")

    def fill_marks(self) -> dict:
        """Pencil into each empty blank cell what forced moves (``reduce``) leave from the
        digits placed (undoable); a digit no solution allows is a mistake to fix first."""
        from ..solve import reduce
        until = self._until()
        b, version, puzzle = self._played("the pencil marks")
        reduced = self._ask("the pencil marks", _board_key(b),
                            lambda: reduce(puzzle, timeout=self.work_seconds), until)
        with self.lock:
            if reduced is not None and self._current(version, "the pencil marks"):
                if reduced.status == "contradiction":
                    raise MoveError(f"the digits placed leave no solution: {reduced.reason}")
                empty = b.blank & (b.digits == 0)
                marks = np.where(empty[:, :, None], reduced.candidates, b.marks)
                self._commit(b._replace(marks=marks), "pencilled in what forced moves leave")
        return self.state(until)

    @_changes
    def pause(self, body):
        """Pause (``{"running": false}``) or resume the timer."""
        running = body.get("running")
        if not isinstance(running, bool):
            raise MoveError(f"running is true or false, got {running!r}")
        self.paused = not running
        self._run_timer()
        self.message = "paused" if self.paused else "resumed"

    # -- the solver's answers ---------------------------------------------------
    def check(self) -> dict:
        """Mark the digits no solution has; say how the digits stand."""
        from ..checking import check
        until = self._until()
        b, version, puzzle = self._played("the check")
        result = self._ask("the check", _board_key(b),
                           lambda: check(puzzle, limit=2, timeout=self.work_seconds), until)
        with self.lock:
            if result is not None and self._current(version, "the check"):
                self._after("")
                self.wrong = [[int(r), int(c)] for r, c in result.wrong]
                self.message = str(result) if not self._solved() else self.message
                if not b.digits.any() and result.solvable:
                    self.message = "no digit placed yet"
        return self.state(until)

    def hint(self) -> dict:
        """The next logical step from the digits and marks, shown on the grid."""
        until = self._until()
        with self.lock:
            self._mode_is("play")
            if self._solved():
                self._after("solved already", celebrate=False)
                return self._state()
            self._not_given_up("the hint")
            b, version = self.board, self.version
            found = self.known.get(self._key())
        solutions = found[0] if found else None
        step = self._ask("the hint", _board_key(b),
                         lambda: hint_of(b, solutions, self.work_seconds), until)
        with self.lock:
            if step is not None and self._current(version, "the hint"):
                if step is STUCK:
                    self._after("logic alone goes no further from here")
                else:
                    self._after(f"hint: {step['technique']}")
                    self.hint_shown = step
        return self.state(until)

    def solve(self) -> dict:
        """Fill every blank with the solution (the first of several); undoable."""
        from ..solve import kakuro
        until = self._until()
        with self.lock:
            self._mode_is("play")
            b, version, key = self.board, self.version, self._key()
            self._not_given_up("the solve")
            found = self.known.get(key)
            puzzle = self.puzzle
        solutions = found[0] if found else None
        if solutions is None:
            solutions = self._ask("the solve", key, lambda: kakuro(
                puzzle, limit=2, timeout=self.work_seconds), until)
        with self.lock:
            if solutions is not None and self._current(version, "the solve"):
                if len(solutions) == 0:
                    raise MoveError("the puzzle has no solution")
                digits = np.where(b.blank, solutions[0], 0).astype(np.int8)
                said = "the solution" if len(solutions) == 1 else "the first of several solutions"
                self._commit(b._replace(digits=digits), f"filled in {said}")
        return self.state(until)

    def combos(self, cell) -> dict:
        """The combinations (``kc``) of the across and down entries through a blank cell."""
        from ..combos import kc
        with self.lock:
            r, c = self._cell({"cell": cell}, want_blank=True)
            b = self.board
        out = {}
        for name, (dr, dc), sums in (("across", (0, 1), b.across), ("down", (1, 0), b.down)):
            cells = run_through(b.blank, r, c, dr, dc)
            hr, hc = cells[0][0] - dr, cells[0][1] - dc
            total = int(sums[hr, hc]) if hr >= 0 and hc >= 0 else 0
            if total == 0:
                out[name] = None
                continue
            combos = kc(total, len(cells)).tolist()
            placed = {int(b.digits[i, j]) for i, j in cells} - {0}
            out[name] = {"total": total, "length": len(cells), "cells": [list(x) for x in cells],
                         "combos": combos, "fits": [placed <= set(x) for x in combos]}
        return out

    # -- files ----------------------------------------------------------------
    def save(self, body) -> dict:
        """The puzzle with the digits as text (pipe keeps the marks and the time too)."""
        from ..formats import FORMATS, format
        from ..formats.pipe import write_pipe
        fmt = body.get("format", "pipe")
        if fmt not in FORMATS:
            raise MoveError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
        with self.lock:
            try:
                puzzle = self.puzzle.with_given(self.board.digits)
            except PuzzleError as e:
                raise MoveError(f"not a puzzle yet: {e}") from None
            marks, seconds, name = self.board.marks, self.seconds(), self.name
        if fmt == "pipe":
            text = f"# kakuro-np play: {seconds:.1f} s\n" + write_pipe(puzzle, marks)
        else:                           # a puzz.link URL holds no digits: the clues alone
            text = format(puzzle.with_given(None) if fmt == "puzzlink" else puzzle, fmt)
        stem = re.sub(r"\.[A-Za-z0-9]+$", "", name) or "puzzle"
        return {"text": text, "format": fmt,
                "filename": stem + (".json" if fmt == "json" else ".txt")}

    def load(self, body) -> dict:
        """A new game from a puzzle's text (any format, or a puzz.link URL); a time played
        past ``MOST_SECONDS`` loads as that."""
        from ..formats import detect, parse
        from ..formats.pipe import pipe_marks
        text, name = body.get("text"), body.get("name") or "puzzle.txt"
        if not isinstance(text, str) or not isinstance(name, str):
            raise MoveError("load needs the file's text")
        try:
            puzzle = parse(text)
            marks = pipe_marks(text) if detect(text) == "pipe" else None
        except PuzzleError as e:
            raise MoveError(f"cannot load {name}: {e}") from None
        played = TIME_LINE.search(text)
        seconds = float(played.group(1)) if played else 0.0
        with self.lock:
            self._start(puzzle, name, marks, seconds)
            self.message = f"loaded {name}"
            if seconds > MOST_SECONDS:
                digits = played.group(1)
                shown = digits if len(digits) <= 12 else digits[:9] + "..."
                self.message += (f" (its time, {shown} s, counts as "
                                 f"{MOST_SECONDS / 3600:g} hours, the most kept)")
        return self.state()

    def add_to_book(self, body=None) -> dict:
        """Add the puzzle on the board (its clues) to the book (``printing.add_to_book``):
        proved unique, kept beside the PDF, the PDF written again. The game's lock is held
        only to read the board; the book's, while the book is written."""
        import os

        from ..printing import add_to_book
        if self.book is None:
            raise MoveError("no book to add to: start kakuro-np play --book BOOK.pdf")
        with self.lock:
            try:
                puzzle = self.puzzle
            except PuzzleError as e:
                raise MoveError(f"not a puzzle yet: {e}") from None
        with self.book_lock:
            try:
                n = add_to_book(puzzle, self.book, timeout=self.answer_seconds)
            except (PuzzleError, SolveTimeout, ImportError, OSError) as e:
                raise MoveError(f"not added to the book: {e}") from None
        with self.lock:
            self.message = f"added to {os.path.basename(self.book)}: {n} puzzle{'s' * (n != 1)}"
        return self.state()                     # its status may wait for the worker: no lock

    # -- create mode ----------------------------------------------------------
    @_changes
    def new(self, body):
        """Create mode on a new grid, the first row and column blocks."""
        H, W = body.get("rows"), body.get("cols")
        for what, n in (("rows", H), ("cols", W)):
            if not isinstance(n, int) or isinstance(n, bool) or not SMALLEST <= n <= LARGEST:
                raise MoveError(f"{what} is {SMALLEST}-{LARGEST}, got {n!r}")
        self._start(None, "new.txt")
        self._set_board(self._empty_board(H, W))
        self.message = f"a new {H}x{W} grid: click cells to make blocks, type the sums"

    @_changes
    def edit(self, body):
        """Toggle a cell between blank and block, or set a clue's sums (create mode)."""
        self._mode_is("create")
        op = body.get("op")
        b = self.board
        if op == "toggle":
            r, c = self._cell(body)
            blank = b.blank.copy()
            blank[r, c] = not blank[r, c]
            down, across = b.down.copy(), b.across.copy()
            head_down, head_across = heads(blank)
            down[~head_down] = 0            # a sum stays only where its run still starts
            across[~head_across] = 0
            digits = np.where(blank, b.digits, 0).astype(np.int8)
            marks = b.marks & blank[:, :, None]
            said = "blank" if blank[r, c] else "a block"
            return self._commit(Board("create", blank, down, across, digits, marks),
                                f"({r}, {c}) is {said}")
        if op == "sum":
            r, c = self._cell(body, want_blank=False)
            head_down, head_across = heads(b.blank)
            down, across = b.down.copy(), b.across.copy()
            for name, sums, head in (("down", down, head_down), ("across", across, head_across)):
                if name not in body:
                    continue
                n = body[name]
                if n is None:
                    n = 0
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 45:
                    raise MoveError(f"a {name} sum is 1-45 (0 clears it), got {n!r}")
                if n and not head[r, c]:
                    raise MoveError(f"no {name} run starts at ({r}, {c})")
                sums[r, c] = n
            return self._commit(b._replace(down=down, across=across),
                                f"sums at ({r}, {c}): {down[r, c] or '-'} down, "
                                f"{across[r, c] or '-'} across")
        raise MoveError(f"unknown edit {op!r}: use toggle or sum")

    def fill(self) -> dict:
        """Give the drawn layout sums that have exactly one solution (``generate(layout=)``):
        the writer's pattern is kept, the sums typed so far are replaced (undoable).

        A layout past ``LARGEST`` a side, one the library gives up on, or one still at
        work after ``MOST_FILL_ASKS`` asks raises ``GaveUp``, naming the command line."""
        until = self._until()
        with self.lock:
            self._mode_is("create")
            b, version = self.board, self.version
        H, W = b.blank.shape
        if H > LARGEST or W > LARGEST:
            raise GaveUp(f"layouts of up to {LARGEST}x{LARGEST} are filled here, this one is "
                         f"{H}x{W}: {FILL_ELSEWHERE}")
        layout = np.array(b.blank.shape).tobytes() + b.blank.tobytes()
        made = self._filled(layout)
        if made is None:
            made = self._ask("the fill", ("fill", layout), self._fill_work(b, layout), until)
            if made is None:
                self._fill_at_work(layout)
        if isinstance(made, PuzzleError):
            raise MoveError(f"cannot fill this layout: {made}")
        if isinstance(made, BaseException):
            raise GaveUp(self._fill_gave_up(made))
        with self.lock:
            if made is not None and self._current(version, "the fill"):
                self._commit(b._replace(down=made.down.astype(b.down.dtype),
                                        across=made.across.astype(b.across.dtype)),
                             "sums filled in: one solution")
        return self.state(until)

    def _fill_work(self, board: Board, layout: bytes):
        """The work that fills ``board``'s layout and keeps what came of it: the puzzle, or
        what the library raised (a layout that breaks a rule: a ``PuzzleError``)."""
        import hashlib

        from ..generator import generate
        seed = int.from_bytes(hashlib.sha256(board.blank.tobytes()).digest()[:8], "little")
        seconds = self.work_seconds

        def work():                     # the same layout gets the same sums
            try:
                made = generate(layout=board.blank, seed=seed, timeout=seconds)
            except Exception as e:
                made = e
            with self.lock:
                self._fill_keep(layout)[1] = made
            return made
        return work

    def _fill_keep(self, layout: bytes) -> list:
        """``[asks found at work, made or error]`` of a layout, the newest of
        ``MOST_FILLS`` (under the lock)."""
        kept = self.fills.pop(layout, None) or [0, None]
        self.fills[layout] = kept
        while len(self.fills) > MOST_FILLS:
            self.fills.popitem(last=False)
        return kept

    def _filled(self, layout: bytes):
        """What the fill of ``layout`` came to (the puzzle or an error); None while it is
        to do or at work. ``GaveUp`` once ``MOST_FILL_ASKS`` asks found it at work."""
        with self.lock:
            asks, made = self.fills.get(layout, (0, None))
        if made is None and asks >= MOST_FILL_ASKS:
            raise GaveUp(self._fill_gave_up(None))
        return made

    def _fill_at_work(self, layout: bytes):
        """Count an ask that found the fill of ``layout`` at work; the last says it gave up."""
        with self.lock:
            kept = self._fill_keep(layout)
            kept[0] += 1
            asks = kept[0]
        if asks >= MOST_FILL_ASKS:
            raise GaveUp(self._fill_gave_up(None))

    def _fill_gave_up(self, error) -> str:
        """Why the fill gave up: ``error`` (what the library raised; None: it stayed at work
        past ``MOST_FILL_ASKS`` asks)."""
        if error is None:
            took = (f"{MOST_FILL_ASKS} asks of {self.answer_seconds:g} s"
                    if self.answer_seconds is not None else f"{MOST_FILL_ASKS} asks")
            why = f"it was still at work after {took}"
        elif isinstance(error, SolveTimeout):
            why = ("it took longer than its time limit" if self.work_seconds is None
                   else f"it took longer than {self.work_seconds:g} s")
        else:
            why = why_too_large(error)
        return (f"the fill gave up: this layout is too large or too hard to fill here "
                f"({why}); {FILL_ELSEWHERE}")

    @_changes
    def mode(self, body):
        """Switch between play and create."""
        want = body.get("mode")
        if want not in ("play", "create"):
            raise MoveError(f"mode is play or create, got {want!r}")
        if want == self.board.mode:
            return self._after(f"{want} mode already")
        if want == "play":
            n = sums_to_type(self.board)
            if n:
                raise MoveError(f"cannot play yet: {n} sum{'s' * (n != 1)} to type")
            try:
                self.puzzle
            except PuzzleError as e:
                raise MoveError(f"cannot play yet: {e}") from None
            self.elapsed, self.since = 0.0, None
        self._commit(self.board._replace(mode=want), f"{want} mode")


#: The status while the solver is still at work on the puzzle (the page asks again).
PENDING = {"solutions": "pending", "grade": None, "text": "counting the solutions..."}
#: ``hint_of``'s answer when logic goes no further.
STUCK = "stuck"


def sums_to_type(board: Board) -> int:
    """How many sums are not typed yet: those of the runs of two or more cells.

    Examples
    --------
    >>> board = Game()._empty_board(4, 4)
    >>> sums_to_type(board), sums_to_type(board._replace(down=np.full((4, 4), 6)))
    (6, 3)
    """
    down, across = heads(board.blank)
    two_down = np.zeros_like(board.blank)             # the cell two below is blank too
    two_down[:-2] = board.blank[2:]
    two_across = np.zeros_like(board.blank)
    two_across[:, :-2] = board.blank[:, 2:]
    return int((down & two_down & (board.down == 0)).sum()
               + (across & two_across & (board.across == 0)).sum())


def _gave_up(found) -> bool:
    """Whether what ``known`` holds of a puzzle says the library gave up on it for good."""
    solutions, status, retry_at = found
    return solutions is None and retry_at is None and status["solutions"] == "unknown"


def _known_bytes(key, found) -> int:
    return len(key) + (found[0].nbytes if found[0] is not None else 0)


def analyse(board: Board, seconds=None) -> tuple:
    """``(solutions, status, complete)`` of the puzzle on ``board``: up to two solutions
    ((n, H, W), None when unknown), the status dict, and whether the time limit
    (``seconds``, None: none) left it whole. A grid the library gives up on
    (``TOO_LARGE``) is "unknown", too large to analyse, for good.

    Examples
    --------
    >>> import kakuro_np as kn
    >>> game = Game(kn.parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _"))
    >>> _, status, complete = analyse(game.board)
    >>> status["text"], complete
    ('unique, easy (10.1)', True)
    """
    from ..grading import grade
    from ..solve import kakuro
    if board.mode == "create":
        n = sums_to_type(board)
        if n:
            return None, _status("incomplete", None, f"{n} sum{'s' * (n != 1)} to type"), True
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        puzzle = Puzzle(board.blank, board.down, board.across)
        solutions = kakuro(puzzle, limit=2, timeout=seconds)
    except PuzzleError as e:
        return None, _status("none", None, f"not a puzzle yet: {e}"), True
    except SolveTimeout:
        return None, _status("unknown", None, "unknown: the count took too long"), False
    except TOO_LARGE as e:
        return None, _too_large(e), True
    n = len(solutions)
    if n != 1:
        word = "none" if n == 0 else "multiple"
        said = "no solution" if n == 0 else "multiple solutions"
        return solutions, _status(word, None, said), True
    try:
        g = grade(puzzle, timeout=None if deadline is None else
                  max(0.0, deadline - time.monotonic()))
    except SolveTimeout:
        return solutions, _status("unique", None, "unique; the grade took too long"), False
    except TOO_LARGE as e:
        return solutions, _status("unique", None, f"unique; too large to grade here "
                                                  f"({why_too_large(e)})"), True
    said = f"{g.label} ({g.score:.1f})"
    return solutions, _status("unique", said, f"unique, {said}"), True


def hint_of(board: Board, solutions=None, seconds=None):
    """The hint for ``board`` as the contract's dict, or ``STUCK``: a "mistake" when the
    pencil marks leave out a digit of the one solution (``solutions``, when known),
    else ``explain.hint`` from the digits and marks (SolveTimeout past ``seconds``)."""
    from ..explanation import hint
    candidates = None
    if board.marks.any():
        candidates = np.where((board.marks.any(axis=2) & (board.digits == 0))[:, :, None],
                              board.marks, True)
        if solutions is not None and len(solutions) == 1:
            step = _marks_mistake(board, solutions[0], candidates)
            if step is not None:
                return step
    puzzle = Puzzle(board.blank, board.down, board.across).with_given(board.digits)
    step = hint(puzzle, candidates=candidates, timeout=seconds)
    return STUCK if step is None else _step_json(step)


def _marks_mistake(board: Board, solution, candidates):
    """A "mistake" step for cells whose pencil marks leave out their digit, else None."""
    open_cells = board.blank & (board.digits == 0) & board.marks.any(axis=2)
    r_idx, c_idx = np.nonzero(open_cells)
    missing = ~candidates[r_idx, c_idx, solution[r_idx, c_idx] - 1]
    if not missing.any():
        return None
    cells = [[int(r), int(c)] for r, c in zip(r_idx[missing], c_idx[missing])]
    where = ", ".join(f"({r}, {c})" for r, c in cells)
    return {"technique": "mistake", "cells": cells, "placed": [], "removed": [],
            "reason": f"The pencil marks at {where} leave out the digit that belongs there."}


def _status(solutions, grade, text) -> dict:
    return {"solutions": solutions, "grade": grade, "text": text}


def _too_large(error) -> dict:
    """The status of a grid the library gave up on."""
    return _status("unknown", None, f"too large to analyse here ({why_too_large(error)})")


def _step_json(step) -> dict:
    """A ``Step`` as the contract's hint."""
    return {"technique": step.technique, "reason": step.reason,
            "cells": [[int(r), int(c)] for r, c in step.cells],
            "placed": [[int(r), int(c), int(d)] for (r, c), d in step.placed.items()],
            "removed": [[int(r), int(c), sorted(int(d) for d in ds)]
                        for (r, c), ds in step.removed.items()]}
