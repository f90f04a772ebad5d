"""Coverage-guided fuzzing of the readers with atheris (not part of ``make test``).

Run for as long as you like, e.g. ten minutes::

    .venv/bin/python -m pip install atheris
    .venv/bin/python tests/fuzz/fuzz_parse.py -max_total_time=600 puzzles/

Any exception other than PuzzleError (and any crash or hang) is a finding.
"""

import sys


def main():
    import atheris

    with atheris.instrument_imports():
        import kakuro_np as kn

    def one_input(data: bytes):
        try:
            p = kn.parse(data)
        except kn.PuzzleError:
            return
        try:
            kn.count(p, limit=5, timeout=2)
        except (kn.PuzzleError, kn.SolveTimeout, kn.BudgetError):
            pass

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
