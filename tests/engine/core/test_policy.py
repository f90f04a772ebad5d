"""When each strategy runs (``engine/core/policy.py``): its constants, their groups and the
relations its docstring states between them."""

import re

from kakuro_np import solve, turns
from kakuro_np.engine.core import policy
from conftest import PUZZLES, ROOT


def group(title):
    """The constants the docstring names under ``title``, in order."""
    section = policy.__doc__.split(title + "\n")[1].split("\n\n")[0]
    return [name for line in re.findall(r"^([A-Z_][A-Z_, ]*?)\s*:", section, re.MULTILINE)
            for name in line.split(", ")]


READ_WHEN_CALLED = group("Read when called")
FROZEN = group("Frozen in the kernels")


def test_the_docstring_names_each_constant_once_in_one_of_its_two_groups():
    constants = [name for name in vars(policy) if name.isupper()]
    assert READ_WHEN_CALLED and FROZEN
    assert sorted(READ_WHEN_CALLED + FROZEN) == sorted(constants)
    assert len(set(READ_WHEN_CALLED + FROZEN)) == len(constants)


def imports_of_policy():
    """Each ``from ... policy import ...`` in the package: (file, the names it binds)."""
    found = []
    for path in (ROOT / "kakuro_np").rglob("*.py"):
        for inside, line in re.findall(r"^\s*from [.\w]*policy import (?:\(([^)]*)\)|(.*))",
                                       path.read_text(), re.MULTILINE):
            found.append((path.relative_to(ROOT), set(re.findall(r"\w+", inside + line))))
    return found


def test_only_the_frozen_constants_are_bound_where_they_are_imported():
    # a name bound at import keeps its value: the first group must be read as ``policy.NAME``
    found = imports_of_policy()
    assert found, "no kernel module imports the frozen constants any more"
    for path, names in found:
        assert names <= set(FROZEN), (path, names - set(FROZEN))


def test_the_frozen_constants_are_whole_numbers_of_nanoseconds_or_nodes():
    for name in FROZEN:
        value = getattr(policy, name)
        assert type(value) is int and value > 0, name


def test_node_counts_are_positive_whole_numbers_and_the_race_a_flag():
    for name in ("THRASH_NODES", "CHECK_HUNT_NODES", "HUNT_MAX", "TURN_NODES", "DISSECT_AFTER"):
        value = getattr(policy, name)
        assert type(value) is int and value > 0, name
    assert policy.ROOT_CHECK_S > 0 and type(policy.RACE) is bool


def test_later_turns_are_longer():
    assert policy.TURN_GROWTH > 1 and policy.CHECK_TURN_GROWTH > 1
    assert policy.CHECK_SAT_NS > 0


def test_the_walk_reads_the_clock_before_it_would_thrash_on_its_nodes():
    # THRASH_NS stops a walk "however few its nodes": the clock is read at every node
    # from CLOCK_AFTER nodes on, well before THRASH_NODES stop it
    assert 0 < policy.CLOCK_AFTER < policy.THRASH_NODES
    assert policy.THRASH_NS < 60 * 10**9           # sooner than the minutes it saves


def test_the_public_verbs_read_the_first_group_when_called(monkeypatch):
    monkeypatch.setattr(policy, "HUNT_MAX", 5)
    assert turns.count_kernels(5) == ("hunt", "count") and turns.count_kernels(6) == ("count",)
    assert solve.kakuro_kernels(5, "any") == ("hunt",)
    assert solve.kakuro_kernels(6, "any") == ("search",)
    monkeypatch.setattr(policy, "RACE", False)
    assert turns.racing() is False


def test_a_checks_first_hunt_reads_check_hunt_nodes_when_called(monkeypatch):
    from kakuro_np.engine.proofs import checks
    seen = []
    made = checks.new_checks
    monkeypatch.setattr(checks, "new_checks", lambda root, n: seen.append(n) or made(root, n))
    monkeypatch.setattr(policy, "CHECK_HUNT_NODES", 7)
    checks.checks_for(solve.model(str(PUZZLES / "k3.txt")))
    assert seen == [7]
