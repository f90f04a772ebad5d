"""The depth-first walks over the trail (``trail``, written once): the hunt in any order
(``anyorder``), counts by pieces (``counting``, ``memo``, ``dissect``), the fan-out tree
cut into subproblems (``split``), and the clues as a flow network that each walk tests
(``sums``)."""
