"""The ``kakuro-np`` command line (also ``python -m kakuro_np``).

Exit status (``EXIT_*``): 0 done, and also when the reader of stdout leaves early
(the output ends quietly, as Unix tools do); 1 a bug (internal error); 2 bad
input or usage, or an output that cannot be written (a full disk says "no space
left on device"), in one line on stderr, never a traceback; 3 and 4 from
``check`` (and ``grade``, ``hint``, ``explain``) for several solutions and none;
5 when ``solve`` finds too many solutions to print; 124 for ``--timeout``; 130 for
Ctrl-C, which stops at once; 143 for SIGTERM to ``batch``, which ends its workers
first. With several files,
a file that fails is reported on stderr and the others still run; the status is
the highest of any file's.

Messages from the library name the Python API's parameters (``format=``,
``limit=``, ``count()``); ``cli_words`` puts the command line's options in
their place.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import signal
import stat
import sys
import threading

from .errors import BudgetError, PuzzleError, SolveTimeout, TooManySolutions
from .files import NO_SPACE, output_path, why, write_atomic

# The solver's modules load numba (and the readers numpy), so each function imports what
# it needs when it runs: ``--help`` and ``kc`` start at once, without numba.

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_MULTIPLE, EXIT_NONE = 0, 1, 2, 3, 4
EXIT_TOO_MANY, EXIT_TIMEOUT, EXIT_INTERRUPTED, EXIT_TERMINATED = 5, 124, 130, 143
#: ``grade.LABELS``, written here so the parser does not load the compiled engine.
GRADE_LABELS = ("easy", "medium", "hard", "expert")
#: FILE arguments that are addresses, passed to ``formats.read`` as they are.
URL_PREFIXES = ("http://", "https://", "kakuro/")
#: The Python API's words in the library's messages, and the command line's in their place.
CLI_WORDS = (
    ("name one with format=", "name one with --format"),
    ("ask for some with limit=, or count them with count()",
     "ask for some with --limit N, or count them with --count"),
    ("ask for fewer with limit= or count them with count()",
     "ask for fewer with --limit or count them with --count"),
    (" (set kakuro_np.Puzzle.MAX_SIDE to allow more)", ""),
    (" (raise max_rows= to allow more)", ""),
    ("read them with read_all", "give one at a time (kakuro_np.read_all reads them all)"),
)
#: The most bytes ``solve`` prints without ``--limit`` or ``--force``.
MAX_OUTPUT = 100 * 10 ** 6
#: How many solutions ``check`` counts before it says "at least".
CHECK_CAP = 1000
#: Without ``--limit``, the seconds ``check`` counts past a second solution towards CHECK_CAP:
#: on a big open grid, a count to CHECK_CAP takes far longer than "two or more".
CHECK_MORE_S = 2.0
#: The line on stderr when a run waits for kernels not compiled yet (after an install or an
#: edit of the kernels' sources, the cache guard) and the essay did not answer meanwhile
#: (``first_run``): a first ``solve`` of a big open grid may wait minutes for them;
#: ``kakuro-np compile`` fills the whole cache.
COMPILING = ("kakuro-np: compiling the solver once, a minute or more (later runs load it "
             "from the cache; `kakuro-np compile` does it all ahead)")


def _name(path: str) -> str:
    """A short name for a file in output headers: ``k3`` for ``puzzles/k3.txt``."""
    return "stdin" if path == "-" else os.path.splitext(os.path.basename(path))[0]


def cli_words(message: str, limit=None) -> str:
    """A library message with the command line's options in place of the API's (``CLI_WORDS``);
    a timeout with ``--limit 1`` is told to allow more time rather than to ask for fewer.

    Examples
    --------
    >>> cli_words("cannot tell the format of 'q'; name one with format=")
    "cannot tell the format of 'q'; name one with --format"
    """
    if limit == 1:
        message = message.replace("ask for fewer with limit= or count them with count()",
                                  "allow a longer --timeout")
    for api, cli in CLI_WORDS:
        message = message.replace(api, cli)
    return message


def _source(path: str):
    """What ``formats.read`` gets for a FILE argument: an address (``URL_PREFIXES``, or
    what ``formats.looks_like_url`` and no file has for a name) as it is, else a
    ``Path``, so that a name is never read as puzzle text. A directory or a device
    is refused; a pipe (``<(...)``) is read, at most ``MAX_TEXT`` bytes like a file."""
    from .formats import looks_like_url
    if path.startswith(URL_PREFIXES) or (looks_like_url(path) and not os.path.exists(path)):
        return path
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return pathlib.Path(path)                    # the reader says why it cannot
    if stat.S_ISDIR(mode):
        raise PuzzleError("is a directory", source=path)
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise PuzzleError("is not a regular file", source=path)
    return pathlib.Path(path)


def _load(path: str, fmt=None):
    """The well-formed puzzle in a file, or on stdin for ``-``; errors name the file."""
    from . import formats
    source = "<stdin>" if path == "-" else path
    try:
        puzzle, places = formats.with_places(formats.parse, sys.stdin.buffer.read(
            formats.MAX_TEXT + 1), format=fmt) if path == "-" else \
            formats.with_places(formats.read, _source(path), format=fmt)
        formats.check_runs(puzzle, places)           # every run has a clue, none is too long
    except PuzzleError as e:
        raise (e if e.source else e.with_source(source)) from None
    _say_when_compiling()                            # after the input is checked: errors stay one line
    return puzzle


_notice_armed = False


def _say_when_compiling() -> None:
    """From now on, print ``COMPILING`` once if a kernel not in the cache starts compiling."""
    global _notice_armed
    if not _notice_armed:
        from .engine.core.ahead import when_waiting
        from .engine.core.jit import when_compiling
        said = []

        def say():                                   # once, whoever compiles
            if not said:
                said.append(True)
                print(COMPILING, file=sys.stderr, flush=True)

        when_compiling(say)
        when_waiting(say)
        _notice_armed = True


def _compile_ahead(*names: str) -> None:
    """On an empty cache, compile these kernels in a helper process meanwhile (``ahead``)."""
    ahead = _every_group()
    ahead.start(*names)


def _every_group():
    """``ahead``, with every group of kernels declared: the engine's, and those of the
    modules above it that declare their own (``ahead.declare``)."""
    from . import generator, techniques  # noqa: F401  (they declare their groups)
    from .engine.core import ahead
    return ahead


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _out_path(template: str, path: str, several: bool) -> str:
    """``template`` with ``{name}`` replaced by the file's short name."""
    if several and "{name}" not in template:
        raise PuzzleError(f"with several files, the output path needs {{name}}: {template}")
    return template.replace("{name}", _name(path))


