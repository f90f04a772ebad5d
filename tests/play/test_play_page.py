"""kakuro-np play in a real browser: Debian's Chromium, headless, driven by Playwright.

`.ci/run` (and `make test`) install Chromium when it is missing; without it, or
without the playwright package, these tests are skipped with the reason. The last
screenshot of each test is kept in tests/artifacts/.
"""

import os
import re
import shutil
import threading

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.engine.core import ahead
from kakuro_np.engine.core.jit import deadline_ns
from kakuro_np.play.game import Game
from kakuro_np.play.server import make_server

from conftest import PUZZLES, ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = ROOT / "tests" / "artifacts"
#: How long any wait of a page (a selector, a function, a click, ``expect``) waits for its
#: condition, in ms. The games here have no time limit: an answer comes when the work is
#: done, which on a loaded machine compiling kernels (or sharing its cores) takes far
#: longer than Playwright's defaults; a wait whose condition holds ends at once.
PATIENCE_MS = 300_000

playwright_api = pytest.importorskip("playwright.sync_api", reason="the test extra's playwright")
pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Chromium (apt-get install chromium)"),
    pytest.mark.xdist_group("browser"),
]


@pytest.fixture(scope="module")
def browser():
    playwright_api.expect.set_options(timeout=PATIENCE_MS)
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     timeout=PATIENCE_MS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, request):
    """``open_page(game)``: the page of a server for ``game``, in a fresh tab; a screenshot
    is kept when the test ends."""
    servers, pages = [], []

    def opened(game):
        server = make_server(game)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(PATIENCE_MS)
        page.set_default_navigation_timeout(PATIENCE_MS)
        page.goto(server.url)
        page.wait_for_selector("#grid .cell")
        pages.append(page)
        return page

    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    for page in pages:
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
        page.close()
    for server in servers:
        server.shutdown()
        server.server_close()


def cell(page, r, c):
    return page.locator(f'#grid .cell[data-r="{r}"][data-c="{c}"]')


def walk(page, start, to):
    """Arrow keys from cell ``start`` to cell ``to``; returns ``to``."""
    (r0, c0), (r1, c1) = start, to
    for _ in range(abs(r1 - r0)):
        page.keyboard.press("ArrowDown" if r1 > r0 else "ArrowUp")
    for _ in range(abs(c1 - c0)):
        page.keyboard.press("ArrowRight" if c1 > c0 else "ArrowLeft")
    return to


def test_k2_is_played_to_the_end_by_keystrokes(open_page):
    puzzle = kn.read(PUZZLES / "k2.txt")
    solution = kn.kakuro(puzzle)[0]
    page = open_page(Game(puzzle, "k2.txt"))
    blanks = [tuple(int(i) for i in rc) for rc in np.argwhere(puzzle.blank)]
    cell(page, *blanks[0]).click()
    at = blanks[0]
    for r, c in blanks:
        at = walk(page, at, (r, c))
        page.keyboard.press(f"Digit{solution[r, c]}")
    page.wait_for_function("document.querySelector('#message').textContent.includes('Solved')")
    assert page.locator("#message").inner_text().startswith("Solved in")
    shown = [[cell(page, r, c).locator(".digit").inner_text() for c in range(puzzle.shape[1])
              if puzzle.blank[r, c]] for r in range(puzzle.shape[0])]
    assert shown == [[str(solution[r, c]) for c in range(puzzle.shape[1]) if puzzle.blank[r, c]]
                     for r in range(puzzle.shape[0])]


def test_check_flags_a_wrong_digit_and_undo_restores_it(open_page):
    puzzle = kn.read(PUZZLES / "k2.txt")
    solution = kn.kakuro(puzzle)[0]
    page = open_page(Game(puzzle, "k2.txt"))
    right, wrong = int(solution[1, 1]), int(solution[1, 1]) % 9 + 1
    cell(page, 1, 1).click()
    page.keyboard.press(f"Digit{right}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit3")                  # a pencil mark
    page.wait_for_function("document.querySelector('#grid .cell[data-r=\"1\"][data-c=\"2\"]')"
                           ".textContent.includes('3')")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(f"Digit{wrong}")
    expect = playwright_api.expect
    expect(cell(page, 1, 1).locator(".digit")).to_have_text(str(wrong))
    page.click("#check")
    expect(cell(page, 1, 1)).to_have_class(re.compile(r"\bwrong\b"))
    expect(page.locator("#message")).to_contain_text("1 wrong digit")
    page.keyboard.press("Control+z")
    expect(cell(page, 1, 1).locator(".digit")).to_have_text(str(right))
    expect(cell(page, 1, 1)).not_to_have_class(re.compile(r"\bwrong\b"))
    page.click("#hint")
    expect(page.locator("#hint-text")).not_to_be_empty()
    assert page.locator("#grid .cell.hinted").count() >= 1


