"""Stages 1 and 2: a grid's runs as packed entries (``entries``), each entry's table of
joint possibilities (``jposs``), and the permutation tables kept without their rows
(``perms``)."""
