"""What refutes a branch before the search enters it: the checks of a thrashing search
(``checks``) and clause learning (``cdcl``)."""
