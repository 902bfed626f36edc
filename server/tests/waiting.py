"""Wait on a condition, not for a fixed time: as quick as the machine allows."""

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 40) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


def eventually(check: Callable[[], Any], seconds: float = 60) -> Any:
    """Poll until check() returns something truthy, for tests outside an event loop; its last
    answer goes into the failure's message."""
    deadline = time.monotonic() + seconds
    while True:
        outcome = check()
        if outcome:
            return outcome
        assert time.monotonic() < deadline, f"timed out; last: {outcome!r}"
        time.sleep(0.3)
