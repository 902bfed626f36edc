"""A moment's sharing of large list totals among the consoles that poll the same page."""

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

# Every console on the Events page asks for the same first page every 5 seconds. Its plain
# total comes from the hour counts (events/repository.py), but one filtered by endpoint or
# thing counts the period's events one by one: hundreds of thousands of rows cost far more
# than the page itself, so a total this large is shared for a few seconds. Smaller totals
# are always counted afresh, so they are exact at once.
SHARED_FROM = 10_000
SHARED_SECONDS = 3.0
SHARED_KEYS = 1024


@dataclass
class _Total:
    value: int
    counted_at: float


class SharedTotals:
    def __init__(
        self,
        *,
        shared_from: int = SHARED_FROM,
        seconds: float = SHARED_SECONDS,
        keys: int = SHARED_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.shared_from = shared_from
        self.seconds = seconds
        self.keys = keys
        self._totals: OrderedDict[Hashable, _Total] = OrderedDict()

    async def total(self, key: Hashable, count: Callable[[], Awaitable[int]]) -> int:
        now = self.clock()
        known = self._totals.get(key)
        if known is not None and now - known.counted_at < self.seconds:
            return known.value
        if known is not None:
            # The others keep the last total while this caller counts again.
            known.counted_at = now
        value = await count()
        if value >= self.shared_from:
            self._totals[key] = _Total(value, self.clock())
            self._totals.move_to_end(key)
            while len(self._totals) > self.keys:
                self._totals.popitem(last=False)
        else:
            self._totals.pop(key, None)
        return value
