"""Many grids at once: plain grids read, and comma texts written, with numpy over them all.

A batch reads and writes hundreds of small grids; a reader or writer called once a
grid spends more on its own calls than on the cells. Here the texts of many grids
are joined and read in one pass of numpy, and many solutions written in one.
Each function gives exactly what the one-grid verbs give, and leaves to them
whatever it does not take (``read_plain``'s None), so that they name every error;
``from_cells`` makes the Puzzles of many grids' cells, checked at once as ``Puzzle``
checks one.

Glossary
--------
plain grid : a jboxed text as the collections write it (``jboxed._PLAIN_GRID``): cells
             ``x``, ``_``, a given digit or ``D A`` (two sums of one or two digits),
             spaces or tabs around a cell, ``;`` between cells, a row a line, at
             least two columns, nothing else.
field      : the text of one cell between two of ``;`` and the newlines.
token      : a run of the characters of a cell (not space) in a field: a cell has one
             or two.
"""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError
from ..puzzle import MAX_RUN, Puzzle, cells_fine, check_run_lengths
from .jboxed import PLAIN_CHARS_A_CELL
from .text import _PLACES

#: What a one-character cell is, by its byte: blank, the digit given, and whether it is
#: one (``x``, ``X``, ``_``, ``1``-``9``).
_BLANK = np.zeros(256, bool)
_GIVEN = np.zeros(256, np.int8)
_ONE = np.zeros(256, bool)
for _char in "_123456789xX":
    _ONE[ord(_char)] = True
    _BLANK[ord(_char)] = _char not in "xX"
    _GIVEN[ord(_char)] = int(_char) if _char.isdigit() else 0
#: ``_BYTES[k]`` keeps the ``k`` lowest bytes of a uint64.
_BYTES = np.array([(1 << 8 * k) - 1 for k in range(8)], np.uint64)


def read_plain(texts) -> list:
    """The Puzzle of each of ``texts`` that is a plain grid (see the glossary), as ``parse``
    reads it: all of them read at once; None for any other text (or other object), for
    a text ``parse`` refuses (a sum past 45, rows of two widths, a run longer than 9, a
    grid too large), and for every text while ``formats.with_places`` asks for places.
    The caller reads those one by one, which names what is wrong. It takes a cell with
    no space around it but a ``;``'s (as ``write_jboxed`` writes them), and one space
    between a clue's sums; other space (a tab, two spaces) it leaves to ``parse``.

    Examples
    --------
    >>> [p if p is None else p.shape for p in read_plain(
    ...     ["x;3 0\\n0 3;_\\n", "x;3 0\\n0 3;_;_", "x ; 4 0 ; 3 0\\n0 7 ; 3 ; _\\n", 7])]
    [(2, 2), None, (2, 3), None]
    """
    found = [None] * len(texts)
    at, parts = [], []
    if _PLACES.get() is None:
        most = PLAIN_CHARS_A_CELL * (Puzzle.MAX_SIDE + 1) ** 2
        for i, text in enumerate(texts):
            part = _plain(text, most)
            if part is not None:
                at.append(i)
                parts.append(part)
    piece, size = 0, 0
    for k, part in enumerate(parts + [None]):        # read a PIECE of text at a time
        if part is None or (size + len(part) > PIECE and k > piece):
            if k > piece:
                _read_piece(parts[piece:k], at[piece:k], found)
            piece, size = k, 0
        size += len(part or b"")
    return found


def _plain(text, most: int):
    """The bytes of a text that may be a plain grid, the spaces around each `` ; `` and its
    last newline dropped (the checks of ``_cells`` refuse any other space); None for
    one that is not."""
    if not (isinstance(text, str) and len(text) <= most and text.isascii()):
        return None
    data = text.encode("ascii").replace(b" ; ", b";")
    return data[:-1] if data.endswith(b"\n") else data


