"""A monotonic clock a test moves on by hand, for the code that takes `clock=`."""

import time


class Clock:
    def __init__(self, start: float | None = None) -> None:
        # From the real clock's reading by default: times kept before the swap stay comparable.
        self.seconds = time.monotonic() if start is None else start

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds
