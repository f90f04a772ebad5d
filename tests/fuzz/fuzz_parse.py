"""Coverage-guided fuzzing of the readers with atheris (not part of ``make test``).

Run for as long as you like, e.g. ten minutes (libFuzzer adds new inputs to the
corpus folder, so give it a copy of the samples, not puzzles/ itself)::

    .venv/bin/python -m pip install atheris
    mkdir -p /tmp/kakuro-corpus && cp puzzles/*.txt /tmp/kakuro-corpus/
    .venv/bin/python tests/fuzz/fuzz_parse.py -max_total_time=600 /tmp/kakuro-corpus/

Only the pure-Python readers are instrumented (atheris's bytecode hooks would
break the numba kernels); what they accept is then counted by the solver. Any
exception other than PuzzleError, SolveTimeout or BudgetError (and any crash
or hang) is a finding.
"""

import inspect
import sys


def main():
    import atheris

    import kakuro_np as kn
    from kakuro_np import formats, puzzle

    for module in (formats, puzzle):
        for name, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                setattr(module, name, atheris.instrument_func(fn))

    def one_input(data: bytes):
        try:
            p = formats.parse(data)
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
