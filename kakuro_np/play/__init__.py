"""``kakuro-np play``: a local page to create and solve puzzles by hand.

``game`` keeps a player's game (digits, pencil marks, undo, the timer) and asks
the library every question; ``server`` serves it and the page in ``static/`` on
127.0.0.1. ``CONTRACT.md`` is what the two sides say to each other.
"""
