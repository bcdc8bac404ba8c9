"""The order the run hands its tests to pytest-xdist's worksteal (tests/support/start_order.py)."""

from __future__ import annotations

from tests.support.start_order import LEAD, _sizes, start_order

LONG = {"test_big.py": 10.0, "test_mid.py": 2.0, "test_small.py": 1.0}
QUICK = ("test_short5", "test_short6")


def _items() -> list[str]:
    names = [f"test_big.py::t{n}" for n in range(2)]  # 20
    names += [f"test_mid.py::t{n}" for n in range(6)]  # 12
    names += [f"test_small.py::t{n}" for n in range(9)]  # 9
    names += [f"test_short{n % 7}.py::t{n}" for n in range(60)]
    names.insert(30, "test_spin.py::alone")
    return names


def _order(workers: int) -> list[str]:
    return start_order(
        _items(),
        workers,
        file_of=lambda item: item.split("::")[0],
        alone=lambda item: "alone" in item,
        quick=lambda item: item.startswith(QUICK),
        long=LONG,
    )


def _shares(ordered: list[str], workers: int) -> list[list[str]]:
    shares, start = [], 0
    for size in _sizes(len(ordered), workers):
        shares.append(ordered[start : start + size])
        start += size
    return shares


def test_worksteal_s_first_shares_are_the_rest_divided_by_the_workers_left() -> None:
    assert _sizes(878, 4) == [219, 219, 220, 220]
    assert _sizes(3, 4) == [0, 1, 1, 1]


def test_each_worker_starts_its_share_of_the_long_files_early_and_all_shares_weigh_alike() -> None:
    ordered = _order(3)
    assert sorted(ordered) == sorted(_items())
    shares = _shares(ordered, 3)
    assert shares[0][0] == "test_spin.py::alone"
    weights = []
    for index, share in enumerate(shares):
        files = [item.split("::")[0] for item in share]
        longs = [n for n, name in enumerate(files) if name in LONG]
        assert longs, share  # every worker has long tests, in one run each
        assert longs == list(range(longs[0], longs[0] + len(longs))), share
        assert longs[0] == (1 if index == 0 else LEAD), "the alone test waits only for short first tests"
        if index:
            assert all(name.startswith(QUICK) for name in files[:LEAD]), "quick ones, where there are enough"
        run = [LONG[name] for name in files[longs[0] : longs[-1] + 1]]
        assert run == sorted(run, reverse=True), "the longest tests first"
        weights.append(sum(LONG.get(name, 0) for name in files))
    assert weights == [20, 12, 9], "the largest file first to the share with the least"
    second = [item.split("::")[0] for item in _shares(_order(2), 2)[1]]
    assert second[LEAD : LEAD + 15] == ["test_mid.py"] * 6 + ["test_small.py"] * 9


def test_without_workers_the_alone_tests_then_the_longest_come_first() -> None:
    ordered = _order(1)
    assert ordered[0] == "test_spin.py::alone"
    assert [item.split("::")[0] for item in ordered[1:18]] == ["test_big.py"] * 2 + ["test_mid.py"] * 6 + [
        "test_small.py"
    ] * 9
    assert sorted(ordered) == sorted(_items())
