"""Logic you can follow: a solve as the steps a person takes.

``explain`` runs the ladder of ``techniques`` and turns what it records into
``Step``s, each with one sentence saying why; ``hint`` gives the next one.

Glossary
--------
step          : one use of one technique on one entry: the candidates it removes
                (and the digits it places, when a cell is left with one) and why.
state         : every blank cell's candidates as a digit set (bit ``d - 1``
                for digit ``d``); a given digit is a cell with one candidate.

Why a puzzle has no solution at all is told by ``impossible``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .engine.core import ahead
from .combos import ALL_DIGITS, POPCOUNT, candidate_grid, kc
from .engine.core.codes import CONTRADICTION, PAUSED, SOLVED, STUCK, TIMED_OUT
from .engine.build.entries import entry_variables, packed_entries
from .engine.core.jit import NO_DEADLINE, deadline_ns
from .puzzle import PuzzleLike
from .techniques import N_TECHNIQUES, NAMES, climb

#: Above the ladder of one-run techniques, the steps that reason across runs.
REGION_SUM, X_WING, CHAIN = "region sum", "x-wing", "chain"
#: Every technique ``explain`` uses, the simplest first: the ladder, then across runs.
LADDER = NAMES + (REGION_SUM, X_WING, CHAIN)
#: What a solve by logic past its deadline was doing (``SolveTimeout``'s message).
DOING = "solving by logic"
#: Steps put into words between two looks at the clock.
CLOCK_STEPS = 256


# -- a solve by logic, step by step ---------------------------------------------


#: How many steps an explanation lists in a notebook (``Explanation._repr_html_``).
HTML_STEPS = 100


class Step(NamedTuple):
    """One step of a solve by logic.

    technique : the ladder's name for it, e.g. "unique combination" (see ``techniques.NAMES``),
                or "mistake" from ``hint`` when a placed digit is in no solution.
    entry     : the entry it reasons about (an index into ``entries``), or None.
    cells     : the cells it involves, as (row, col): the entry's cells, in its order.
    placed    : {(row, col): digit} for the cells it leaves with one candidate.
    removed   : {(row, col): {digits}} for every candidate it removes.
    reason    : why, in words: one sentence for a step on one entry; for a chain, the
                supposition, each link's sentence in order, and the conclusion.
    links     : a chain's links, each a Step of the ladder on one entry (else empty).
    region    : a region sum's region: the cells of its runs (else empty).
    """
    technique: str
    entry: object
    cells: list
    placed: dict
    removed: dict
    reason: str
    links: tuple = ()
    region: tuple = ()

    def __str__(self):
        return f"{self.technique}: {self.reason}"


class DrawnStep(Step):
    """A ``Step`` that a notebook shows as its picture (``svg.step_svg``); ``explain`` and
    ``hint`` return these. Each keeps where it was taken, ``_at``: the puzzle, the
    candidates before the first step of its explanation (None: the puzzle's digits
    alone), the steps, and its place among them."""

    def _repr_svg_(self):
        at = vars(self).get("_at")
        if at is None:                          # made anew, e.g. by ``_replace``
            return None
        from .drawing import step_svg
        puzzle, start, steps, i = at
        before = None if start is None else replay(start, steps[:i])
        return step_svg(puzzle, self, before, title=str(self))._repr_svg_()


def _drawn(step: Step, puzzle, start=None, steps=(), i=0) -> DrawnStep:
    """``step`` as a DrawnStep taken at ``(puzzle, start, steps, i)``."""
    drawn = DrawnStep(*step)
    drawn._at = (puzzle, start, steps, i)
    return drawn


class Explanation(list):
    """The steps of a solve by logic (a list of ``Step``), and where they lead.

    status     : "solved", "stuck" (logic alone goes no further), "contradiction"
                 (a cell was left with no candidate) or "paused" (``max_steps`` reached).
    start      : (H, W, 9) bool, the candidates before the first step.
    candidates : (H, W, 9) bool, the candidates after the last step.
    digits     : (H, W) int8, the decided digits after the last step (0 elsewhere).
    puzzle     : the Puzzle explained.
    reason     : with a contradiction, which cell has no candidate left; else "".
    """

    def __init__(self, steps, status, start, candidates, digits, puzzle, reason=""):
        super().__init__()
        self.extend(_drawn(step, puzzle, start, self, i) for i, step in enumerate(steps))
        self.status, self.start, self.candidates, self.digits = status, start, candidates, digits
        self.puzzle, self.reason = puzzle, reason

    def __str__(self):
        lines = [f"{i:>4}. {step}" for i, step in enumerate(self, 1)]
        lines.append(f"status: {self.status}" + (f": {self.reason}" if self.reason else ""))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """A notebook's view: where the steps lead, drawn (``svg``), and the first
        HTML_STEPS steps as a numbered list."""
        from html import escape

        from .drawing import svg
        shown = self[:HTML_STEPS]
        more = len(self) - len(shown)
        return (svg(self.puzzle, candidates=self.candidates)._repr_svg_()
                + f"<p>{len(self)} step{'s' * (len(self) != 1)}, status: {escape(self.status)}"
                + (f": {escape(self.reason)}" if self.reason else "") + "</p><ol>"
                + "".join(f"<li>{escape(str(step))}</li>" for step in shown) + "</ol>"
                + (f"<p>and {more} more</p>" if more else ""))


def replay(candidates, steps) -> np.ndarray:
    """The candidates left after ``steps`` are applied to ``candidates`` ((H, W, 9) bool).

    Examples
    --------
    >>> ex = explain([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> np.array_equal(replay(ex.start, ex), ex.candidates)
    True
    """
    out = np.array(candidates, dtype=bool, copy=True)
    for step in steps:
        for (r, c), digits in step.removed.items():
            out[r, c, [d - 1 for d in digits]] = False
    return out


class _Board(NamedTuple):
    """A puzzle set up for the ladder: its entries over variables (blank cells)."""
    puzzle: object
    packed: object
    var_cell: np.ndarray
    ent_var: np.ndarray
    var_eoff: np.ndarray
    var_ent: np.ndarray

    @property
    def runs(self) -> tuple:
        """``(ent_off, ent_var, ent_sum, var_eoff, var_ent)``, as ``techniques.climb``
        takes them."""
        return (self.packed.ent_off, self.ent_var, self.packed.ent_sum, self.var_eoff,
                self.var_ent)


def _board(puzzle) -> _Board:
    packed = packed_entries(puzzle)
    return _Board(puzzle, packed, *entry_variables(puzzle, packed))


def _start_masks(board, candidates) -> np.ndarray:
    """Each variable's candidates as a digit set: a given digit alone, else all (or ``candidates``)."""
    puzzle = board.puzzle
    if candidates is None:
        mask = np.full(len(board.var_cell), ALL_DIGITS, np.int64)
    else:
        cand = np.asarray(candidates, dtype=bool)
        if cand.shape != puzzle.shape + (9,):
            raise ValueError(f"candidates must have shape {puzzle.shape + (9,)}, got {cand.shape}")
        mask = (cand.reshape(-1, 9)[board.var_cell] << np.arange(9)).sum(axis=1).astype(np.int64)
    given = puzzle.given.ravel()[board.var_cell].astype(np.int64)
    return np.where(given > 0, 1 << np.maximum(given - 1, 0), mask)


def _candidates(board, mask) -> tuple:
    """``(candidates, digits)`` of the grid from the variables' digit sets."""
    return candidate_grid(board.puzzle.shape, board.var_cell, mask)


def explain(grid: PuzzleLike, *, candidates: np.ndarray | None = None, max_steps: int | None = None,
            top: int | None = None, timeout: float | None = None) -> Explanation:
    """Solve a puzzle by logic alone, as the steps a person would take.

    Each step is the simplest technique (``LADDER``) that makes progress somewhere:
    first the ladder of techniques on one entry (``techniques.NAMES``, from "no
    repeats" up to the essay's "joint possibilities"), looking first where the last
    steps changed something, which ends at the same candidates as ``reduce``; then,
    where the ladder is stuck, a region sum over whole runs (``regions``), an X-wing
    of two runs over two crossing runs (``patterns``), and last a chain: a supposition
    whose ladder steps end in a contradiction (``chains``).

    Parameters
    ----------
    grid : Puzzle, text, path or rows
        Given digits count as placed.
    candidates : (H, W, 9) bool, optional
        Start from these candidates (a player's pencil marks) instead of every digit.
    max_steps : int, optional
        Stop after this many steps (status "paused").
    top : int, optional
        Use only the first ``top`` techniques of ``LADDER`` (0 to ``len(LADDER)``;
        ``N_TECHNIQUES``: the ladder alone, where ``reduce`` stops).
    timeout : float, optional
        Seconds from the call; past them SolveTimeout is raised (the clock is looked at
        within every stage of the solve by logic and while the steps are put into words).

    Returns
    -------
    Explanation
        A list of ``Step`` with ``status``, ``start``, ``candidates`` and ``digits``.

    Examples
    --------
    >>> ex = explain([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> ex.status, len(ex), ex[-1].technique
    ('solved', 7, 'lone square')
    >>> print(ex[0])
    unique combination: The across 3 at (1, 0) can only be 1 + 2, the one way to make 3 from 2 different digits, so (1, 1) and (1, 2) keep only 1 and 2.
    >>> ex[1].placed
    {(1, 1): 1}
    """
    deadline = deadline_ns(timeout)
    board, start_mask, mask, status, records = _logic(grid, candidates, max_steps, top, deadline)
    cells = _cell_pairs(board)
    if records is None:                         # a cell starts with no candidate
        empty = [cells[v] for v in np.flatnonzero(start_mask == 0)]
        start, digits = _candidates(board, start_mask)
        return Explanation([], "contradiction", start, start, digits, board.puzzle,
                           f"{_cell_list(empty)} {'has' if len(empty) == 1 else 'have'} "
                           f"no candidate to start with")
    steps = _said(board, cells, start_mask.copy(), records, deadline)
    reason = ""
    if status == CONTRADICTION:
        empty = [cells[v] for v in np.flatnonzero(mask == 0)]
        reason = f"{_cell_list(empty)} {'has' if len(empty) == 1 else 'have'} no candidate left"
    return Explanation(steps, _STATUS[status], _candidates(board, start_mask)[0],
                       *_candidates(board, mask), board.puzzle, reason)


_STATUS = {SOLVED: "solved", STUCK: "stuck", CONTRADICTION: "contradiction", PAUSED: "paused"}


def _said(board, cells, state, records, deadline=NO_DEADLINE) -> list:
    """The ``Step`` of each record of ``_logic``, in order, ``state`` (digit sets) moving
    past each; SolveTimeout once ``deadline`` (monotonic ns) has passed."""
    from .checking import _left
    steps = []
    for kind, record in records:
        if kind != "climb":
            _left(deadline, DOING)
            steps.append(_ACROSS_STEPS[kind](board, cells, state, record))
            continue
        for s in range(len(record[1])):
            if s % CLOCK_STEPS == 0:
                _left(deadline, DOING)
            steps.append(_step(board, cells, state, record, s))
    return steps


def _logic(grid, candidates=None, max_steps=None, top=None, deadline=NO_DEADLINE) -> tuple:
    """``(board, start_mask, mask, status, records)``: the solve by logic of a puzzle.

    ``records`` lists what was done, in order: ``("climb", record)`` for the ladder's
    steps as ``climb`` records them, ``(REGION_SUM, RegionStep)``, ``(X_WING, XWing)``
    and ``(CHAIN, Chain)``; None when a cell starts with no candidate. ``mask`` is where
    it ends. SolveTimeout once ``deadline`` (monotonic ns) has passed: each stage looks
    at the clock (the ladder's climb, the region sums, the chains' suppositions)."""
    from .chains import MAX_SUPPOSITIONS, shortest_chain
    from .checking import _left
    from .formats import as_puzzle
    from .patterns import x_wing
    from .regions import region_step
    limit = -1 if max_steps is None else _count(max_steps, "max_steps", None)
    top = len(LADDER) if top is None else _count(top, "top", len(LADDER))
    board = _board(as_puzzle(grid))
    start_mask = _start_masks(board, candidates)
    mask = start_mask.copy()
    if not start_mask.all():
        return board, start_mask, mask, CONTRADICTION, None
    ahead.ready(("climb",))                      # the command line may compile it ahead
    runs = board.runs
    records, found, var_run, memo = [], None, None, {}
    budget = MAX_SUPPOSITIONS
    while True:
        _left(deadline, DOING)
        climbed = climb(runs, mask, np.int64(limit), np.int64(min(top, N_TECHNIQUES)),
                        np.int64(-1), np.int64(deadline))
        if climbed[0] == TIMED_OUT:
            _left(deadline, DOING)              # the climb stops early only past the deadline
        records.append(("climb", climbed))
        status = climbed[0]
        if limit >= 0:
            limit -= len(climbed[1])
        if status != STUCK or top <= N_TECHNIQUES:
            break
        if limit == 0:
            status = PAUSED
            break
        if found is None:
            found, var_run = _regions(board, deadline), board_runs(board)
        step = region_step(found, mask, var_run, memo, deadline)
        if step is not None:
            mask[step.var] = step.new
            records.append((REGION_SUM, step))
        elif top > LADDER.index(X_WING) and (wing := x_wing(
                board.packed.ent_off, board.ent_var, board.packed.ent_sum,
                board.packed.n_across, var_run, mask)) is not None:
            mask[wing.var] = wing.new
            records.append((X_WING, wing))
        else:
            chain = None
            if top > LADDER.index(CHAIN) and budget:
                chain, used = shortest_chain(runs, mask, budget, deadline=deadline)
                budget -= used
            if chain is None:
                break
            mask[chain.var] &= ~(1 << (chain.digit - 1))
            records.append((CHAIN, chain))
        limit -= limit > 0
        if not mask.all():
            status = CONTRADICTION
            break
    return board, start_mask, mask, status, records


def _regions(board, deadline=NO_DEADLINE) -> list:
    """The region sums of a board's runs (``regions.regions``), indexed; SolveTimeout once
    ``deadline`` (monotonic ns) has passed."""
    from .regions import indexed, regions
    return indexed(regions(board.packed.ent_off, board.ent_var, board.packed.ent_sum,
                           board.packed.n_across, board.var_cell, board.puzzle.shape[1],
                           deadline=deadline))


def board_runs(board) -> np.ndarray:
    """``(2, V)``: each variable's across run and down run (-1: none)."""
    from .regions import runs_of_variables
    return runs_of_variables(board.packed.ent_off, board.ent_var, board.packed.n_across,
                             len(board.var_cell))


def technique_counts(grid) -> tuple:
    """``(status, {technique: steps})`` of the solve by logic, without its sentences.

    Examples
    --------
    >>> technique_counts([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    ('solved', {'no repeats': 4, 'lone square': 1, 'unique combination': 2})
    """
    status, uses, _ = logic_summary(grid)
    return status, uses


def logic_summary(grid, top=None, deadline=NO_DEADLINE) -> tuple:
    """``(status, {technique: steps}, chain lengths)`` of the solve by logic: what
    ``explain`` does (with the first ``top`` techniques of ``LADDER``) without its
    sentences, the chains' links counted in order. SolveTimeout once ``deadline``
    (monotonic ns) has passed."""
    _, _, _, status, records = _logic(grid, top=top, deadline=deadline)
    if records is None:
        return "contradiction", {}, []
    uses = np.zeros(len(LADDER), np.int64)
    lengths = []
    for kind, record in records:
        if kind == "climb":
            uses[:N_TECHNIQUES] += np.bincount(record[1], minlength=N_TECHNIQUES)
        else:
            uses[LADDER.index(kind)] += 1
        if kind == CHAIN:
            lengths.append(len(record))
    return _STATUS[status], {LADDER[t]: int(uses[t]) for t in np.flatnonzero(uses)}, lengths


def _count(value, name, most) -> int:
    """``value`` as a whole number from 0 to ``most`` (None: no top), else ValueError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value < 0 or (most is not None and value > most):
        top = "" if most is None else f" and <= {most}"
        raise ValueError(f"{name} must be a whole number >= 0{top}, got {value!r}")
    return int(value)


# -- the sentences ----------------------------------------------------------------


def _digits(mask: int, last="and") -> str:
    """``"1, 2 and 3"`` for a digit set."""
    ds = [str(d) for d in range(1, 10) if (mask >> (d - 1)) & 1]
    return ds[0] if len(ds) == 1 else ", ".join(ds[:-1]) + f" {last} " + ds[-1]


def _cell_list(cells) -> str:
    """``"(1, 2) and (1, 4)"``."""
    names = [f"({r}, {c})" for r, c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _combo(mask: int) -> str:
    """``"1 + 2 + 6"`` for a combination's digit set."""
    return " + ".join(str(d) for d in range(1, 10) if (mask >> (d - 1)) & 1)


def _effect(cells, old, new) -> str:
    """What a step did, cell by cell: ``"(1, 1) is 1, and (1, 2) loses 4 and 8"``.

    Cells that come out the same way are named together.
    """
    said = {}
    for cell, o, n in zip(cells, old, new):
        n_left = bin(n).count("1")
        if n_left == 1:
            phrase = f"{{}} {{}} {_digits(n)}"
            verb = ("is", "are")
        elif n_left == 0:
            phrase, verb = "{} {} no candidate left", ("has", "have")
        elif bin(o & ~n).count("1") > n_left:
            phrase, verb = f"{{}} {{}} only {_digits(n)}", ("keeps", "keep")
        else:
            phrase, verb = f"{{}} {{}} {_digits(o & ~n)}", ("loses", "lose")
        said.setdefault((phrase, verb), []).append(cell)
    parts = [phrase.format(_cell_list(group), verb[len(group) > 1])
             for (phrase, verb), group in said.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]


class _Context(NamedTuple):
    """What a sentence about one step may draw on."""
    name: str          # "the across 16 at (1, 2)"
    cells: list        # the entry's cells
    m: list            # their candidates before the step
    total: int
    info: list
    effect: str


def _open_part(x) -> tuple:
    """``(used, rest, n_open, subject)`` of the entry before the step."""
    single = [m for m in x.m if bin(m).count("1") == 1]
    used = 0
    for m in single:
        used |= m
    rest = x.total - sum(m.bit_length() for m in single)
    n_open = len(x.m) - len(single)
    subject = (f"the cells of {x.name}" if not single else
               f"the {n_open} open cell{'s' if n_open > 1 else ''} of {x.name}")
    return used, rest, n_open, subject


def _sum_combos(x) -> list:
    """The sum combinations as digit sets, in the kernels' order (``kc``'s)."""
    used, rest, n_open, _ = _open_part(x)
    if not 0 <= rest <= 45:
        return []
    sets = [sum(1 << (d - 1) for d in row) for row in kc(rest, n_open).tolist()]
    return [s for s in sets if not s & used]


def _ways(combos) -> str:
    """``"1 + 7, 2 + 6 or 3 + 5"``, or ``"7 ways"`` when there are more than four."""
    if len(combos) > 4:
        return f"{len(combos)} ways"
    names = [_combo(c) for c in combos]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _as_ways(combos) -> str:
    """``"as 1 + 7 or 2 + 6"``, or ``"in 7 ways"``."""
    return ("in " if len(combos) > 4 else "as ") + _ways(combos)


def _without(used) -> str:
    return f" without {_digits(used, 'or')}" if used else ""


def _say_no_repeats(x):
    i, d = x.info[0], x.info[1]
    return f"{_cell_list([x.cells[i]])} is {d} and no digit repeats in {x.name}, so {x.effect}."


def _say_lone_square(x):
    i, rest, used_sum = x.info[0], x.info[1], x.info[2]
    if i < 0:
        return f"The digits of {x.name} add up to {used_sum}, not {x.total}."
    cell = _cell_list([x.cells[i]])
    if not 1 <= rest <= 9 or not (x.m[i] >> (rest - 1)) & 1:
        where = "only" if len(x.cells) == 1 else "last open"
        return f"{cell} is the {where} cell of {x.name} and would need {rest}, which it cannot hold."
    if len(x.cells) == 1:
        return f"{cell} is the only cell of {x.name}, so it is {rest}."
    return f"{cell} is the last open cell of {x.name}, so it takes {x.total} - {used_sum} = {rest}."


def _say_sum_digits(x):
    used, rest, n_open, subject = _open_part(x)
    combos = _sum_combos(x)
    if not combos:
        return (f"No {n_open} different digits{_without(used)} add up to {rest}, so {subject} "
                f"cannot be filled: {x.effect}.")
    if len(combos) == 1:
        if used:
            return (f"{subject[0].upper() + subject[1:]} must make {rest}{_without(used)}, and the "
                    f"only way is {_combo(combos[0])}, so {x.effect}.")
        return (f"{x.name[0].upper() + x.name[1:]} can only be {_combo(combos[0])}, the one way to "
                f"make {rest} from {n_open} different digits, so {x.effect}.")
    return (f"{subject[0].upper() + subject[1:]} make {rest}{_without(used)} only "
            f"{_as_ways(combos)}, which use {_digits(x.info[0])}, so {x.effect}.")


def _say_bounds(x):
    i, least, most = x.info[0], x.info[1], x.info[2]
    cell = _cell_list([x.cells[i]])
    if least > 45:
        return f"The other cells of {x.name} cannot all hold different digits, so {x.effect}."
    low, high = x.total - most, x.total - least
    span = (f"at least {low}" if high >= 9 else f"at most {high}" if low <= 1
            else f"{low} to {high}")
    return (f"The other cells of {x.name} make at least {least} and at most {most}, so {cell} "
            f"is {span}: {x.effect}.")


def _say_complement(x):
    open_cells = [cell for cell, m in zip(x.cells, x.m) if bin(m).count("1") != 1]
    return (f"{_cell_list(open_cells)} make {x.info[0]} together in {x.name}, so each digit in "
            f"one needs {x.info[0]} less it in the other: {x.effect}.")


def _say_combination_placement(x):
    _, rest, n_open, subject = _open_part(x)
    combos = _sum_combos(x)
    return (f"{subject[0].upper() + subject[1:]} make {rest} {_as_ways(combos)}; a cell keeps a "
            f"digit only if a combination holding it can place its other digits in the other "
            f"open cells, so {x.effect}.")


def _fitting(x, fit) -> list:
    return [c for j, c in enumerate(_sum_combos(x)) if (fit >> j) & 1]


def _say_required_digit(x):
    i, d, fit = x.info[0], x.info[1], x.info[2]
    combos = _fitting(x, fit)
    which = (f"The only combination that fits {x.name} is {_combo(combos[0])}"
             if len(combos) == 1 else
             f"Every combination that fits {x.name} ({_ways(combos)}) holds {d}")
    return f"{which}, and only {_cell_list([x.cells[i]])} can take {d}, so {x.effect}."


def _bits_cells(x, where) -> list:
    return [cell for i, cell in enumerate(x.cells) if (where >> i) & 1]


def _say_naked(x):
    where, digits = x.info[0], x.info[1]
    return (f"{_cell_list(_bits_cells(x, where))} can hold only {_digits(digits)} between them, "
            f"so no other cell of {x.name} can: {x.effect}.")


def _say_hidden(x):
    where, digits, fit = x.info[0], x.info[1], x.info[2]
    combos = _fitting(x, fit)
    return (f"Every combination that fits {x.name} ({_ways(combos)}) needs {_digits(digits)}, "
            f"and only {_cell_list(_bits_cells(x, where))} can take them, so those cells hold "
            f"nothing else: {x.effect}.")


def _say_combination_elimination(x):
    fit = x.info[1]
    _, rest, _, subject = _open_part(x)
    combos = _sum_combos(x)
    kept = [c for j, c in enumerate(combos) if (fit >> j) & 1]
    dropped = [c for j, c in enumerate(combos) if not (fit >> j) & 1]
    names = [_combo(c) for c in dropped]
    gone = (f"{len(dropped)} of the {len(combos)} ways" if len(dropped) > 4 else names[0]
            if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    fit = "fits" if len(dropped) == 1 else "fit"
    if not kept:
        return (f"No way for {subject} to make {rest} fits their candidates, so {x.name} cannot "
                f"be filled: {x.effect}.")
    return (f"Of the ways {subject} make {rest}, {gone} no longer {fit} their candidates, which "
            f"leaves {_ways(kept)}, so {x.effect}.")


def _say_joint_possibilities(x):
    ways = x.info[0]
    if ways == 0:
        return f"No way to fill {x.name} fits the candidates of its cells, so {x.effect}."
    return (f"Only {ways} way{'s' if ways > 1 else ''} to fill {x.name} fit{'' if ways > 1 else 's'} "
            f"the candidates of its cells, so {x.effect}.")


_SAY = (_say_no_repeats, _say_lone_square, _say_sum_digits, _say_sum_digits, _say_bounds,
        _say_complement, _say_required_digit, _say_naked, _say_hidden, _say_naked, _say_hidden,
        _say_combination_elimination, _say_combination_placement, _say_joint_possibilities)


def _entry_parts(board, k) -> tuple:
    """``("across", 16, (1, 2))``: the direction, clue and clue cell of entry ``k``."""
    W = board.puzzle.shape[1]
    r, c = divmod(int(board.packed.ent_cell[board.packed.ent_off[k]]), W)
    across = k < board.packed.n_across
    clue = (r, c - 1) if across else (r - 1, c)
    return "across" if across else "down", int(board.packed.ent_sum[k]), clue


def _entry_name(board, k) -> str:
    """``"the across 16 at (1, 2)"``: the direction, clue and clue cell of entry ``k``."""
    direction, total, clue = _entry_parts(board, k)
    return f"the {direction} {total} at {clue}"


def _cell_pairs(board) -> list:
    """(row, col) of each variable."""
    rows, cols = np.divmod(board.var_cell, board.puzzle.shape[1])
    return list(zip(rows.tolist(), cols.tolist()))


def _step(board, cells, state, climbed, s) -> Step:
    """Step ``s`` of what ``climb`` recorded; ``state`` (digit sets) moves past it."""
    _, tech, entry, info, change_off, change_var, change_old, change_new = climbed
    t, k = int(tech[s]), int(entry[s])
    lo, hi = change_off[s], change_off[s + 1]
    var, old, new = (change_var[lo:hi].tolist(), change_old[lo:hi].tolist(),
                     change_new[lo:hi].tolist())
    info = info[s].tolist()
    ent = board.ent_var[board.packed.ent_off[k]:board.packed.ent_off[k + 1]]
    changed = [cells[v] for v in var]
    x = _Context(_entry_name(board, k), [cells[v] for v in ent], state[ent].tolist(),
                 int(board.packed.ent_sum[k]), info, _effect(changed, old, new))
    state[var] = new
    return Step(NAMES[t], k, x.cells, *_outcome(changed, old, new), _SAY[t](x))


def _outcome(changed, old, new) -> tuple:
    """``(placed, removed)`` of a step that takes the cells ``changed`` from the digit sets
    ``old`` to ``new``: the digit of each cell left with one, and the digits each loses."""
    placed = {cell: n.bit_length() for cell, n in zip(changed, new) if bin(n).count("1") == 1}
    removed = {cell: {d for d in range(1, 10) if ((o & ~n) >> (d - 1)) & 1}
               for cell, o, n in zip(changed, old, new)}
    return placed, removed


def _runs_named(board, runs) -> str:
    """``"the across 16 at (1, 2)"``, or ``"the 3 across runs 16, 23 and 9 at (1, 2),
    (2, 2) and (3, 1)"``: runs of one direction with their clues."""
    if len(runs) == 1:
        return _entry_name(board, runs[0])
    directions, clues, where = zip(*(_entry_parts(board, k) for k in runs))
    clues, where = [str(x) for x in clues], [str(x) for x in where]
    return (f"the {len(runs)} {directions[0]} runs {', '.join(clues[:-1])} and {clues[-1]} at "
            f"{', '.join(where[:-1])} and {where[-1]}")


def _region_step(board, cells, state, step) -> Step:
    """The Step of a region sum (``regions.RegionStep``); ``state`` moves past it."""
    region = step.region
    runs_total = int(board.packed.ent_sum[list(region.runs)].sum())
    cross_total = int(board.packed.ent_sum[list(region.cross)].sum())
    inner = _runs_named(board, list(region.runs))
    one = len(region.runs) == 1
    them = "it" if one else "them"
    said = f"{inner[0].upper() + inner[1:]} make{'s' * one} {runs_total}"
    if region.cross:
        crossing = _runs_named(board, list(region.cross))
        lone = len(region.cross) == 1
        where = (f"that cross{'es' * lone} {them}" if region.kind == "outies" else
                 f"that lie{'s' * lone} within {them}")
        said += f", and {crossing} {where} make{'s' * lone} {cross_total}"
    plus = [cells[v] for v in region.plus.tolist()]
    minus = [cells[v] for v in region.minus.tolist()]
    if not minus:
        side = (f"so the cells of {them} that those miss, {_cell_list(plus)}, make "
                f"{runs_total} - {cross_total} = {region.difference}" if region.cross else
                f"so {_cell_list(plus)} make {region.difference}")
    elif not plus:
        side = (f"so the cells of those outside {them}, {_cell_list(minus)}, make "
                f"{cross_total} - {runs_total} = {-region.difference}")
    else:
        side = (f"so {_cell_list(plus)} make {region.difference} more than "
                f"{_cell_list(minus)}" if region.difference >= 0 else
                f"so {_cell_list(plus)} make {-region.difference} less than {_cell_list(minus)}")
    both = np.concatenate([region.plus, region.minus])
    decided = both[POPCOUNT[state[both]] == 1]
    if len(decided):
        given = f"; with {_cell_list([cells[v] for v in decided.tolist()])} decided, "
        if plus and minus:
            side += (f"{given}the open cells of the first make {abs(step.rest)} "
                     f"{'more' if step.rest >= 0 else 'less'} than those of the second")
        else:
            side += f"{given}{_cell_list(_undecided(cells, both, decided))} make {abs(step.rest)}"
    var, old, new = step.var.tolist(), step.old.tolist(), step.new.tolist()
    changed = [cells[v] for v in var]
    reason = f"{said}, {side}: {_effect(changed, old, new)}."
    state[var] = new
    inside = np.concatenate([board.ent_var[board.packed.ent_off[k]:board.packed.ent_off[k + 1]]
                             for k in region.runs])
    return Step(REGION_SUM, None, plus + minus, *_outcome(changed, old, new), reason,
                region=tuple(cells[v] for v in inside.tolist()))


def _x_wing_step(board, cells, state, wing) -> Step:
    """The Step of an X-wing (``patterns.XWing``); ``state`` moves past it."""
    d = wing.digit
    first, second = (_entry_name(board, k) for k in wing.runs)
    corners = [[cells[v] for v in pair] for pair in wing.cells]
    crossing = " and ".join(_entry_name(board, k) for k in wing.cross)
    var, old, new = wing.var.tolist(), wing.old.tolist(), wing.new.tolist()
    changed = [cells[v] for v in var]
    either = [_cell_list(pair).replace(" and ", " or ") for pair in corners]
    reason = (f"{first[0].upper() + first[1:]} and {second} each need {'an' if d == 8 else 'a'} "
              f"{d} (every combination "
              f"that fits them holds it), the first only in {either[0]}, the second only in "
              f"{either[1]}. Those four cells lie two by two in {crossing}, and the two {d}s "
              f"cannot share one of them, so each of those gets its {d} there: "
              f"{_effect(changed, old, new)}.")
    state[var] = new
    return Step(X_WING, None, corners[0] + corners[1] + changed, *_outcome(changed, old, new),
                reason)


def _undecided(cells, both, decided) -> list:
    """The cells of variables ``both`` that are not ``decided``."""
    done = set(decided.tolist())
    return [cells[v] for v in both.tolist() if v not in done]


def _chain_step(board, cells, state, chain) -> Step:
    """The Step of a chain (``chains.Chain``): the supposition, its links as Steps of the
    ladder, and the candidate it removes; ``state`` moves past it."""
    climbed = chain.links
    trial = chain.start.copy()
    links = [_step(board, cells, trial, climbed, s) for s in range(len(climbed[1]))]
    cell, d = cells[chain.var], chain.digit
    lo, hi = climbed[4][-2], climbed[4][-1]
    empty = [cells[v] for v, n in zip(climbed[5][lo:hi].tolist(), climbed[7][lo:hi].tolist())
             if n == 0]
    said = " ".join(f"({i}) {link.reason}" for i, link in enumerate(links, 1))
    old = int(state[chain.var])
    new = old & ~(1 << (d - 1))
    reason = (f"Suppose {_cell_list([cell])} were {d}. {said} So {_cell_list(empty)} "
              f"{'has' if len(empty) == 1 else 'have'} no candidate left after {len(links)} "
              f"link{'s' if len(links) != 1 else ''}, and {_cell_list([cell])} is not {d}: "
              f"{_effect([cell], [old], [new])}.")
    state[chain.var] = new
    link_cells = [cell] + [c for link in links for c in link.cells if c != cell]
    return Step(CHAIN, None, list(dict.fromkeys(link_cells)), *_outcome([cell], [old], [new]),
                reason, tuple(links))


#: The Step of each kind of step across runs, from its record (see ``_logic``).
_ACROSS_STEPS = {REGION_SUM: _region_step, X_WING: _x_wing_step, CHAIN: _chain_step}


def hint(grid: PuzzleLike, *, candidates: np.ndarray | None = None, check_digits: bool = True,
         timeout: float | None = None) -> Step | None:
    """The next step from the current state, or None when logic is stuck or the grid is solved.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
        The player's digits are its given digits.
    candidates : (H, W, 9) bool, optional
        The player's pencil marks, to start from instead of every digit.
    check_digits : bool
        First make sure some solution agrees with every digit placed; if none
        does, the hint is a step with the technique "mistake" that names the
        digits no solution has (``removed``), or all the digits placed when
        each is in some solution but no solution has them all; and when the
        puzzle itself has no solution, a step with the technique "no solution"
        that says why.
    timeout : float, optional
        Seconds from the call, for that first check and the step (``SolveTimeout`` past
        them).

    Returns
    -------
    Step or None

    Examples
    --------
    >>> rows = [["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]]
    >>> print(hint(rows))
    unique combination: The across 3 at (1, 0) can only be 1 + 2, the one way to make 3 from 2 different digits, so (1, 1) and (1, 2) keep only 1 and 2.
    >>> hint([["x", (4, 0), (3, 0)], [(0, 3), 2, "_"], [(0, 4), "_", "_"]]).reason
    'No solution of the puzzle has 2 at (1, 1), so that digit is wrong.'
    >>> hint([["x", (4, 0), (3, 0)], [(0, 3), 1, 2], [(0, 4), 3, 1]]) is None
    True
    >>> print(hint([["x", (3, 0), (4, 0)], [(0, 30), "_", "_"]]))
    no solution: The puzzle has no solution: the across 30 at (1, 0) over 2 cells: no 2 different digits add up to 30 (2 cells make 3 to 17).
    """
    from .checking import _left
    from .formats import as_puzzle
    deadline = deadline_ns(timeout)
    puzzle = as_puzzle(grid)
    if check_digits:
        step = _mistake(puzzle, deadline)
        if step is not None:
            return step
    steps = explain(puzzle, candidates=candidates, max_steps=1,
                    timeout=_left(deadline, "giving a hint"))
    return steps[0] if len(steps) else None


def _mistake(puzzle, deadline=NO_DEADLINE):
    """A "mistake" step when no solution agrees with every given digit, a "no solution"
    step when the puzzle has none without them either, else None (SolveTimeout past
    ``deadline``, monotonic ns)."""
    from .checking import _left, check
    from .solve import count
    if count(puzzle, limit=1, timeout=_left(deadline)):
        return None
    found = check(puzzle, limit=1, timeout=_left(deadline)) if puzzle.given.any() else None
    if found is None or not found.solvable:
        return _no_solution(puzzle, deadline)
    if found.wrong:
        removed = {cell: {digit} for cell, digit in zip(found.wrong, found.wrong_digits)}
        said = " and ".join(f"{digit} at ({r}, {c})" for (r, c), digit in removed.items()
                            for digit in digit)
        many = len(removed) > 1
        return _drawn(Step("mistake", None, list(removed), {}, removed,
                    f"No solution of the puzzle has {said}, so "
                    f"{'those digits are' if many else 'that digit is'} wrong."), puzzle)
    cells = [(int(r), int(c)) for r, c in np.argwhere(puzzle.given)]
    return _drawn(Step("mistake", None, cells, {}, {},
                       "Each digit placed is in some solution, but no solution has them "
                       "all, so one of them is wrong."), puzzle)


def _no_solution(puzzle, deadline=NO_DEADLINE):
    """The "no solution" step of a puzzle that has none: why, from forced moves where they
    find the run that cannot be filled."""
    from .checking import _left
    from .solve import reduce
    r = reduce(puzzle.with_given(None), timeout=_left(deadline))
    why = (r.reason if r.status == "contradiction" and r.reason else
           "no filling of its cells meets every clue (every branch of a search fails)")
    return _drawn(Step("no solution", None, [], {}, {}, f"The puzzle has no solution: {why}."),
                  puzzle)
