"""Stage 4, the depth-first walks over the trail (``trail``, written once): the search in
the essay's order (``search``), the hunt in any order (``anyorder``), counts by pieces
(``counting``, ``memo``, ``dissect``), and the fan-out tree cut into subproblems
(``split``)."""
