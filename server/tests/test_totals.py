"""Large list totals are shared for a moment between polling consoles; small ones never."""

import asyncio

from tagtrack.kit.totals import SharedTotals
from tests.clock import Clock


class Counter:
    def __init__(self, value: int) -> None:
        self.value = value
        self.calls = 0

    async def __call__(self) -> int:
        self.calls += 1
        await asyncio.sleep(0)  # the count is a query: other callers run meanwhile
        return self.value


async def test_small_totals_are_counted_every_time() -> None:
    totals = SharedTotals(shared_from=100, seconds=60)
    counter = Counter(99)
    assert [await totals.total("k", counter) for _ in range(3)] == [99, 99, 99]
    assert counter.calls == 3


async def test_a_large_total_is_shared_until_it_is_stale() -> None:
    clock = Clock()
    totals = SharedTotals(shared_from=100, seconds=0.2, clock=clock)
    counter = Counter(500)
    assert await totals.total("k", counter) == 500
    counter.value = 501
    assert await totals.total("k", counter) == 500
    assert await totals.total("other", counter) == 501
    assert counter.calls == 2
    clock.advance(0.25)
    assert await totals.total("k", counter) == 501
    assert counter.calls == 3


async def test_while_one_caller_recounts_the_others_keep_the_last_total() -> None:
    clock = Clock()
    totals = SharedTotals(shared_from=100, seconds=0.05, clock=clock)
    counter = Counter(500)
    await totals.total("k", counter)
    clock.advance(0.06)
    counter.value = 700
    results = await asyncio.gather(*(totals.total("k", counter) for _ in range(20)))
    assert sorted(results) == [500] * 19 + [700]
    assert counter.calls == 2


async def test_a_total_that_shrinks_below_the_threshold_is_exact_again() -> None:
    clock = Clock()
    totals = SharedTotals(shared_from=100, seconds=0.05, clock=clock)
    counter = Counter(500)
    await totals.total("k", counter)
    clock.advance(0.06)
    counter.value = 5
    assert await totals.total("k", counter) == 5
    assert await totals.total("k", counter) == 5
    assert counter.calls == 3


async def test_only_the_newest_keys_are_kept() -> None:
    totals = SharedTotals(shared_from=1, seconds=60, keys=2)
    counter = Counter(10)
    for key in ("a", "b", "c", "a"):
        await totals.total(key, counter)
    assert counter.calls == 4
