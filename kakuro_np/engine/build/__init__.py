"""Stages 1 and 2: a grid's runs as packed entries (``entries``), each entry's table of
joint possibilities (``jposs``), the permutation tables kept without their rows
(``perms``), and the model the kernels share (``model``)."""
