"""Wait on a condition, not for a fixed time: as quick as the machine allows."""

import asyncio
from collections.abc import Awaitable, Callable


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 40) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)
