"""Files written whole or not at all."""

from __future__ import annotations

import os
import tempfile


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
    path = os.fspath(path)
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
