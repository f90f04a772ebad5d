"""Errors raised by kakuro_np.

A contradiction in a well-formed puzzle is an answer (zero solutions), never an
exception; only malformed input and exceeded budgets raise.
"""

from __future__ import annotations

import math
import numbers
import reprlib

#: The most digits a number is shown with in full; a longer one is cut (``shown``).
SHOWN_DIGITS = 12
#: Numbers of more bits than this are not divided to find their first digits.
_BITS_DIVIDED = 1 << 16
#: The most characters of a file name an error shows (no path is longer, ``PATH_MAX``).
SHOWN_NAME = 4096


def shown(value, limit: int = 20) -> str:
    r"""Input text, or a number, as an error message quotes it: on one line, cut short if long.

    Control characters, bidirectional controls (U+200E/F, U+202A-202E, U+2066-2069),
    zero-width characters (U+200B-200D, U+FEFF) and every other character that
    ``str.isprintable`` refuses are written ``\uXXXX`` (``escaped``). Text longer than
    ``limit`` characters is cut to them and ``...``; a number, or text of digits, of more
    than ``SHOWN_DIGITS`` digits is shown by its first digits and its length. Anything
    else is shown as ``reprlib`` shows it, its numbers cut so.

    Examples
    --------
    >>> print(shown("q"), shown("a\u202eb\u200bc"), shown("7" * 30))
    q a\u202eb\u200bc 777777777777... (30 digits)
    >>> print(shown(-10 ** 4999), shown("x" * 30), shown([0, 2.5]), sep=" | ")
    -100000000000... (5,000 digits) | xxxxxxxxxxxxxxxxxxxx... | [0, 2.5]
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return _number(int(value))                  # numpy's integers too
    if not isinstance(value, str):
        return escaped(_REPR.repr(value))
    if len(value) > SHOWN_DIGITS and value.isascii() and value.isdigit():
        return f"{value[:SHOWN_DIGITS]}... ({len(value):,} digits)"
    return _cut(value, limit)


def _cut(text: str, limit: int) -> str:
    """``text``, escaped, its first ``limit`` characters and ``...`` if it is longer."""
    return escaped(text[:limit]) + ("..." if len(text) > limit else "")


def escaped(text: str) -> str:
    r"""``text`` with each character that is not printable written ``\uXXXX`` (``\UXXXXXXXX``
    past U+FFFF), so it shows on one line as it is, never reordered or hidden.

    Examples
    --------
    >>> print(escaped("one\ntwo\u2066\t\ufeff\U000e0001"))
    one\u000atwo\u2066\u0009\ufeff\U000e0001
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else
                   f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"
                   for ch in text)


def _number(value: int) -> str:
    """A whole number in full up to ``SHOWN_DIGITS`` digits, else its first digits and length
    (about, past ``_BITS_DIVIDED`` bits), never all its digits (which Python refuses to
    write past 4,300 of them)."""
    sign, value = "-" * (value < 0), abs(value)
    if value < 10 ** SHOWN_DIGITS:
        return sign + str(value)
    bits = value.bit_length()
    if bits > _BITS_DIVIDED:
        return f"{sign}a number of about {int(bits * math.log10(2)):,} digits"
    power = int((bits - 1) * math.log10(2))        # 10**power <= value < 10**(power + 1)
    while 10 ** power > value:
        power -= 1
    while 10 ** (power + 1) <= value:
        power += 1
    head = value // 10 ** (power + 1 - SHOWN_DIGITS)
    return f"{sign}{head}... ({power + 1:,} digits)"


class _Repr(reprlib.Repr):
    """``reprlib``'s short representations, whole numbers cut by ``_number``."""

    def repr_int(self, x, level):
        return _number(x)


_REPR = _Repr()


class PuzzleError(ValueError):
    """Malformed puzzle input, with the place it was found.

    The message and the file name (its first ``SHOWN_NAME`` characters) are shown on one
    line, their characters that are not printable escaped (``escaped``); input quoted in
    a message is shown by ``shown``.

    Parameters
    ----------
    message : str
        What is wrong, in words a puzzle fan understands.
    line, col : int, optional
        1-based position in a text source.
    cell : tuple of int, optional
        0-based ``(row, col)`` of the grid cell concerned.
    source : str, optional
        File name, prefixed to the message.

    Examples
    --------
    >>> str(PuzzleError("unknown token 'q'", line=3, col=7, source="a.txt"))
    "a.txt:3:7: unknown token 'q'"
    >>> str(PuzzleError("clue has no cells after it", cell=(2, 4)))
    'cell (2, 4): clue has no cells after it'
    """

    def __init__(self, message, *, line=None, col=None, cell=None, source=None):
        self.message = message
        self.line, self.col, self.cell, self.source = line, col, cell, source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source is not None:
            where.append(_cut(str(self.source), SHOWN_NAME))
        if self.line is not None:
            where.append(str(self.line) + ("" if self.col is None else f":{self.col}"))
        place = ":".join(where)
        if self.cell is not None:
            cell = f"cell ({self.cell[0]}, {self.cell[1]})"
            place = f"{place}: {cell}" if place else cell
        return escaped(f"{place}: {self.message}" if place else self.message)

    def with_source(self, source) -> "PuzzleError":
        """The same error, naming the file it came from."""
        return PuzzleError(self.message, line=self.line, col=self.col,
                           cell=self.cell, source=source)


class TooManySolutions(RuntimeError):
    """The requested output would pass a budget; ask with ``limit=`` or use ``count()``.

    ``count`` is the number of solutions where it was counted (an int), else None;
    ``at_least`` is a number the count is known to reach (``count`` when known);
    ``how_many`` says so for a person ("more than 1,000", "about 1.2e+40 (estimated)").
    """

    def __init__(self, message, *, count=None, at_least=None, how_many=None):
        super().__init__(message)
        self.count = count
        self.at_least = count if at_least is None else at_least
        self.how_many = how_many or (f"{count:,}" if count is not None else
                                     f"at least {self.at_least:,}" if self.at_least else "many")


class SolveTimeout(TimeoutError):
    """The work did not finish within ``timeout=`` seconds."""


def seconds(timeout) -> str:
    """A ``timeout=`` as a message says it: at most two decimals (``4.99`` for 4.992365).

    >>> seconds(4.992365343), seconds(5), seconds(0.5)
    ('4.99', '5', '0.5')
    """
    return f"{round(float(timeout), 2):g}"


class BudgetError(RuntimeError):
    """The puzzle's tables would pass the row budget (``max_rows=``)."""