def from_cells(blank, down, across, given, shapes) -> list:
    """The Puzzles whose cells lie end to end (row-major, one puzzle after another) in the
    1-d arrays ``blank``, ``down``, ``across`` and ``given``, ``shapes`` ``[(H, W), ...]``:
    each as ``Puzzle(blank, down, across, given)`` makes it, every check done at once on
    all their cells (for a reader of many grids). Where one is refused, ``Puzzle`` raises
    the error of the first so refused. The puzzles share four read-only arrays of their
    own (new copies, C-ordered, of the dtypes a Puzzle keeps), each a view of them.

    Examples
    --------
    >>> a, b = from_cells([0, 0, 0, 1, 0, 0, 1], [0, 3, 0, 0, 0, 2, 0], [0, 0, 3, 0, 2, 0, 0],
    ...                   [0, 0, 0, 2, 0, 0, 0], [(2, 2), (1, 3)])
    >>> a == Puzzle.from_rows([["x", (3, 0)], [(0, 3), 2]]), b.shape
    (True, (1, 3))
    >>> from_cells([1], [0], [0], [12], [(1, 1)])
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: cell (0, 0): given digit 12 is not 1-9
    """
    shapes = np.asarray(shapes, np.int64).reshape(-1, 2)
    cells = [np.asarray(a) for a in (blank, down, across, given)]
    sizes = shapes[:, 0] * shapes[:, 1]
    ends = np.cumsum(sizes)
    total = int(ends[-1]) if len(ends) else 0
    if any(a.shape != (total,) for a in cells):
        raise ValueError(f"grids of shapes {shapes.tolist()} take {total} cells in each "
                         f"array, not {[a.shape for a in cells]}")
    blank, down, across, given = cells
    fine = (blank.dtype == bool and all(np.issubdtype(a.dtype, np.integer) and a.dtype != bool
                                        for a in cells[1:])
            and bool((shapes >= 1).all()) and bool((shapes <= Puzzle.MAX_SIDE).all()))
    if fine and total:
        fine = cells_fine(blank, down, across, given)
    if not fine:                            # Puzzle says what is wrong, as ever
        starts = ends - sizes
        return [Puzzle(*(a[s:e].reshape(h, w) for a in cells))
                for s, e, (h, w) in zip(starts.tolist(), ends.tolist(), shapes.tolist())]
    blank, down, across, given = (_read_only(a.astype(t)) for a, t in
                                  zip(cells, (bool, np.int16, np.int16, np.int8)))
    found, new, start = [], object.__new__, 0
    set_blank, set_down, set_across, set_given = (getattr(Puzzle, name).__set__
                                                  for name in Puzzle.__slots__)
    for shape, end in zip(shapes.tolist(), ends.tolist()):
        puzzle = new(Puzzle)
        set_blank(puzzle, blank[start:end].reshape(shape))
        set_down(puzzle, down[start:end].reshape(shape))
        set_across(puzzle, across[start:end].reshape(shape))
        set_given(puzzle, given[start:end].reshape(shape))
        found.append(puzzle)
        start = end
    return found


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array`` (a copy of one's own), read only."""
    array.flags.writeable = False
    return array


#: The most bytes of text read at once, but for a longer text: the arrays of a piece stay
#: small enough to be made again where the last were (larger ones cost page faults).
PIECE = 1 << 15


def _read_piece(parts, at, found) -> None:
    """``read_plain`` of the texts ``parts`` (from ``_plain``), the Puzzles put in ``found``
    at ``at``."""
    data = b"\n".join(parts) + b"\n" + bytes(8)
    last = np.cumsum([len(part) + 1 for part in parts]) - 1     # each text's last newline
    cells, shapes, good = _cells(np.frombuffer(data, np.uint8), last)
    for i, puzzle in zip(np.asarray(at)[good].tolist(), from_cells(*cells, shapes)):
        found[i] = puzzle


def _cells(data, last):
    """``(cells, shapes, good)``: the blank, down, across and given cells (1-d, end to end)
    of the texts that are plain grids, their shapes, and which texts those are;
    ``data``, the texts' bytes from ``_plain``, each text ended by a newline at
    ``last``, then 8 zero bytes."""
    ends = np.flatnonzero((data == ord(";")) | (data == ord("\n")))   # each field's end
    starts = np.empty_like(ends)
    starts[0], starts[1:] = 0, ends[:-1] + 1
    length = ends - starts
    first = data[starts]
    one = length == 1
    wrong = ~(_ONE[first] & one)
    blank = _BLANK[first] & one
    given = _GIVEN[first] * one
    down = np.zeros(len(ends), np.int16)
    across = np.zeros(len(ends), np.int16)
    clues = np.flatnonzero((length >= 3) & (length <= 5))
    if clues.size:                                      # ``D A``: its bytes at once
        down[clues], across[clues], fine = _clues(data, starts[clues], length[clues])
        wrong[clues[fine]] = False
    # each text's fields, rows and their widths
    text_fields = np.searchsorted(ends, last) + 1       # the fields up to each text's end
    field0 = np.concatenate(([0], text_fields[:-1]))
    bad = np.add.reduceat(wrong, field0) > 0
    rows_at = np.flatnonzero(data[ends] == ord("\n"))  # the fields that end a row
    widths = np.diff(rows_at, prepend=-1)
    text_rows = np.searchsorted(rows_at, text_fields - 1) + 1
    row0 = np.concatenate(([0], text_rows[:-1]))
    height, width = text_rows - row0, widths[row0]
    side = Puzzle.MAX_SIDE
    bad |= ((np.maximum.reduceat(widths, row0) != np.minimum.reduceat(widths, row0))
            | (height > side) | (width > side) | (width < 2))
    keep = np.repeat(~bad, text_fields - field0)
    cells = blank[keep], down[keep], across[keep], given[keep]
    shapes, good = np.stack([height, width], 1)[~bad], np.flatnonzero(~bad)
    long = _long_runs(cells[0], shapes)
    if long.any():                                      # refused by ``parse``: rare
        keep = np.repeat(~long, shapes[:, 0] * shapes[:, 1])
        cells, shapes, good = tuple(a[keep] for a in cells), shapes[~long], good[~long]
    return cells, shapes, good


def _clue_tables() -> tuple:
    """``(FIRST, LAST)``: for the first two bytes of a clue's field (``b0 | b1 << 8``), its
    down sum and the bytes it takes (``bytes << 6 | sum``: one digit and a space, or two
    digits); for its last two, its across sum and the bytes it takes (a space and one
    digit, or two digits); -1 for any other two bytes, or a sum past 45."""
    first = np.full(1 << 16, -1, np.int16)
    last = np.full(1 << 16, -1, np.int16)
    for a in range(10):
        first[ord("0") + a | ord(" ") << 8] = 1 << 6 | a
        last[ord(" ") | ord("0") + a << 8] = 1 << 6 | a
        for b in range(10):
            if 10 * a + b <= 45:
                first[ord("0") + a | ord("0") + b << 8] = 2 << 6 | 10 * a + b
                last[ord("0") + a | ord("0") + b << 8] = 2 << 6 | 10 * a + b
    return first, last


_FIRST, _LAST = _clue_tables()
#: How far the last two bytes of a field of each length are shifted in its window.
_LAST_AT = np.array([0, 0, 0, 8, 16, 24], np.uint64)


def _clues(data, starts, length) -> tuple:
    """``(down, across, fine)`` of the fields of ``length`` 3 to 5 at ``starts``: a clue's
    two sums of at most 45, one space between them, and whether the field is one. Each
    field is read as the 8 bytes from its start, its first two bytes and its last two
    looked up (``_FIRST``, ``_LAST``)."""
    window = np.ndarray(len(data) - 7, np.dtype("<u8"), data, strides=(1,))[starts]
    down = _FIRST[window & _TWO]
    across = _LAST[(window >> _LAST_AT[length]) & _TWO]
    fine = ((down | across) >= 0) & ((down >> 6) + (across >> 6) + 1 == length)
    fine &= (length < 5) | ((window >> _MIDDLE & _ONE_BYTE) == _SPACE)   # a space between
    return down & 63, across & 63, fine


_TWO, _ONE_BYTE, _MIDDLE, _SPACE = np.uint64(0xFFFF), np.uint64(0xFF), np.uint64(16), np.uint64(32)


def _long_runs(blank, shapes) -> np.ndarray:
    """Which of the grids whose cells lie end to end (``from_cells``) hold a run of more
    than MAX_RUN blank cells, across or down: their blank cells laid as rows of one array,
    a zero after each row, looked at as rows and as columns at once; where one may be
    found (a run down may go on into the next grid), each grid is looked at alone."""
    height, width = shapes[:, 0], shapes[:, 1]
    long = np.zeros(len(shapes), bool)
    if not ((height > MAX_RUN) | (width > MAX_RUN)).any():
        return long
    widths = np.repeat(width, height)                   # each row's
    stride = int(width.max()) + 1
    shift = np.arange(len(widths)) * stride - (np.cumsum(widths) - widths)
    laid = np.zeros((len(widths), stride), np.uint8)
    laid.ravel()[np.arange(len(blank)) + np.repeat(shift, widths)] = blank
    run = b"\x01" * (MAX_RUN + 1)
    if run in laid.tobytes() or run in laid.T.tobytes():
        sizes = height * width
        for i, (a, s) in enumerate(zip((np.cumsum(sizes) - sizes).tolist(), sizes.tolist())):
            try:
                check_run_lengths(blank[a:a + s].reshape(height[i], width[i]))
            except PuzzleError:
                long[i] = True
    return long


#: The comma format's token of each cell code (``_comma_piece``: ``down * 46 + across`` for a
#: clue or an inactive cell, ``2116 + digit`` for a blank one) and the space after it, or
#: the newline after a row's last cell (odd codes), padded with 0xFF to 8 bytes; with
#: ``json``, the newline as a JSON string writes it (``\n``).
def _comma_table(json: bool) -> np.ndarray:
    tokens = [f"{d or ''},{a or ''}" if d or a else "-" for d in range(46) for a in range(46)]
    tokens += list("0123456789")
    return np.array([list((t + end).encode().ljust(8, b"\xff")) for t in tokens
                     for end in (" ", "\\n" if json else "\n")], np.uint8).view(np.uint64).ravel()


_COMMA = {False: _comma_table(False), True: _comma_table(True)}
#: The bytes of each token of ``_COMMA`` (but the padding).
_COMMA_LENGTHS = {k: (table.view(np.uint8).reshape(-1, 8) != 0xFF).sum(1)
                  for k, table in _COMMA.items()}
BLANK_CODE = 46 * 46


def comma_texts(puzzles, solutions, json: bool = False) -> list:
    """``formats.format(puzzle, "comma", solution=digits)`` of each Puzzle and its (H, W)
    digits, all written at once; with ``json``, each as a JSON string holds it, without
    its quotes (its newlines ``\\n``). A puzzle or solution the format would refuse
    (digits not 0-9 on a blank cell, not whole numbers, of another shape) is left to
    ``format``, which says what is wrong.

    Examples
    --------
    >>> from kakuro_np.formats import parse
    >>> p = parse("x;4 0;3 0\\n0 3;_;_\\n0 4;_;_")
    >>> comma_texts([p], [[[0, 0, 0], [0, 1, 2], [0, 3, 1]]])
    ['3 3\\n- 4, 3,\\n,3 1 2\\n,4 3 1\\n']
    >>> comma_texts([p], [p.given], json=True)
    ['3 3\\\\n- 4, 3,\\\\n,3 0 0\\\\n,4 0 0\\\\n']
    """
    from . import format
    digits = [np.asarray(s) for s in solutions]
    taken = [i for i, (p, d) in enumerate(zip(puzzles, digits))
             if isinstance(p, Puzzle) and d.shape == p.shape and d.dtype.kind in "iu"]
    texts = [None] * len(puzzles)
    for a in range(0, len(taken), WRITTEN_AT_ONCE):
        at = taken[a:a + WRITTEN_AT_ONCE]
        for i, text in zip(at, _comma_piece([puzzles[i] for i in at], [digits[i] for i in at],
                                            json)):
            texts[i] = text
    for i, text in enumerate(texts):
        if text is None:
            text = format(puzzles[i], "comma", solution=digits[i])
            texts[i] = _json_string(text) if json else text
    return texts


#: The most grids ``comma_texts`` writes in one pass.
WRITTEN_AT_ONCE = 64


def _json_string(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _comma_piece(puzzles, digits, json) -> list:
    """``comma_texts`` of puzzles whose digits are whole numbers of their shape, each cell's
    token and what follows it looked up by its code (``_COMMA``); None for one whose
    digits on a blank cell are not 0-9."""
    shapes = np.array([p.shape for p in puzzles], np.int64).reshape(-1, 2)
    blank = np.concatenate([p.blank.ravel() for p in puzzles])
    given = np.concatenate([d.ravel() for d in digits])
    wrong = blank & ((given < 0) | (given > 9))
    if wrong.any():
        given = given * ~wrong
    code = np.concatenate([p.down.ravel() for p in puzzles]) * np.int16(46)
    code += np.concatenate([p.across.ravel() for p in puzzles])
    code += blank * (given.astype(np.int16) + np.int16(BLANK_CODE))
    code = code.astype(np.int64) * 2
    code[np.cumsum(np.repeat(shapes[:, 1], shapes[:, 0])) - 1] += 1    # each row's last cell
    body = _COMMA[json][code].tobytes().translate(None, b"\xff").decode("ascii")
    firsts = np.cumsum(shapes[:, 0] * shapes[:, 1]) - shapes[:, 0] * shapes[:, 1]
    ends = np.cumsum(np.add.reduceat(_COMMA_LENGTHS[json][code], firsts)).tolist()
    wrong = np.logical_or.reduceat(wrong, firsts).tolist()
    newline = "\\n" if json else "\n"
    out, start = [], 0
    for (h, w), end, bad in zip(shapes.tolist(), ends, wrong):
        out.append(None if bad else f"{h} {w}{newline}{body[start:end]}")
        start = end
    return out
