"""The game the play page shows: a puzzle, the player's digits and pencil marks, undo, a timer.

Every decision is the library's: ``check``, ``hint``, ``kakuro``, ``count``,
``grade`` and ``kc`` answer; this module keeps the state between requests and
writes it as the JSON of ``CONTRACT.md``.

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

import re
import time
from typing import NamedTuple

import numpy as np

from ..errors import PuzzleError, SolveTimeout
from ..puzzle import Puzzle

#: The most seconds the status (the count and grade) of a puzzle may take.
STATUS_SECONDS = 3.0
#: The most seconds a check, hint or solve may take.
ANSWER_SECONDS = 10.0
#: Sizes a new grid may have.
SMALLEST, LARGEST = 3, 40
#: The pipe file's comment line that keeps the time played.
TIME_LINE = re.compile(r"^#\s*kakuro-np play: (\d+(?:\.\d*)?) s\s*$", re.MULTILINE)


class MoveError(ValueError):
    """A request the game refuses (a bad cell, digit, op or mode); the game is unchanged."""


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
    from ..engine.entries import entries
    digits = np.asarray(digits).ravel()
    if (digits[puzzle.blank.ravel()] == 0).any():
        return False
    cells, sums = entries(puzzle)
    return all(len(set(digits[run].tolist())) == len(run) and digits[run].sum() == total
               for run, total in zip(cells, sums))


def _clock_text(seconds) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Game:
    """One player's game: a board, its undo and redo stacks, a timer, what the solver said.

    Each public method answers one request of the page (see ``CONTRACT.md``) with
    the state as a dict, and raises ``MoveError`` for a request it refuses.

    Parameters
    ----------
    puzzle : Puzzle, optional
        The puzzle to play; its given digits are the player's. None: create mode, a
        new 8 x 8 grid.
    name : str
        The file name saves are offered under.
    marks : (H, W, 9) bool, optional
    elapsed : float
        Seconds already played.
    """

    def __init__(self, puzzle=None, name="puzzle.txt", marks=None, elapsed=0.0):
        self._start(puzzle, name, marks, elapsed)

    # -- the state ----------------------------------------------------------
    def _start(self, puzzle, name, marks=None, elapsed=0.0):
        if puzzle is None:
            self.name = "new.txt"
            self.board = self._empty_board(8, 8)
        else:
            H, W = puzzle.shape
            marks = np.zeros((H, W, 9), bool) if marks is None else np.asarray(marks, bool)
            self.name = name
            self.board = Board("play", puzzle.blank.copy(), puzzle.down.astype(np.int64),
                               puzzle.across.astype(np.int64), puzzle.given.astype(np.int8),
                               marks & puzzle.blank[:, :, None])
        self.history, self.future = [], []
        self.elapsed, self.since, self.paused = float(elapsed), None, False
        self.wrong, self.hint_shown, self.message = [], None, ""
        self.known = {}                 # puzzle key -> (solutions array or None, status dict)
        self._clock()

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

    def _key(self) -> bytes:
        b = self.board
        return b.blank.tobytes() + b.down.tobytes() + b.across.tobytes()

    def _solved(self) -> bool:
        try:
            return self.board.mode == "play" and solves(self.puzzle, self.board.digits)
        except PuzzleError:
            return False

    def _clock(self):
        """Start or stop the timer: it runs in play mode, unpaused, until solved."""
        run = self.board.mode == "play" and not self.paused and not self._solved()
        now = time.monotonic()
        if run and self.since is None:
            self.since = now
        elif not run and self.since is not None:
            self.elapsed += now - self.since
            self.since = None

    def seconds(self) -> float:
        """Seconds played so far."""
        return self.elapsed + (time.monotonic() - self.since if self.since is not None else 0.0)

    def state(self) -> dict:
        """The state the page draws (``CONTRACT.md``)."""
        b = self.board
        head_down, head_across = heads(b.blank)
        block = ~b.blank
        clue = block & (head_down | head_across | (b.down > 0) | (b.across > 0))
        kind = np.where(b.blank, "blank", np.where(clue, "clue", "inactive"))
        digit_of = np.arange(1, 10)
        marks = [[digit_of[cell].tolist() for cell in row] for row in b.marks]
        return {
            "mode": b.mode, "rows": int(b.blank.shape[0]), "cols": int(b.blank.shape[1]),
            "kind": kind.tolist(), "down": b.down.tolist(), "across": b.across.tolist(),
            "heads": np.stack([head_down, head_across], axis=2).tolist(),
            "digits": b.digits.tolist(), "marks": marks,
            "elapsed": round(self.seconds(), 2), "running": self.since is not None,
            "solved": self._solved(), "can_undo": bool(self.history),
            "can_redo": bool(self.future), "wrong": self.wrong, "hint": self.hint_shown,
            "status": self.status(), "message": self.message, "name": self.name,
        }

    # -- what the solver says -------------------------------------------------
    def _analysis(self) -> tuple:
        """``(solutions, status)`` of the board's puzzle, kept per puzzle: up to two
        solutions ((n, H, W), None when unknown) and the status dict."""
        key = self._key()
        if key not in self.known:
            self.known[key] = self._analyse()
        return self.known[key]

    def _analyse(self) -> tuple:
        from ..grade import grade
        from ..solve import kakuro
        b = self.board
        if b.mode == "create":
            missing = self._sums_missing()
            if missing:
                n = len(missing)
                return None, _status("incomplete", None, f"{n} sum{'s' * (n != 1)} to type")
        try:
            solutions = kakuro(self.puzzle, limit=2, timeout=STATUS_SECONDS)
        except PuzzleError as e:
            return None, _status("none", None, f"not a puzzle yet: {e}")
        except SolveTimeout:
            return None, _status("unknown", None, "unknown: the count took too long")
        n = len(solutions)
        if n != 1:
            word = "none" if n == 0 else "multiple"
            return solutions, _status(word, None, "no solution" if n == 0 else
                                      "multiple solutions")
        g = grade(self.puzzle)
        said = f"{g.label} ({g.score:.1f})"
        return solutions, _status("unique", said, f"unique, {said}")

    def status(self) -> dict:
        """Unique, multiple, none, unknown or incomplete, and the grade when unique."""
        return self._analysis()[1]

    def _sums_missing(self) -> list:
        """The blocks heading a run of two or more cells whose sum is not typed yet."""
        b = self.board
        missing = []
        for down, (dr, dc), sums in ((True, (1, 0), b.down), (False, (0, 1), b.across)):
            for r, c in np.argwhere(heads(b.blank)[0 if down else 1]):
                if sums[r, c] == 0 and len(run_through(b.blank, r + dr, c + dc, dr, dc)) >= 2:
                    missing.append((int(r), int(c)))
        return missing

    # -- changes --------------------------------------------------------------
    def _commit(self, board: Board, message: str) -> dict:
        self.history.append(self.board)
        self.future.clear()
        self.board = board
        return self._after(message)

    def _after(self, message: str, celebrate=True) -> dict:
        """The state after a change, saying ``message`` (or that the grid is solved)."""
        self.wrong, self.hint_shown, self.message = [], None, message
        self._clock()
        if celebrate and self._solved():
            self.message = f"Solved in {_clock_text(self.seconds())}!"
        return self.state()

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

    def move(self, body) -> dict:
        """Put a digit, toggle a pencil mark or clear a cell (play mode)."""
        self._mode_is("play")
        op = body.get("op")
        if op not in ("digit", "mark", "clear"):
            raise MoveError(f"unknown move {op!r}: use digit, mark or clear")
        r, c = self._cell(body, want_blank=True)
        b = self.board
        digits, marks = b.digits.copy(), b.marks.copy()
        if op == "clear":
            if digits[r, c]:
                digits[r, c] = 0
            else:
                marks[r, c] = False
            return self._commit(b._replace(digits=digits, marks=marks), f"cleared ({r}, {c})")
        d = body.get("digit")
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 9:
            raise MoveError(f"a digit is 1-9, got {d!r}")
        if op == "digit":
            digits[r, c] = d
            return self._commit(b._replace(digits=digits), f"{d} at ({r}, {c})")
        marks[r, c, d - 1] = not marks[r, c, d - 1]
        said = "marked" if marks[r, c, d - 1] else "unmarked"
        return self._commit(b._replace(marks=marks), f"{said} {d} at ({r}, {c})")

    def undo(self) -> dict:
        """One step back; unlimited."""
        if not self.history:
            raise MoveError("nothing to undo")
        self.future.append(self.board)
        self.board = self.history.pop()
        return self._after("undone")

    def redo(self) -> dict:
        """One step forward again."""
        if not self.future:
            raise MoveError("nothing to redo")
        self.history.append(self.board)
        self.board = self.future.pop()
        return self._after("redone")

    def restart(self) -> dict:
        """Clear every digit and mark, and the timer (undoable)."""
        self._mode_is("play")
        b = self.board
        self.elapsed, self.since = 0.0, None
        return self._commit(b._replace(digits=np.zeros_like(b.digits),
                                       marks=np.zeros_like(b.marks)), "started again")

    def fill_marks(self) -> dict:
        """Pencil into each empty blank cell what forced moves (``reduce``) leave from the
        digits placed (undoable); a digit no solution allows is a mistake to fix first."""
        from ..solve import reduce
        self._mode_is("play")
        b = self.board
        try:
            reduced = reduce(self.puzzle.with_given(b.digits), timeout=ANSWER_SECONDS)
        except SolveTimeout:
            raise MoveError("forced moves took too long on this grid") from None
        if reduced.status == "contradiction":
            raise MoveError(f"the digits placed leave no solution: {reduced.reason}")
        empty = b.blank & (b.digits == 0)
        marks = np.where(empty[:, :, None], reduced.candidates, b.marks)
        return self._commit(b._replace(marks=marks), "pencilled in what forced moves leave")

    def pause(self, body) -> dict:
        """Pause (``{"running": false}``) or resume the timer."""
        running = body.get("running")
        if not isinstance(running, bool):
            raise MoveError(f"running is true or false, got {running!r}")
        self.paused = not running
        self._clock()
        self.message = "paused" if self.paused else "resumed"
        return self.state()

    # -- the solver's answers ---------------------------------------------------
    def check(self) -> dict:
        """Mark the digits no solution has; say how the digits stand."""
        from ..check import check
        self._mode_is("play")
        b = self.board
        try:
            result = check(self.puzzle.with_given(b.digits), limit=2, timeout=ANSWER_SECONDS)
        except SolveTimeout:
            raise MoveError("the check took too long on this grid") from None
        self._after("")
        self.wrong = [[int(r), int(c)] for r, c in result.wrong]
        self.message = str(result) if not self._solved() else self.message
        if not b.digits.any() and result.solvable:
            self.message = "no digit placed yet"
        return self.state()

    def hint(self) -> dict:
        """The next logical step from the digits and marks, shown on the grid."""
        from ..explain import hint
        self._mode_is("play")
        if self._solved():
            return self._after("solved already", celebrate=False)
        b = self.board
        solutions, _ = self._analysis()
        candidates = None
        if b.marks.any():
            candidates = np.where((b.marks.any(axis=2) & (b.digits == 0))[:, :, None],
                                  b.marks, True)
            if solutions is not None and len(solutions) == 1:
                step = self._marks_mistake(solutions[0], candidates)
                if step is not None:
                    return self._show(step)
        try:
            step = hint(self.puzzle.with_given(b.digits), candidates=candidates)
        except SolveTimeout:
            raise MoveError("the hint took too long on this grid") from None
        if step is None:
            return self._after("logic alone goes no further from here")
        return self._show(_step_json(step))

    def _marks_mistake(self, solution, candidates):
        """A "mistake" step for cells whose pencil marks leave out their digit, else None."""
        b = self.board
        open_cells = b.blank & (b.digits == 0) & b.marks.any(axis=2)
        r_idx, c_idx = np.nonzero(open_cells)
        missing = ~candidates[r_idx, c_idx, solution[r_idx, c_idx] - 1]
        if not missing.any():
            return None
        cells = [[int(r), int(c)] for r, c in zip(r_idx[missing], c_idx[missing])]
        where = ", ".join(f"({r}, {c})" for r, c in cells)
        return {"technique": "mistake", "cells": cells, "placed": [], "removed": [],
                "reason": f"The pencil marks at {where} leave out the digit that belongs there."}

    def _show(self, step: dict) -> dict:
        self._after(f"hint: {step['technique']}")
        self.hint_shown = step
        return self.state()

    def solve(self) -> dict:
        """Fill every blank with the solution (the first of several); undoable."""
        self._mode_is("play")
        solutions, status = self._analysis()
        if solutions is None:
            try:
                from ..solve import kakuro
                solutions = kakuro(self.puzzle, limit=2, timeout=ANSWER_SECONDS)
            except SolveTimeout:
                raise MoveError("the solve took too long on this grid") from None
        if len(solutions) == 0:
            raise MoveError("the puzzle has no solution")
        b = self.board
        digits = np.where(b.blank, solutions[0], 0).astype(np.int8)
        said = "the solution" if len(solutions) == 1 else "the first of several solutions"
        return self._commit(b._replace(digits=digits), f"filled in {said}")

    def combos(self, cell) -> dict:
        """The combinations (``kc``) of the across and down entries through a blank cell."""
        from ..combos import kc
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
        try:
            puzzle = self.puzzle.with_given(self.board.digits)
        except PuzzleError as e:
            raise MoveError(f"not a puzzle yet: {e}") from None
        if fmt == "pipe":
            text = (f"# kakuro-np play: {self.seconds():.1f} s\n"
                    + write_pipe(puzzle, self.board.marks))
        else:                           # a puzz.link URL holds no digits: the clues alone
            text = format(puzzle.with_given(None) if fmt == "puzzlink" else puzzle, fmt)
        stem = re.sub(r"\.[A-Za-z0-9]+$", "", self.name) or "puzzle"
        return {"text": text, "format": fmt,
                "filename": stem + (".json" if fmt == "json" else ".txt")}

    def load(self, body) -> dict:
        """A new game from a puzzle's text (any format, or a puzz.link URL)."""
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
        self._start(puzzle, name, marks, float(played.group(1)) if played else 0.0)
        self.message = f"loaded {name}"
        return self.state()

    # -- create mode ----------------------------------------------------------
    def new(self, body) -> dict:
        """Create mode on a new grid, the first row and column blocks."""
        H, W = body.get("rows"), body.get("cols")
        for what, n in (("rows", H), ("cols", W)):
            if not isinstance(n, int) or isinstance(n, bool) or not SMALLEST <= n <= LARGEST:
                raise MoveError(f"{what} is {SMALLEST}-{LARGEST}, got {n!r}")
        self._start(None, "new.txt")
        self.board = self._empty_board(H, W)
        self.message = f"a new {H}x{W} grid: click cells to make blocks, type the sums"
        return self.state()

    def edit(self, body) -> dict:
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

    def mode(self, body) -> dict:
        """Switch between play and create."""
        want = body.get("mode")
        if want not in ("play", "create"):
            raise MoveError(f"mode is play or create, got {want!r}")
        if want == self.board.mode:
            return self._after(f"{want} mode already")
        if want == "play":
            status = self.status()
            if status["solutions"] == "incomplete":
                raise MoveError(f"cannot play yet: {status['text']}")
            try:
                self.puzzle
            except PuzzleError as e:
                raise MoveError(f"cannot play yet: {e}") from None
            self.elapsed, self.since = 0.0, None
        return self._commit(self.board._replace(mode=want), f"{want} mode")


def _status(solutions, grade, text) -> dict:
    return {"solutions": solutions, "grade": grade, "text": text}


def _step_json(step) -> dict:
    """A ``Step`` as the contract's hint."""
    return {"technique": step.technique, "reason": step.reason,
            "cells": [[int(r), int(c)] for r, c in step.cells],
            "placed": [[int(r), int(c), int(d)] for (r, c), d in step.placed.items()],
            "removed": [[int(r), int(c), sorted(int(d) for d in ds)]
                        for (r, c), ds in step.removed.items()]}
