"""The package as users get it: a wheel and an sdist built from the tracked files, each
installed into a fresh venv (not editable, away from the source tree), run as
`kakuro-np solve` and `kakuro-np play --no-browser`.

A wheel once listed four of its eight packages by hand, so a non-editable install lacked
``kakuro_np.engine.build`` and the rest; the editable install the suite runs in hid it.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile

import pytest

from conftest import PUZZLES, ROOT

pytestmark = pytest.mark.xdist_group("packaging")

#: The package's files a working install needs besides its modules.
DATA = ("kakuro_np/py.typed", "kakuro_np/play/CONTRACT.md", "kakuro_np/play/static/index.html",
        "kakuro_np/play/static/play.js", "kakuro_np/play/static/play.css")


def tracked_files():
    """The repository's tracked files (all files but caches and the venv without git)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
        return [f for f in listed if f and (ROOT / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis"}
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
                and p.suffix not in (".nbi", ".nbc")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``(wheel, sdist, venv)``: both built by ``python -m build`` from a copy of the
    tracked files, and a fresh venv with the wheel installed."""
    top = tmp_path_factory.mktemp("packaging")
    source = top / "source"
    for name in tracked_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(top / "dist"), str(source)],
                   check=True, capture_output=True)
    wheel, = (top / "dist").glob("*.whl")
    sdist, = (top / "dist").glob("*.tar.gz")
    venv = top / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip(venv, str(wheel))
    return wheel, sdist, venv


def pip(venv, *args):
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", *args], check=True, capture_output=True)


def smoke(venv, tmp_path):
    """``kakuro-np solve`` and ``kakuro-np play --no-browser`` of the venv, run away from the
    source tree, answer as they should."""
    program = str(venv / "bin" / "kakuro-np")
    k2 = shutil.copy(PUZZLES / "k2.txt", tmp_path / "k2.txt")
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import kakuro_np; print(kakuro_np.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert str(venv) in where                   # the installed package, not the source tree
    out = subprocess.run([program, "solve", "--count", k2], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert (out.returncode, out.stdout) == (0, "k2: 1 solution\n"), out.stderr
    out = subprocess.run([program, "solve", k2], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0 and out.stdout.startswith("┌"), out.stderr
    play(program, k2, tmp_path)


def play(program, puzzle, cwd):
    """The play page's files and its API, served by the installed program."""
    server = subprocess.Popen([program, "play", "--no-browser", puzzle], cwd=cwd,
                              stderr=subprocess.PIPE, text=True)
    try:
        said = server.stderr.readline()
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", said).group(1)
        with urllib.request.urlopen(url, timeout=60) as answer:
            page = answer.read().decode()
        token = re.search(r'<meta name="kakuro-token" content="([^"]+)">', page).group(1)
        for name in ("play.js", "play.css"):
            with urllib.request.urlopen(url + name, timeout=60) as answer:
                assert answer.status == 200 and len(answer.read()) > 1000
        ask = urllib.request.Request(url + "api/state", headers={"X-Kakuro-Token": token})
        with urllib.request.urlopen(ask, timeout=300) as answer:
            state = json.loads(answer.read())
        assert state and "error" not in state
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        finally:
            server.kill()
            server.stderr.close()


def test_the_wheel_holds_every_package_and_the_page_files(built):
    wheel, _, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {os.path.dirname(p.relative_to(ROOT).as_posix())
                for p in (ROOT / "kakuro_np").rglob("*.py")}
    assert packages == {os.path.dirname(n) for n in names if n.endswith(".py")}
    assert set(DATA) <= names


def test_the_installed_wheel_solves_and_serves(built, tmp_path):
    smoke(built[2], tmp_path)


def test_the_sdist_installs_and_runs(built, tmp_path):
    _, sdist, venv = built
    pip(venv, "--no-deps", "--force-reinstall", str(sdist))   # built into a wheel by pip
    smoke(venv, tmp_path)


#: A user's script: every public verb, called as the README calls it, its result used
#: as the type it is; and two mistakes a type checker must catch.
TYPED_USE = '''
import numpy as np
import kakuro_np as kn

p: kn.Puzzle = kn.read("puzzles/k3.txt")
q: kn.Puzzle = kn.parse(kn.format(p, "pipe"), "pipe")
rows = [["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]]
sols: np.ndarray = kn.kakuro(rows, limit=2, order="any", timeout=5.0)
n: int = kn.count(p, limit=2, progress=print)
r: kn.Reduction = kn.reduce("puzzles/k2.txt")
cells, sums = kn.entries(kn.as_puzzle(rows))
tables: list[np.ndarray] = kn.force(cells, kn.jposs(cells, sums), until_fixed=True)
ways: np.ndarray = kn.kc(18, 4)
picture: str = kn.boxed(p, sols[0]) + kn.svg(p, sols[0])
steps: kn.Explanation = kn.explain(p, max_steps=3)
tip: kn.Step | None = kn.hint(p)
g: kn.Grade = kn.grade(p, timeout=10.0)
c: kn.CheckResult = kn.check(p)
figures: dict = kn.stats(p)
new: kn.Puzzle = kn.generate(10, 10, grade="easy", seed=1)
where: np.ndarray = kn.differences(p)
results: list[kn.Result] = kn.solve_many(["puzzles/k2.txt"], workers=1)
fmt: str = kn.detect("x ; 4 0")
wrong: str = kn.count(p)
kn.kakuro(p, limit="two")
'''


def test_a_type_checker_reads_the_public_verbs(tmp_path):
    # py.typed and the hints: mypy checks a user's script against them (the package's own
    # modules silent: numba has no hints).
    mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "use.py"
    script.write_text(TYPED_USE)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, status = mypy.run(["--follow-imports=silent", "--ignore-missing-imports",
                                     "--no-incremental", "--cache-dir", os.devnull, str(script)])
    finally:
        os.chdir(cwd)
    errors = [line.split(": error: ", 1)[1] for line in out.splitlines() if ": error: " in line]
    assert errors == [
        'Incompatible types in assignment (expression has type "int", variable has type '
        '"str")  [assignment]',
        'Argument "limit" to "kakuro" has incompatible type "str"; expected "int | None"  '
        '[arg-type]'], out + err
