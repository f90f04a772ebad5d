"""What refutes a branch before the walk enters it: the checks of a thrashing walk
(``checks``), the clues as a flow network (``sums``), repairs of a witness (``repair``)
and clause learning (``cdcl``)."""
