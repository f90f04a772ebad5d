"""The codes kernels return (``engine/core/codes.py``): one IntEnum a family."""

from kakuro_np.engine.core import codes


def test_status_ladder_and_check_codes_never_share_a_value():
    values = [int(c) for family in (codes.Status, codes.Ladder, codes.Check) for c in family]
    assert len(values) == len(set(values))


#: The kernels' int copy of each member.
#: (IntEnum members of two families may be equal, as ints: keyed by family and name.)
COPIES = {("Sat", "YES"): "SAT_YES", ("Sat", "NO"): "SAT_NO", ("Sat", "UNKNOWN"): "SAT_UNKNOWN",
          ("CountShort", "TIMED_OUT"): "COUNT_TIMED_OUT"}


def test_each_int_copy_is_its_familys_member():
    for family in codes.FAMILIES:
        for member in family:
            copy = getattr(codes, COPIES.get((family.__name__, member.name), member.name))
            assert type(copy) is int and copy == member


def test_a_code_is_named_with_its_family():
    assert codes.name_of(-2, codes.Walk) == "Walk.WALKED"
    assert codes.name_of(-2, codes.CountShort) == "CountShort.OUT_OF_NODES"
