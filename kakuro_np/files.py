"""Files written whole or not at all, and output paths checked before they are opened."""

from __future__ import annotations

import errno
import os
import stat
import tempfile

from .errors import PuzzleError


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, then ``os.replace``.

    An interrupted run leaves the old file (or none), never half a file. A new
    file gets mode 0644, a replaced one keeps its mode.

    Examples
    --------
    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "k.txt")
    >>> write_atomic(path, "x ; 3 0\\n")
    >>> open(path, encoding="utf-8").read(), os.listdir(os.path.dirname(path))
    ('x ; 3 0\\n', ['k.txt'])
    """
    if not isinstance(text, str):
        raise TypeError(f"write_atomic writes text, not {type(text).__name__}")
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path, data: bytes) -> None:
    """``write_atomic`` of bytes (a book's PDF)."""
    path = os.fspath(path)
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


#: ``errno``s of a write that found the disk full, or the user's quota used up.
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
#: What a path is, by its mode, when it is not a regular file (for the messages).
KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
         (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def why(e: OSError) -> str:
    """A failed read or write in a few words: ``no space left on device`` for a full disk
    (or quota), else the system's own.

    Examples
    --------
    >>> why(OSError(errno.EDQUOT, "Disk quota exceeded"))
    'no space left on device (disk quota exceeded)'
    """
    if e.errno == errno.ENOSPC:
        return "no space left on device"
    if e.errno == errno.EDQUOT:
        return "no space left on device (disk quota exceeded)"
    return e.strerror or str(e) or type(e).__name__


def output_path(path, hint: str = "") -> str:
    """What an output path is, told from ``os.stat`` alone (nothing is opened or read): "new"
    (nothing there yet, or it cannot be told), "file" (a regular file) or "null"
    (``os.devnull``). Anything else, a directory, a device, a FIFO or a socket, is refused
    with a PuzzleError saying what it is, and ``hint`` after.

    Examples
    --------
    >>> output_path("/dev/null"), output_path("/no/such/file")
    ('null', 'new')
    >>> output_path("/dev")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: /dev: is a directory, not a regular file
    """
    try:
        st = os.stat(path)
    except OSError:
        return "new"                                 # opening it says why it cannot be
    if stat.S_ISREG(st.st_mode):
        return "file"
    if os.path.samestat(st, os.stat(os.devnull)):
        return "null"
    kind = next((name for test, name in KINDS if test(st.st_mode)), "not a regular file")
    raise PuzzleError(f"is {kind}, not a regular file{hint}", source=os.fspath(path))