def test_a_6x6_is_created_and_unique_appears(open_page):
    puzzle = kn.generate(6, 6, seed=3)
    page = open_page(Game())
    page.fill("#new-rows", "6")
    page.fill("#new-cols", "6")
    page.click("#new")
    expect = playwright_api.expect
    expect(page.locator("body")).to_have_class(re.compile(r"\bcreate\b"))
    expect(page.locator("#grid .cell")).to_have_count(36)
    for r in range(1, 6):
        for c in range(1, 6):
            if not puzzle.blank[r, c]:
                cell(page, r, c).click()
                expect(cell(page, r, c)).not_to_have_class(re.compile(r"\bblank\b"))
    for r, c in np.argwhere(~puzzle.blank & ((puzzle.down > 0) | (puzzle.across > 0))):
        cell(page, r, c).click()
        for name, sums in (("down", puzzle.down), ("across", puzzle.across)):
            if sums[r, c]:
                page.fill(f"#{name}-sum", str(sums[r, c]))
                page.press(f"#{name}-sum", "Enter")
                expect(cell(page, r, c).locator(f".{name}")).to_have_text(str(sums[r, c]))
    expect(page.locator("#status")).to_contain_text("unique")
    page.click("#to-play")
    expect(page.locator("body")).to_have_class(re.compile(r"\bplay\b"))


def test_a_drawn_layout_gets_its_sums_from_the_fill_button(open_page):
    pattern = kn.generate(6, 6, seed=3).blank
    made = kn.generate(layout=pattern, seed=0)   # its kernels compiled here, not in the race
    ahead.ready(("model", "generate"), deadline_ns(600))    # below (those it did not call, by
    kn.kakuro(made, limit=2), kn.grade(made)                 # helpers), and the status's
    page = open_page(Game())
    page.fill("#new-rows", "6")
    page.fill("#new-cols", "6")
    page.click("#new")
    expect = playwright_api.expect
    for r in range(1, 6):
        for c in range(1, 6):
            if not pattern[r, c]:
                cell(page, r, c).click()
                expect(cell(page, r, c)).not_to_have_class(re.compile(r"\bblank\b"))
    page.click("#fill-layout")
    expect(page.locator("#message")).to_have_text("sums filled in: one solution")
    expect(page.locator("#status")).to_contain_text("unique")
    page.click("#to-play")
    expect(page.locator("body")).to_have_class(re.compile(r"\bplay\b"))


def drawn_size(page):
    """``(rows, cols)`` of the grid drawn: its cells in column 0, in row 0."""
    return (page.locator('#grid .cell[data-c="0"]').count(),
            page.locator('#grid .cell[data-r="0"]').count())


def new_fields(page):
    """``(rows, cols)`` the New fields say."""
    return int(page.input_value("#new-rows")), int(page.input_value("#new-cols"))


def test_the_new_fields_say_the_size_of_the_grid_drawn(open_page):
    expect = playwright_api.expect
    page = open_page(Game())                         # create mode, as `kakuro-np play` starts
    expect(page.locator("body")).to_have_class(re.compile(r"\bcreate\b"))
    rows, cols = new_fields(page)
    assert drawn_size(page) == (rows, cols)
    assert page.locator("#grid .cell").count() == rows * cols
    page.set_input_files("#load-file", files=[{      # a 3 x 3 puzzle loaded: 3 x 3
        "name": "tiny.txt", "mimeType": "text/plain",
        "buffer": b"x ; 4 0 ; 3 0\n0 3 ; _ ; _\n0 4 ; _ ; _\n"}])
    expect(page.locator("#grid .cell")).to_have_count(9)
    assert new_fields(page) == drawn_size(page) == (3, 3)

    page = open_page(Game(kn.read(PUZZLES / "k2.txt"), "k2.txt"))    # 10 x 8, then edited
    assert new_fields(page) == drawn_size(page) == (10, 8)
    page.click("#to-create")
    expect(page.locator("body")).to_have_class(re.compile(r"\bcreate\b"))
    assert new_fields(page) == drawn_size(page) == (10, 8)
    page.fill("#new-rows", "6")
    page.fill("#new-cols", "7")
    page.click("#new")
    expect(page.locator("#grid .cell")).to_have_count(42)
    assert new_fields(page) == drawn_size(page) == (6, 7)


def test_another_sites_page_cannot_drive_the_game(browser, open_page):
    """A page of another origin (a second server on another port) posts to the play server
    as a cross-site form would (text/plain, no preflight) and with fetch: nothing changes."""
    import http.server
    game = Game(kn.read(PUZZLES / "k2.txt"), "k2.txt")
    page = open_page(game)
    before = game.state()["digits"]
    play_url = page.url

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            data = b"<!DOCTYPE html><title>another site</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    other = browser.new_page()
    other.set_default_timeout(PATIENCE_MS)
    other.set_default_navigation_timeout(PATIENCE_MS)
    try:
        other.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        said = other.evaluate("""async (url) => {
            const out = [];
            for (const [path, body] of [["api/solve", "{}"], ["api/new", '{"rows": 5, "cols": 5}']]) {
              try {
                await fetch(url + path, {method: "POST", mode: "no-cors", body,
                                         headers: {"Content-Type": "text/plain"}});
                out.push("sent");
              } catch (e) { out.push("blocked"); }
              try {
                const r = await fetch(url + path, {method: "POST", body,
                                                   headers: {"Content-Type": "application/json"}});
                out.push(String(r.status));
              } catch (e) { out.push("blocked"); }
            }
            return out;
        }""", play_url)
        assert "200" not in said
        state = game.state()
        assert state["digits"] == before and state["mode"] == "play" and not state["can_undo"]
    finally:
        other.close()
        evil.shutdown()
        evil.server_close()
