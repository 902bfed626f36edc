"""A monotonic clock a test moves on by hand, for the code that takes `clock=` (and `sleep=`)."""

import asyncio
import time


class Clock:
    def __init__(self, start: float | None = None) -> None:
        # From the real clock's reading by default: times kept before the swap stay comparable.
        self.seconds = time.monotonic() if start is None else start
        # When each of those asleep on this clock wakes.
        self.sleepers: list[float] = []
        self._moved = asyncio.Event()

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        """Until the clock has been moved on by the seconds."""
        wake = self.seconds + seconds
        self.sleepers.append(wake)
        try:
            await asyncio.sleep(0)
            while self.seconds < wake:
                await self._moved.wait()
        finally:
            self.sleepers.remove(wake)
