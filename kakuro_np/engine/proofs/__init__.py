"""What refutes a branch before the search enters it: the checks of a thrashing search
(``checks``), repairs of a witness (``repair``) and clause learning (``cdcl``)."""
