"""The ``kakuro-np`` command line.

Every error in the input exits 2 with one line on stderr; Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from . import formats
from .combos import kc
from .errors import BudgetError, PuzzleError, TooManySolutions
from .render import boxed
from .solve import count, kakuro, reduce

EXIT_BAD_INPUT = 2


def _label(path: str) -> str:
    """A short name for a file in output headers: ``k3`` for ``puzzles/k3.txt``."""
    return "stdin" if path == "-" else os.path.splitext(os.path.basename(path))[0]


def _load(path: str):
    if path == "-":
        data = sys.stdin.buffer.read()
        try:
            return formats.parse(data)
        except PuzzleError as e:
            raise e.with_source("<stdin>") from None
    return formats.read(os.fspath(path))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def cmd_solve(args) -> int:
    for i, path in enumerate(args.files):
        puzzle = _load(path)
        name = _label(path)
        if args.count:
            print(f"{name}: {_plural(count(puzzle, limit=args.limit), 'solution')}")
            continue
        sols = kakuro(puzzle, limit=args.limit)
        if len(args.files) > 1:
            print(("\n" if i else "") + f"== {name}: {_plural(len(sols), 'solution')}"
                  + (" (limit reached)" if args.limit is not None and len(sols) == args.limit else ""))
        elif len(sols) == 0:
            print("no solution")
        for s in sols:
            print(boxed(puzzle, s))
    return 0


def cmd_reduce(args) -> int:
    r = reduce(_load(args.file))
    print(boxed(r.puzzle, r.digits))
    print(f"status: {r.status}")
    return 0


def cmd_kc(args) -> int:
    lengths = [args.length] if args.length is not None else range(1, 10)
    for length in lengths:
        table = kc(args.total, length)
        if args.length is None and not len(table):
            continue
        print(f"{args.total} in {length}: " + (
            "  ".join("".join(map(str, row)) for row in table) if len(table) else "none"))
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kakuro-np", description="Solve Kakuro (cross sums) puzzles: every solution.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_Parser)

    p = sub.add_parser("solve", help="print every solution of each puzzle file")
    p.add_argument("files", nargs="+", metavar="FILE", help="puzzle files ('-' reads stdin)")
    p.add_argument("--limit", type=_nonnegative, help="stop after N solutions")
    p.add_argument("--count", action="store_true", help="print only how many solutions")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("reduce", help="apply forced moves only and print the result")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=cmd_reduce)

    p = sub.add_parser("kc", help="the combinations of distinct digits for a clue")
    p.add_argument("total", type=int, metavar="TOTAL")
    p.add_argument("length", type=int, nargs="?", metavar="LENGTH")
    p.set_defaults(run=cmd_kc)
    return parser


def _nonnegative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {value}")
    return value


def main(argv=None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (PuzzleError, BudgetError, TooManySolutions, ValueError) as e:
        print(f"kakuro-np: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("kakuro-np: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