def _write(path: str, text: str) -> None:
    """Write ``text`` to a file at once (``write_atomic``), or to stdout for ``-``."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(path, text)
    except OSError as e:
        raise PuzzleError(f"cannot write file: {e.strerror}", source=path) from None


class Refusal(Exception):
    """A refusal with its own exit status, said in one line on stderr."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def _say(message: str) -> None:
    """One line on stderr, after the lines so far on stdout: a failure, or a word about
    output that may surprise (then the exit status stays 0)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):                    # stdout full or gone: still say it
        pass
    print(f"kakuro-np: {message}", file=sys.stderr)


def _counting(puzzle, limit, timeout, scheduler=None) -> int:
    """``count()``, with a progress bar on stderr when it is a terminal (``bar``: nodes,
    their rate, the solutions so far), wiped when the count ends; on a Dask ``scheduler``
    without one (its dashboard shows the tasks)."""
    from .solve import count
    shown = None if scheduler is not None else bar(unit=" nodes", leave=False)
    if shown is None:
        return count(puzzle, limit=limit, timeout=timeout, scheduler=scheduler)

    def show(p):
        shown.update(p.nodes - shown.n)
        shown.set_postfix_str(f"{solutions_so_far(p)} solutions so far")

    try:
        return count(puzzle, limit=limit, timeout=timeout, progress=show)
    finally:
        shown.close()


def solutions_so_far(p) -> str:
    """The solutions a count has reached (a ``progress.Progress``). A piece's count held in
    int64 stops at its largest value: past it this says so, not a number it is not.

    >>> from kakuro_np.progress import Progress
    >>> solutions_so_far(Progress(12_345, 2 ** 63 - 1, 2.0)), solutions_so_far(Progress(9, 1234, 1.0))
    ('over 9.2e+18', '1,234')
    """
    return f"over {2 ** 63 - 1:.1e}" if p.solutions >= 2 ** 63 - 1 else f"{p.solutions:,}"


def bar(total=None, unit=" puzzles", leave=True):
    """A progress bar on stderr (tqdm's: done, rate, time left), or None when stderr is not
    a terminal or tqdm, the extra ``cli``, is not installed."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    try:                                             # a terminal that gives no size (tqdm
        sized = min(os.get_terminal_size(sys.stderr.fileno())) > 0   # would draw nothing): 80x24
    except (OSError, ValueError):
        sized = False
    return tqdm(total=total, unit=unit, unit_scale=total is None, leave=leave, file=sys.stderr,
                dynamic_ncols=sized, **({} if sized else {"ncols": 80, "nrows": 24}))


class _Bar:
    """A ``bar`` made at the first step, when a callback first tells the total."""

    def __init__(self, unit: str):
        self.unit, self.shown, self.made = unit, None, False

    def step(self, total: int) -> bool:
        """One more done; whether a bar shows it."""
        if not self.made:
            self.shown, self.made = bar(total, self.unit), True
        if self.shown is not None:
            self.shown.update()
        return self.shown is not None

    def close(self) -> None:
        if self.shown is not None:
            self.shown.close()


def _json(obj) -> None:
    """One JSON object a line on stdout (``--json``)."""
    import json
    print(json.dumps(obj, ensure_ascii=False))


def _describe(e: BaseException, args) -> tuple:
    """``(message, exit status)`` for a failure, in the command line's words."""
    if isinstance(e, Refusal):
        message, code = str(e), e.code
    elif isinstance(e, SolveTimeout):
        message, code = str(e), EXIT_TIMEOUT
    elif isinstance(e, (PuzzleError, BudgetError, TooManySolutions, ValueError)):
        message, code = str(e), EXIT_BAD_INPUT
    elif isinstance(e, MemoryError):
        message, code = "out of memory; try --limit or --count", EXIT_BAD_INPUT
    elif isinstance(e, (ImportError, ConnectionError)):   # Dask missing or out of reach
        message, code = str(e), EXIT_BAD_INPUT
    elif isinstance(e, OSError) and e.errno in NO_SPACE:   # writing to stdout
        message, code = f"cannot write the output: {why(e)}", EXIT_BAD_INPUT
    else:                                            # a bug: still one line
        message = f"internal error ({type(e).__name__}: {e}); please report it"
        code = EXIT_INTERNAL
    return cli_words(message, getattr(args, "limit", None)), code


def _failure(e: BaseException, args) -> int:
    """Say what went wrong in one line on stderr (never a traceback); the exit status."""
    message, code = _describe(e, args)
    _say(message)
    return code


def _each(args, paths, do) -> int:
    """``do(i, path)`` for each file: one that fails is reported and the others still run.
    The highest exit status of any file."""
    worst = EXIT_OK
    for i, path in enumerate(paths):
        try:
            code = do(i, path)
        except BrokenPipeError:                      # the reader left: stop (``_run``)
            raise
        except Exception as e:
            code = _failure(e, args)
            if getattr(args, "json", False):         # every file has its object
                _json({"file": path, "name": _name(path), "error": _describe(e, args)[0],
                       "exit": code})
        worst = max(worst, code)
    return worst


# -- subcommands ------------------------------------------------------------

def _solutions(puzzle, path: str, args):
    """``kakuro()`` of a puzzle; without ``--limit`` or ``--force``, solutions whose output
    would pass MAX_OUTPUT bytes exit EXIT_TOO_MANY before anything is printed, saying how
    many (``kakuro()`` counts them, or estimates them, before it lists more than fit)."""
    from .budget import DECIDE_SECONDS, MAX_BYTES, solution_bytes, solutions_within
    from .solve import kakuro
    most = None                                      # solutions the output may hold
    max_bytes = MAX_BYTES
    if args.limit is None and not args.force and args.svg != "-":
        most = max(1, MAX_OUTPUT // _printed_bytes(puzzle, args))
        max_bytes = min(MAX_BYTES, most * solution_bytes(int(puzzle.blank.sum()), *puzzle.shape))
    try:
        return kakuro(puzzle, limit=args.limit, order=args.order, timeout=args.timeout,
                      scheduler=args.scheduler, max_bytes=max_bytes)
    except TooManySolutions as e:
        held = solutions_within(max_bytes, int(puzzle.blank.sum()), *puzzle.shape)
        if most is None or held < most:              # memory, not the output, ran out
            if e.count is None:
                raise Refusal(f"{path}: {cli_words(str(e))}", EXIT_TOO_MANY) from None
            raise Refusal(f"{path}: the puzzle has {e.count:,} solutions, too many to hold; "
                          f"use --limit N or --count", EXIT_TOO_MANY) from None
        size = f"over {MAX_OUTPUT / 10 ** 6:g} MB"
        if e.count is not None:
            said = f"the puzzle has {e.count:,} solutions, too many to print ({size})"
        elif e.at_least == 0:                        # not told in time
            said = (f"could not tell within {DECIDE_SECONDS:g} s whether the puzzle's "
                    f"solutions fit in {size[5:]} of output (its count did not end, and "
                    f"Knuth's estimate could not say)")
        else:
            known = e.how_many if e.how_many.startswith("about") else f"at least {e.at_least:,}"
            said = f"the puzzle has too many solutions to print ({known}; {size})"
        raise Refusal(f"{path}: {said}; use --limit N, --count or --force",
                      EXIT_TOO_MANY) from None


def _printed_bytes(puzzle, args) -> int:
    """About how many bytes ``solve`` prints for each solution of ``puzzle`` (a grid of 9s
    printed as ``args`` asks, and its label)."""
    import json

    import numpy as np

    from . import formats
    from .render import boxed
    from .tokens import backslash_clue
    nines = (puzzle.blank * 9).astype(np.int8)
    if args.json:
        return len(json.dumps(nines.tolist())) + 2
    if args.to:
        return len(formats.format(puzzle, args.to, solution=nines)) + 40
    return len(boxed(puzzle, nines, clue=backslash_clue)) + 40


def cmd_solve(args) -> int:
    from .render import boxed
    from .formats import write_all
    from .solve import kakuro, kakuro_kernels
    from .turns import count_kernels
    from .tokens import backslash_clue
    from .drawing import svg
    several = len(args.files) > 1
    if args.to == "puzzlink":                        # a usage error: before any solve
        raise PuzzleError(f"--to puzzlink: a puzz.link URL holds no digits, so no solution; "
                          f"the puzzle's URL is `kakuro-np convert {args.files[0]} --to "
                          f"puzzlink`")
    if args.svg:
        _out_path(args.svg, args.files[0], several)  # a usage error: before any file
        if args.svg == "-" and (args.count or args.json):
            raise PuzzleError("--svg - writes the picture where --count and --json write; "
                              "give --svg a file name")
    _compile_ahead(*(count_kernels(args.limit) if args.count else
                     kakuro_kernels(args.limit, args.order)),
                   *(("search",) if args.count and args.svg else ()))

    def one(i, path):
        puzzle = _load(path, args.format)
        name = _name(path)

        def draw(first, n=1):                        # --svg: the first of n solutions, or None
            if first is None:
                _say(f"{path}: no solution; the picture shows the puzzle unsolved")
            elif n > 1:
                _say(f"{path}: the picture shows the first of "
                     f"{'at least ' if n == args.limit else ''}{_plural(n, 'solution')}")
            _write(_out_path(args.svg, path, several), svg(puzzle, first, title=name))

        if args.count:
            n = _counting(puzzle, args.limit, args.timeout, args.scheduler)
            capped = args.limit is not None and n == args.limit
            if args.json:
                _json({"file": path, "name": name, "count": n, "at_least": capped,
                       "exit": EXIT_OK})
            else:
                print(f"{name}: {'at least ' if capped else ''}{_plural(n, 'solution')}")
            if args.svg:
                draw(kakuro(puzzle, limit=1, timeout=args.timeout)[0] if n else None, n)
            return EXIT_OK
        sols = _solutions(puzzle, path, args)
        if args.json:
            _json({"file": path, "name": name, "count": len(sols),
                   "limit_reached": args.limit is not None and len(sols) == args.limit,
                   "solutions": sols.tolist(), "exit": EXIT_OK})
        elif args.svg == "-":                        # the picture is the output
            pass
        elif several:
            capped = args.limit is not None and len(sols) == args.limit
            print(("\n" if i else "") + f"== {name}: {_plural(len(sols), 'solution')}"
                  + (" (limit reached)" if capped else ""))
        elif len(sols) == 0:
            print("no solution")
        if args.to and args.svg != "-":              # a stream ``formats.read_all`` splits
            for text in write_all(puzzle, args.to, sols):
                sys.stdout.write(text)
        for k, s in enumerate(sols if args.svg != "-" and not args.json and not args.to else (), 1):
            if len(sols) > 1:                        # apart, and labelled
                print(("\n" if k > 1 else "") + f"solution {k:,} of {len(sols):,}")
            print(boxed(puzzle, s, clue=backslash_clue))
        if args.svg:
            draw(sols[0] if len(sols) else None, len(sols))
        return EXIT_OK

    if not args.scheduler:
        return _each(args, args.files, one)
    from .dist import connected
    with connected(args.scheduler) as client:          # one connection for every file
        args.scheduler = client
        return _each(args, args.files, one)


def cmd_reduce(args) -> int:
    from .render import pencil
    from .solve import reduce
    from .drawing import svg
    several = len(args.files) > 1
    if args.svg:
        _out_path(args.svg, args.files[0], several)  # a usage error: before any file

    def one(i, path):
        r = reduce(_load(path, args.format), timeout=args.timeout)
        if several:
            print(("\n" if i else "") + f"== {_name(path)}")
        if args.svg != "-":
            print(pencil(r.puzzle, r.candidates, r.digits))
            print(f"status: {r.status}" + (f": {r.reason}" if r.reason else ""))
        if args.svg:
            _write(_out_path(args.svg, path, several),
                   svg(r.puzzle, r.digits, r.candidates, title=_name(path)))
        return EXIT_OK

    return _each(args, args.files, one)


def _cells(cells) -> str:
    """Cells as text: ``(1, 2) (1, 3)``."""
    return " ".join(f"({r}, {c})" for r, c in cells)


def cmd_check(args) -> int:
    from .checking import check
    from .generator import differences
    from .solve import kakuro, reduce
    _compile_ahead("hunt", "readback")              # what "none, one, or two?" runs first

    def one(i, path):
        puzzle = _load(path, args.format)
        if puzzle.given.any():                      # a player's digits: check them
            found = check(puzzle, limit=args.limit or CHECK_CAP, timeout=args.timeout)
            n = found.consistent
            code = EXIT_NONE if n == 0 else EXIT_OK if n == 1 else EXIT_MULTIPLE
            if args.json:
                _json({"file": path, "name": _name(path), "wrong": [list(c) for c in found.wrong],
                       "wrong_digits": list(found.wrong_digits), "consistent": n,
                       "at_least": n == (args.limit or CHECK_CAP), "exit": code})
            else:
                print(f"{_name(path)}: {found}")
            return code
        n, limit, two = _check_count(puzzle, args.limit, args.timeout)
        reason = ""
        if n == 0:
            reason = reduce(puzzle, timeout=args.timeout).reason
            verdict = f"none ({reason or 'every way to go on from the forced moves fails'})"
            code = EXIT_NONE
        elif n == 1:
            verdict, code = "unique", EXIT_OK
        else:
            many = f"at least {n:,}" if n == limit else f"{n:,}"
            if two is None:
                two = kakuro(puzzle, limit=2, order="any", timeout=args.timeout)
            diff = differences(puzzle, two)
            verdict, code = (f"multiple ({many} solutions; two differ at "
                             f"{_cells(diff)})"), EXIT_MULTIPLE
        if args.json:
            _json({"file": path, "name": _name(path), "verdict": verdict.split(" ")[0],
                   "solutions": n, "at_least": n == limit, "exit": code,
                   **({"reason": reason} if n == 0 else {}),
                   **({"differences": diff.tolist()} if n > 1 else {})})
        else:
            print(f"{_name(path)}: {verdict}")
        return code

    return _each(args, args.files, one)


def _check_count(puzzle, limit, timeout) -> tuple:
    """``(n, limit, two)``: the solutions ``check`` counts, at most ``limit``, and two of them
    when it found them (else None). Without a limit, "none, one, or two or more" first, by
    two solutions in any order (``kakuro(limit=2, order="any")``: fewer are all there
    are), then, for at most CHECK_MORE_S, a count up to CHECK_CAP; ``limit`` is then the
    count that was reached (``n == limit``: at least ``n``)."""
    from .solve import kakuro
    if limit is not None:
        return _counting(puzzle, limit, timeout), limit, None
    two = kakuro(puzzle, limit=2, order="any", timeout=timeout)
    if len(two) < 2:
        return len(two), 2, two
    try:
        return _counting(puzzle, CHECK_CAP, CHECK_MORE_S if timeout is None else
                         min(timeout, CHECK_MORE_S)), CHECK_CAP, two
    except SolveTimeout:                            # a big grid: "two or more" it is
        return 2, 2, two


def cmd_explain(args) -> int:
    from .engine.core.jit import deadline_ns
    from .explanation import explain
    _compile_ahead("climb")
    puzzle = _load(args.file, args.format)
    deadline = deadline_ns(args.timeout)
    steps = explain(puzzle, max_steps=args.max_steps, timeout=args.timeout)
    print(steps)
    if args.svg_steps:
        _svg_steps(puzzle, steps, args.svg_steps, _name(args.file), deadline)
    return EXIT_NONE if steps.status == "contradiction" else EXIT_OK


def _svg_steps(puzzle, steps, folder: str, name: str, deadline=None) -> None:
    """One picture per step in ``folder``: the candidates before it, its cells
    highlighted, the candidates it removes struck out, the digits it places in green;
    SolveTimeout once ``deadline`` (monotonic ns, None: never) has passed."""
    from .checking import _left
    from .engine.core.jit import NO_DEADLINE
    from .explanation import replay
    from .drawing import step_svg
    deadline = NO_DEADLINE if deadline is None else deadline
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise PuzzleError(f"cannot make folder: {e.strerror}", source=folder) from None
    before = steps.start
    width = len(str(len(steps)))
    for i, step in enumerate(steps, 1):
        _left(deadline, "drawing the steps")
        _write(os.path.join(folder, f"step-{i:0{width}d}.svg"),
               step_svg(puzzle, step, before, title=f"{name} step {i}: {step}"))
        before = replay(before, [step])


def cmd_hint(args) -> int:
    from .checking import _left
    from .engine.core.jit import deadline_ns
    from .explanation import explain, hint
    _compile_ahead("climb")
    puzzle = _load(args.file, args.format)
    deadline = deadline_ns(args.timeout)
    first = hint(puzzle, timeout=args.timeout)
    if first is not None and first.technique == "no solution":
        print(first)
        return EXIT_NONE
    if first is not None and (first.technique == "mistake" or not args.place):
        print(first)
        return EXIT_OK
    steps = explain(puzzle, timeout=_left(deadline, "giving a hint"))
    if first is not None:                       # --place: up to the next digit placed
        upto = next((i for i, step in enumerate(steps) if step.placed), len(steps) - 1)
        for step in steps[:upto + 1]:
            print(step)
    elif steps.status == "contradiction":
        print(f"no step: {steps.reason}")
    else:
        print("solved" if steps.status == "solved" else
              "no step: logic goes no further here; a fan-out (guess) is needed")
    return EXIT_OK


def cmd_grade(args) -> int:
    from .grading import grade
    _compile_ahead("climb", "fanouts")

    def one(i, path):
        g = grade(_load(path, args.format), timeout=args.timeout)
        print(f"{_name(path)}: {g}")
        return EXIT_OK if g.unique else EXIT_NONE if g.solutions == 0 else EXIT_MULTIPLE

    return _each(args, args.files, one)


def cmd_stats(args) -> int:
    from .budget import power_of_ten
    from .search_space import stats

    def sci(n: int) -> str:                     # exact ints past a float: 9 ** 1763
        return power_of_ten(math.log10(n), 3)

    def one(i, path):
        s = stats(_load(path, args.format), timeout=args.timeout)
        u2 = sci(s["U2"]) if s["U2"] else "0 (a cell has no candidate)"
        print(("\n" if i else "") + f"{_name(path)}: {s['white_cells']} white cells, "
              f"{s['entries']} entries")
        print(f"  U1 = 9^{s['white_cells']} = {sci(s['U1'])}")
        print(f"  U2 = product of |C_across & C_down| = {u2}")
        print(f"  after forced moves: {sci(s['after_forced'])}" if s["after_forced"] > 10 ** 6
              else f"  after forced moves: {s['after_forced']:,}")
        if args.entries:
            print("  entry  length  sum  combinations  permutations")
            for k, row in enumerate(zip(s["lengths"], s["sums"], s["combinations"],
                                        s["permutations"])):
                print(f"  {k:>5}  {row[0]:>6}  {row[1]:>3}  {row[2]:>12}  {row[3]:>12}")
        return EXIT_OK

    return _each(args, args.files, one)


def cmd_convert(args) -> int:
    """Write the puzzle in another format. Its work is bounded (at most ``MAX_TEXT`` bytes
    read, and written in time linear in them), so ``--timeout`` is looked at only once
    the puzzle is read and once its text is made, before anything is written."""
    from . import formats
    from .checking import _left
    from .engine.core.jit import deadline_ns
    deadline = deadline_ns(args.timeout)
    puzzle = _load(args.file, args.format)
    _left(deadline, "reading the puzzle")
    if args.style and args.to != "backslash":
        raise PuzzleError(f"--style is a look of --to backslash, not of {args.to}")
    text = formats.format(puzzle, args.to, style=args.style)
    _left(deadline, "converting the puzzle")
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_render(args) -> int:
    from .generator import differences
    from .solve import kakuro, reduce
    from .drawing import svg
    puzzle = _load(args.file, args.format)
    digits = candidates = None
    if args.solution:
        sols = kakuro(puzzle, limit=2, timeout=args.timeout)
        if not len(sols):
            raise PuzzleError("the puzzle has no solution to draw", source=args.file)
        if len(sols) > 1:
            _say(f"{args.file}: the puzzle has several solutions; drawing the first")
        digits = sols[0]
    if args.candidates:
        r = reduce(puzzle, timeout=args.timeout)
        candidates = r.candidates
        digits = r.digits if digits is None else digits
    highlight = None
    if args.differences:                # where two solutions differ (none: unique)
        highlight = differences(puzzle, kakuro(puzzle, limit=2, order="any",
                                               timeout=args.timeout))
    _write(args.svg, svg(puzzle, digits, candidates, cell=args.cell, title=_name(args.file),
                         highlight=highlight))
    return EXIT_OK


def cmd_generate(args) -> int:
    import numpy as np

    from . import formats
    from .checking import _left
    from .engine.core.jit import deadline_ns
    from .generator import generate
    from .grading import grade
    from .render import boxed
    from .drawing import svg
    from .tokens import backslash_clue
    layout = None
    if args.layout is not None:
        from .layout import read_layout
        if args.rows is not None:
            raise PuzzleError("--layout gives the grid's size: leave ROWS and COLS out")
        layout = read_layout(_source(args.layout))      # generate checks its rules
        args.rows, args.cols = layout.shape
    elif args.cols is None:
        raise PuzzleError("give ROWS and COLS, or --layout FILE")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    for d in (args.out, args.svg):
        if d:
            try:
                os.makedirs(d, exist_ok=True)
            except OSError as e:
                raise PuzzleError(f"cannot make the folder: {e.strerror}", source=d) from None
    shown = bar(args.count) if args.count > 1 else None
    for i in range(args.count):
        deadline = deadline_ns(args.timeout)         # --timeout is a puzzle's, all told
        puzzle = generate(None if layout is not None else args.rows,
                          None if layout is not None else args.cols, layout=layout,
                          density=args.density, symmetry=args.symmetry, min_run=args.min_run,
                          seed=[seed, i], grade=args.grade, timeout=args.timeout)
        if i == 0 and args.seed is None:         # once the arguments made a puzzle
            _say(f"seed {seed}")
        name = f"kakuro-{args.rows}x{args.cols}-{seed}-{i + 1}"
        text = formats.format(puzzle, args.to or "pipe")
        if args.out:
            from .solve import kakuro
            _write(os.path.join(args.out, f"{name}.{'json' if args.to == 'json' else 'txt'}"), text)
            _write(os.path.join(args.out, f"{name}-solution.txt"),
                   boxed(puzzle, kakuro(puzzle, limit=1,
                                        timeout=_left(deadline, "solving the puzzle"))[0])
                   + "\n")
        else:
            boxes = not args.to and sys.stdout.isatty()   # a person reads it: boxed
            sys.stdout.write(("\n" if i else "") + (boxed(puzzle, clue=backslash_clue) + "\n"
                                                    if boxes else text))
        if args.svg:
            g = grade(puzzle, timeout=_left(deadline, "grading"))
            _write(os.path.join(args.svg, f"{name}.svg"),
                   svg(puzzle, title=f"{name}: {g.label} ({g.score:.1f})"))
        if shown:
            shown.update()
    if shown:
        shown.close()
    return EXIT_OK


def cmd_book(args) -> int:
    """A print-ready PDF of new puzzles (``--size``, ``--count``, ``--grades``) or of FILES,
    each proved unique; ``--out`` is checked writable first and written whole at the end."""
    from . import printing
    if args.files and (args.size or args.grades or args.seed is not None or args.count):
        raise PuzzleError("give FILES or --size (with --count, --grades, --seed), not both")
    if not args.files and not args.size:
        raise PuzzleError("give FILES, or --size ROWSxCOLS to make new puzzles")
    printing.writable(args.out)
    _compile_ahead("climb", "fanouts")                  # grading, on an empty cache
    shown = None
    if args.files:
        found = []
        for path in args.files:
            many = printing.collection(path)
            found += many if many is not None else [(path, _load(path, args.format))]
        names, puzzles = [n for n, _ in found], [p for _, p in found]
    else:
        size, count = printing.size_of(args.size), args.count or 1
        grades = printing.grades_of(args.grades) if args.grades else None
        per_page = args.per_page or printing.per_page_for([size], args.paper)
        printing.fits(size, args.paper, per_page)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big") >> 1
        shown = bar(count)
        puzzles = printing.generated(count, size, grades, seed, args.timeout,
                                     step=shown.update if shown else None)
        if args.seed is None:
            _say(f"seed {seed}")
        names = [f"puzzle {i + 1}" for i in range(count)]
    try:
        entries = printing.prepared(puzzles, names, args.timeout)
    finally:
        if shown:
            shown.close()
    if not entries:
        raise PuzzleError("no puzzles to print")
    data = printing.pdf_bytes(entries, title=args.title, subtitle=args.subtitle or "",
                              paper=args.paper, per_page=args.per_page)
    printing.write_pdf(args.out, data)
    print(f"{args.out}: {_plural(len(entries), 'puzzle')} ({printing.grade_counts(entries)}), "
          f"{_plural(printing.page_count(entries, args.paper, args.per_page), 'page')}")
    return EXIT_OK


def cmd_batch(args) -> int:
    if args.out not in (None, "-"):                  # a device or FIFO: before anything loads
        output_path(args.out, "; give --out a results file or a new path, or omit it to "
                                "write the results to stdout")
    from .batch import run_batch
    shown = _Bar(" puzzles")
    try:
        tally = run_batch(args.input, args.out, workers=args.workers, limit=args.limit,
                          timeout=args.timeout, keep=args.keep,
                          step=lambda result, done, total: shown.step(total),
                          scheduler=args.scheduler)
    finally:
        shown.close()
    skipped = tally.pop("skipped")
    if not tally and not skipped:
        raise PuzzleError("no puzzles in it", source=args.input)
    _say(f"{'stdout' if args.out in (None, '-') else args.out}: {batch_tally(tally)}"
         + (f"; {skipped:,} already there" if skipped else ""))
    return EXIT_OK


def batch_tally(tally: dict) -> str:
    """What a batch did, from its count of each status: the puzzles solved (and how),
    apart from those that failed.

    >>> batch_tally({"unique": 14, "multiple": 1, "error": 1, "timeout": 1})
    '15 puzzles solved (14 unique, 1 multiple); 1 error, 1 timeout'
    """
    answered = ("unique", "multiple", "none")
    solved = [f"{tally[s]:,} {s}" for s in answered if tally.get(s)]
    said = f"{_plural(sum(tally.get(s, 0) for s in answered), 'puzzle')} solved"
    if solved:
        said += " (" + ", ".join(solved) + ")"
    failed = [f"{tally[s]:,} {s}" for s in ("error", "timeout") if tally.get(s)]
    return said + ("; " + ", ".join(failed) if failed else "")


def _on_dask(p, what: str) -> None:
    """``--scheduler ADDRESS`` and ``--dask local`` (both set ``args.scheduler``)."""
    on = p.add_mutually_exclusive_group()
    on.add_argument("--scheduler", metavar="ADDRESS",
                    help=what + "; needs kakuro_np[dist] here and on every worker")
    on.add_argument("--dask", dest="scheduler", choices=["local"],
                    help="the same on a Dask LocalCluster of this machine, one worker process "
                         "a core")


def cmd_play(args) -> int:
    from . import formats
    from .play.game import Game
    from .play.server import serve
    game = Game()                                        # create mode
    if args.file is not None:
        game = Game(_load(args.file, args.format), _name(args.file) + ".txt")
        if args.file != "-" and isinstance(_source(args.file), pathlib.Path):
            with open(args.file, "rb") as f:             # a pipe file keeps marks and time
                text = f.read(formats.MAX_TEXT + 1).decode("utf-8", "replace")
            if (args.format or formats.detect(text)) == "pipe":
                game.load({"text": text, "name": _name(args.file) + ".txt"})
    if args.book is not None:                            # checked before serving
        from .printing import writable
        writable(args.book)
        game.book = args.book
    try:
        serve(game, args.port, open_browser=not args.no_browser, verbose=args.verbose)
    except OSError as e:
        raise Refusal(f"cannot serve on 127.0.0.1:{args.port}: {e.strerror or e}",
                      EXIT_BAD_INPUT) from None
    return EXIT_OK


def cmd_compile(args) -> int:
    """Fill the kernel cache: every kernel the solver, counts, checks and explanations may
    need, a helper process per job, a line (or a bar on a terminal) as each ends."""
    ahead = _every_group()
    from .dist import cores
    jobs = args.jobs or cores()
    shown = _Bar(" kernel groups")

    def said(name, seconds, done, total):
        if not shown.step(total):
            print(f"kakuro-np: compiled {name} ({done}/{total}, {seconds:.1f} s)",
                  file=sys.stderr, flush=True)

    try:
        seconds = ahead.compile_all(jobs, said)
    except RuntimeError as e:
        raise Refusal(str(e), EXIT_INTERNAL) from None
    finally:
        shown.close()
    from .engine.core.jit import USER_CACHE
    print(f"kernels compiled and cached in {seconds:.1f} s"
          + (f" ({USER_CACHE})" if USER_CACHE else ""))
    return EXIT_OK


def cmd_kc(args) -> int:
    from .combos import kc
    lengths = [args.length] if args.length is not None else range(1, 10)
    for length in lengths:
        table = kc(args.total, length)
        if args.length is None and not len(table):
            continue
        print(f"{args.total} in {length}: " + (
            "  ".join("".join(map(str, row)) for row in table) if len(table) else "none"))
    return EXIT_OK


# -- the parser ---------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


def _whole(low: int, high: int | None = None):
    """An argparse type: a whole number from ``low`` (to ``high``)."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}: {value}")
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}: {value}")
        return value
    return whole


_nonnegative, _positive = _whole(0), _whole(1)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {text}")
    return value


def _paper(text: str) -> str:
    """An argparse type: a paper's name, in any case (``printing.PAPERS``)."""
    from .printing import PAPERS
    names = {name.lower(): name for name in PAPERS}
    if text.lower() not in names:
        raise argparse.ArgumentTypeError(f"one of {', '.join(PAPERS)}: {text!r}")
    return names[text.lower()]


def _common(p, files="one"):
    """Arguments every puzzle-reading subcommand shares."""
    from . import formats
    if files == "many":
        p.add_argument("files", nargs="+", metavar="FILE", help="puzzle files ('-' reads stdin)")
    else:
        p.add_argument("file", metavar="FILE", help="a puzzle file ('-' reads stdin)")
    p.add_argument("--format", choices=formats.FORMATS, help="the input format (default: detect)")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="give up after this long (exit 124)")


def _version() -> str:
    """The installed version (importlib.metadata), else the package's ``__version__``."""
    try:
        from importlib.metadata import version
        return version("kakuro_np")
    except Exception:                               # not installed: run from a checkout
        from . import __version__
        return __version__


def build_parser() -> argparse.ArgumentParser:
    from . import formats
    parser = _Parser(
        prog="kakuro-np",
        description="Solve Kakuro (cross sums) puzzles: every solution, forced moves, "
                    "combinations, conversions and pictures.",
        epilog="Formats: " + ", ".join(formats.FORMATS) + ". Exit status: 0 ok, 1 internal "
               "error, 2 bad input or an output that cannot be written (a full disk too), "
               "3 from check and grade (several solutions), 4 from check, grade, hint and "
               "explain (none), 5 too many solutions to print, 124 timeout, 130 interrupted, 143 "
               "batch terminated; with several files, the highest of any file's (a bad "
               "file is reported and the others still run).")
    parser.add_argument("--version", action="version", version=f"kakuro-np {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_Parser)

    p = sub.add_parser("solve", help="print every solution of each puzzle file",
                       description="Print every solution of each puzzle, boxed as in the essay.")
    _common(p, files="many")
    p.add_argument("--limit", type=_positive, metavar="N",
                   help="stop after N solutions (without it, a puzzle with too many solutions "
                        "to print exits 5, saying how many)")
    p.add_argument("--count", action="store_true", help="print only how many solutions")
    p.add_argument("--force", action="store_true",
                   help=f"print every solution even past {MAX_OUTPUT / 10 ** 6:g} MB of output "
                        f"(without it or --limit, such a puzzle exits 5 before printing)")
    p.add_argument("--any", dest="order", action="store_const", const="any", default="essay",
                   help="with --limit N (at most 1000): any N solutions, as fast as a hunt in "
                        "any order finds them, rather than the first N in the essay's order")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--to", choices=formats.FORMATS, metavar="FORMAT",
                     help="print solutions in this text format instead of boxes")
    how.add_argument("--json", action="store_true",
                     help="print one JSON object a file: file, name, count, limit_reached "
                          "and solutions (rows of digits, 0 off the blanks); with --count, "
                          "count and at_least; a file that fails, its error and exit status")
    p.add_argument("--svg", metavar="PATH",
                   help="also draw the first solution as SVG, with --count too (a puzzle "
                        "with none is drawn unsolved, saying so; {name} stands for the file; "
                        "'-' writes it to stdout in place of the solutions)")
    _on_dask(p, "split each puzzle's search into subproblems, a task each, on the Dask "
                "cluster whose scheduler is at ADDRESS (like tcp://host:8786); the "
                "solutions and counts are the same")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("reduce", help="apply forced moves only",
                       description="Apply forced moves only; print the digits they force, "
                                   "pencil marks elsewhere, and the status.")
    _common(p, files="many")
    p.add_argument("--svg", metavar="PATH",
                   help="also draw the result as SVG ({name} stands for the file; '-' writes "
                        "it to stdout in place of the text)")
    p.set_defaults(run=cmd_reduce)

    p = sub.add_parser("check", help="is each puzzle unique? (exit 0 unique, 3 multiple, 4 none)",
                       description="Check that each puzzle is well formed and count its "
                                   "solutions: unique (exit 0), multiple (3) or none (4). "
                                   "A puzzle with digits placed (a player's) has them checked "
                                   "against every solution: the wrong ones are named, and the "
                                   "exit status counts the solutions that agree with them all.")
    _common(p, files="many")
    p.add_argument("--limit", type=_positive, default=None, metavar="N",
                   help=f"count at most N solutions (default: up to {CHECK_CAP} for at most "
                        f"{CHECK_MORE_S:g} s past the second)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object a file: file, name, verdict (unique, multiple "
                        "or none), solutions, at_least, exit and, for none, reason; for a "
                        "player's digits wrong, wrong_digits and consistent instead of "
                        "verdict; a file that fails, its error and exit status")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("explain", help="solve by logic, step by step, saying why",
                       description="Solve a puzzle by logic alone, as numbered steps a person "
                                   "would take, each with its technique and reason.")
    _common(p)
    p.add_argument("--max-steps", type=_nonnegative, metavar="N", help="stop after N steps")
    p.add_argument("--svg-steps", metavar="DIR",
                   help="also draw each step as DIR/step-N.svg (cells highlighted, "
                        "removed candidates struck out)")
    p.set_defaults(run=cmd_explain)

    p = sub.add_parser("hint", help="the next logical step from the digits placed",
                       description="Print the next logical step from the current state "
                                   "(given digits included), or say a digit placed is wrong.")
    _common(p)
    p.add_argument("--place", action="store_true",
                   help="print the steps up to the next digit placed")
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("grade", help="how hard each puzzle is, one line each",
                       description="Grade each puzzle: easy, medium, hard or expert, with a "
                                   "score 0-100 from the techniques and fan-outs it needs.")
    _common(p, files="many")
    p.set_defaults(run=cmd_grade)

    p = sub.add_parser("stats", help="the search-space figures of Davies et al.",
                       description="White cells, U1 = 9^w, U2 (the product of each cell's "
                                   "across and down candidate counts) and per-entry "
                                   "combinations and permutations.")
    _common(p, files="many")
    p.add_argument("--entries", action="store_true",
                   help="also list each entry's combinations and permutations")
    p.set_defaults(run=cmd_stats)

    p = sub.add_parser("convert", help="write a puzzle in another format",
                       description="Write a puzzle in another text format.")
    _common(p)
    p.add_argument("--to", choices=formats.FORMATS, required=True, metavar="FORMAT",
                   help="one of: " + ", ".join(formats.FORMATS))
    p.add_argument("--style", choices=("kuroro", "underscores"),
                   help="with --to backslash: kuroro (the default: a ROWS COLS TAB header, "
                        "tabs, x blank) or underscores (no header, aligned columns, blanks "
                        "as runs of _, as other solvers' .kakuro files)")
    p.add_argument("-o", "--output", metavar="PATH", help="write to a file (default stdout)")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser("render", help="draw a puzzle as SVG",
                       description="Draw a puzzle as SVG, optionally solved or with candidates.")
    _common(p)
    p.add_argument("--svg", metavar="OUT", required=True,
                   help="the SVG file to write ('-' for stdout)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--solution", action="store_true",
                      help="draw the solution (the first, saying so, if there are several)")
    what.add_argument("--candidates", action="store_true",
                      help="draw forced digits and pencil-mark candidates")
    p.add_argument("--cell", type=_positive, default=40, metavar="PX",
                   help="cell size in pixels (default 40)")
    p.add_argument("--differences", action="store_true",
                   help="highlight the cells where two solutions differ (a writer's check; "
                        "none when the puzzle is unique)")
    p.set_defaults(run=cmd_render)

    p = sub.add_parser("batch", help="solve a whole collection across every core, resumably",
                       description="Solve every puzzle of INPUT (a directory, a glob, a "
                                   "JSON-lines file, a collection JSON {\"data\": {id: "
                                   "{\"problem\": TEXT}}} or one file) and append one JSON "
                                   "line per puzzle to --out, in input order: id, size, count, "
                                   "status (unique, multiple, none, timeout, error), solutions "
                                   "(comma format), seconds and error. Ids already in --out are "
                                   "skipped, so a killed batch goes on where it stopped; a bad "
                                   "puzzle records its error and the batch goes on. Killed or "
                                   "stopped (Ctrl-C, SIGTERM), it ends its worker processes.")
    p.add_argument("input", metavar="INPUT", help="the puzzles (see above)")
    p.add_argument("--out", metavar="RESULTS.jsonl",
                   help="the results file, appended to: a regular file or a new path (a "
                        "file holding anything but batch results is refused and left as it "
                        "is; /dev/null discards); without it, or with -, the lines go to "
                        "stdout and nothing is skipped")
    p.add_argument("--workers", type=_positive, metavar="N",
                   help="processes at once (default: every core)")
    p.add_argument("--limit", type=_positive, metavar="N",
                   help="count at most N solutions a puzzle (default: exact counts)")
    p.add_argument("--keep", type=_nonnegative, metavar="K",
                   help="solutions written a puzzle (default: --limit, or 2 without it)")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="seconds a puzzle; past them its status is timeout")
    _on_dask(p, "run the batch on the Dask cluster whose scheduler is at ADDRESS (like "
                "tcp://host:8786), a task a puzzle")
    p.set_defaults(run=cmd_batch)

    p = sub.add_parser("generate", help="make new puzzles, each with one solution",
                       description="Make new puzzles, each proved to have exactly one "
                                   "solution, with the look of published grids. Without "
                                   "--out, each puzzle is printed, a blank line between.")
    p.add_argument("rows", type=_whole(3, 200), metavar="ROWS", nargs="?",
                   help="rows, the clue row included")
    p.add_argument("cols", type=_whole(3, 200), metavar="COLS", nargs="?",
                   help="columns, the clue column included")
    p.add_argument("--layout", metavar="FILE",
                   help="fill a writer's own pattern instead: any puzzle file (its pattern "
                        "is kept, its sums ignored) or a picture of lines of # (black) and "
                        ". (to fill), the clue row and column included")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="seconds a puzzle; past them the command stops (exit 124)")
    p.add_argument("--count", type=_positive, default=1, metavar="N",
                   help="how many puzzles (default 1; a progress bar on a terminal)")
    p.add_argument("--seed", type=_whole(0, 2**63 - 1), metavar="S",
                   help="the same seed gives the same puzzles (default: a random one, "
                        "printed on stderr)")
    p.add_argument("--density", type=float, metavar="D",
                   help="share of blank cells inside the clue row and column (default 0.7, "
                        "as published grids); blocks that make it unique lower it by 0.05 "
                        "at most")
    p.add_argument("--symmetry", choices=("rotational", "mirror", "none"),
                   default="rotational", help="the layout's symmetry (default rotational)")
    p.add_argument("--min-run", type=_whole(1, 2), default=2, metavar="N",
                   help="the shortest run, 2 or 1 (default 2)")
    p.add_argument("--grade", choices=GRADE_LABELS, metavar="G",
                   help="the grade each puzzle gets from `kakuro-np grade`: "
                        + ", ".join(GRADE_LABELS))
    p.add_argument("--to", choices=formats.FORMATS, metavar="FORMAT",
                   help="the format to write: " + ", ".join(formats.FORMATS) + " (default: "
                        "boxed text on a terminal, else pipe, which every command reads)")
    p.add_argument("--out", metavar="DIR",
                   help="write each puzzle to DIR/NAME.EXT and its solution to "
                        "DIR/NAME-solution.txt")
    p.add_argument("--svg", metavar="DIR", help="draw each puzzle to DIR/NAME.svg")
    p.set_defaults(run=cmd_generate)

    p = sub.add_parser("book", help="a print-ready PDF book of puzzles, solutions at the back",
                       description="Write a PDF to print: a title page, the puzzles in order "
                                   "of grade under a heading each (number, grade, size), the "
                                   "solutions at the back, smaller, page numbers; vector "
                                   "drawing, the font embedded. New puzzles (--size, --count, "
                                   "--grades, --seed: the same seed gives the same bytes) or "
                                   "FILES (any format, a folder, a batch results file), each "
                                   "checked to have one solution. Needs kakuro_np[print].")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="puzzles to print: files, folders, globs, JSON lines, batch results")
    p.add_argument("--out", required=True, metavar="BOOK.pdf",
                   help="the PDF to write (whole, or nothing: a failure leaves no file)")
    p.add_argument("--size", metavar="ROWSxCOLS",
                   help="make new puzzles of this size, the clue row and column included")
    p.add_argument("--count", type=_positive, metavar="N",
                   help="how many new puzzles (default 1)")
    p.add_argument("--grades", metavar="G,G...",
                   help="their grades, in blocks of equal size: some of "
                        + ", ".join(GRADE_LABELS) + " (default: any)")
    p.add_argument("--seed", type=_whole(0, 2**63 - 1), metavar="S",
                   help="the same seed gives the same book (default: a random one, printed "
                        "on stderr)")
    p.add_argument("--title", default="Kakuro", help="the title page's title (default Kakuro)")
    p.add_argument("--subtitle", help="a line under the title")
    p.add_argument("--paper", type=_paper, default="A4", metavar="A4|Letter",
                   help="the page size (default A4)")
    p.add_argument("--per-page", type=int, choices=(1, 2, 4, 6), metavar="1|2|4|6",
                   help="puzzles a page (default: the most of 4, 2, 1 at which they fit)")
    p.add_argument("--format", choices=formats.FORMATS, help="the input format (default: detect)")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="seconds a puzzle (to make, check and grade it); past them exit 124")
    p.set_defaults(run=cmd_book)

    p = sub.add_parser("play", help="play or create puzzles in the browser",
                       description="Serve a page on 127.0.0.1 to solve a puzzle by hand (pencil "
                                   "marks, check, hint, undo, a timer) or to create one, and "
                                   "open it in the browser. Without FILE, create mode.")
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="a puzzle file or a puzz.link URL (a pipe file keeps marks and time)")
    p.add_argument("--format", choices=formats.FORMATS, help="the input format (default: detect)")
    p.add_argument("--port", type=_whole(0, 65535), default=0, metavar="N",
                   help="the port (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="serve without opening a browser")
    p.add_argument("--verbose", action="store_true", help="log each request on stderr")
    p.add_argument("--book", metavar="BOOK.pdf",
                   help="Add to book puts the puzzle on the board in this PDF (kept beside "
                        "it in BOOK.jsonl; kakuro-np book's pages, needs kakuro_np[print])")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("compile", help="compile every kernel into the cache, once",
                       description="Compile the solver's kernels into numba's cache now, so "
                                   "that no later command compiles (a first run otherwise "
                                   "compiles what it needs, and counts that in --timeout). "
                                   "Prints the time it took.")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="kernels compiled at once, a process each (default: every core)")
    p.set_defaults(run=cmd_compile)

    p = sub.add_parser("kc", help="the combinations of distinct digits for a clue",
                       description="Every set of distinct digits 1-9 with the given total.")
    p.add_argument("total", type=_whole(1, 45), metavar="TOTAL", help="the clue, 1 to 45")
    p.add_argument("length", type=_whole(1, 9), nargs="?", metavar="LENGTH",
                   help="how many cells, 1 to 9 (default: every length)")
    p.set_defaults(run=cmd_kc)
    return parser


