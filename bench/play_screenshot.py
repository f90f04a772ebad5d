"""The README's picture of `kakuro-np play`: k2 part-played, pencil marks, a hint shown.

Run: ``.venv/bin/python bench/play_screenshot.py`` (needs Debian's Chromium and the
test extra's playwright); writes ``puzzles/play.png``.
"""

from __future__ import annotations

import pathlib
import threading

from playwright.sync_api import sync_playwright

import kakuro_np as kn
from kakuro_np.play.game import Game
from kakuro_np.play.server import make_server

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main(out=ROOT / "puzzles" / "play.png"):
    puzzle = kn.read(ROOT / "puzzles" / "k2.txt")
    solution = kn.kakuro(puzzle)[0]
    game = Game(puzzle, "k2.txt")
    for r, c in [(1, 1), (1, 2), (2, 1), (3, 1), (4, 1), (9, 1), (9, 2)]:
        game.move({"op": "digit", "cell": [r, c], "digit": int(solution[r, c])})
    for r, c, others in [(2, 2, (1, 2, 4)), (2, 3, (1, 2, 4)), (3, 2, (5, 8))]:
        for d in sorted(set(others) | {int(solution[r, c])}):
            game.move({"op": "mark", "cell": [r, c], "digit": d})
    game.elapsed = 263.0
    server = make_server(game)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        page.goto(server.url)
        page.wait_for_selector("#grid .cell")
        page.click("#hint")
        page.wait_for_selector("#grid .cell.hinted")
        page.locator('#grid .cell[data-r="2"][data-c="2"]').click()
        page.wait_for_selector("#combos :text('in')")
        page.click("#pause")                            # the clock stays at 4:23
        page.screenshot(path=str(out))
        browser.close()
    server.shutdown()
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