def _run(args) -> int:
    """Run a subcommand, turning every expected failure into an exit status."""
    try:
        return args.run(args)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:
        return _failure(e, args)


def _interrupted(signum=None, frame=None) -> None:
    """Ctrl-C: one line on stderr and exit 130 at once, whatever is running (a batch's
    workers and compiling helpers are ended first, ``_stop_helpers``)."""
    _stop_helpers()
    try:
        sys.stdout.flush()
    except Exception:                                # the reader left, or a write was cut
        pass
    os.write(2, b"kakuro-np: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


def _terminated(signum=None, frame=None) -> None:
    """SIGTERM to ``batch`` (a job scheduler's stop): its workers ended, one line on stderr
    and exit 143; the results file keeps whole lines, for the next run to go on from."""
    _stop_helpers()
    os.write(2, b"kakuro-np: terminated\n")
    os._exit(EXIT_TERMINATED)


def _stop_helpers() -> None:
    """Leave no process behind: a batch under way lets its line being written end and
    kills its workers (``batch.stop``), and the helpers compiling kernels ahead are
    killed (``ahead.stop_all``); nothing to do for modules not loaded. A signal may come
    while the work's thread is still importing one of them: a module not run as far as
    its ``stop`` has started nothing to stop, and a handler must not raise."""
    for module, stop in (("batch", "stop"), ("engine.core.ahead", "stop_all")):
        stop = getattr(sys.modules.get(f"{__package__}.{module}"), stop, None)
        if stop is not None:
            stop()


def main(argv=None) -> int:
    """Run the command line; returns the exit status.

    The work runs in a thread (the kernels release the GIL), so Ctrl-C is seen
    at once: it prints one line and exits 130 without waiting for the kernel.
    Run as the program (no ``argv``), it asks OpenBLAS for one thread, since
    nothing here calls BLAS and starting a thread per core slows every start, and
    it ends the process itself once its output is flushed, skipping the
    interpreter's slow teardown of numba.
    """
    if argv is None:
        _as_the_program()
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # no command: the help, not an error
        parser.print_help()
        return EXIT_OK
    args = parser.parse_args(argv)
    if argv is None and args.command == "batch":
        signal.signal(signal.SIGTERM, _terminated)
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.setdefault("code", _run(args)), daemon=True)
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        sys.stderr.flush()
        _interrupted()
    code = outcome.get("code", EXIT_INTERNAL)        # the work's thread died past _run
    if argv is None:
        _exit(code)
    return code


def _as_the_program() -> None:
    """Run as the program: Ctrl-C is ``_interrupted``, set before numpy loads, not after;
    OpenBLAS gets one thread (read when numpy loads). A process forked from this one (a
    batch's worker) ignores Ctrl-C from its first instruction: the terminal sends it to
    the whole process group, and it is this process's to handle (a worker still running
    the handler it was forked with would print its own "interrupted")."""
    signal.signal(signal.SIGINT, _interrupted)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.register_at_fork(after_in_child=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))


def _exit(code: int) -> None:
    """Flush the output and end the process with ``code``, without the interpreter's teardown
    (and so without its ``atexit``: the helpers still compiling are killed here)."""
    _stop_helpers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):                 # the reader left, the disk is full, or closed
            pass
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
