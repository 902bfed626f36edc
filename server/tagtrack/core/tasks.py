"""Background work that lives as long as a `with` block: started on entry, cancelled on exit."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any


@asynccontextmanager
async def running(
    work: Coroutine[Any, Any, None] | None, name: str
) -> AsyncIterator[asyncio.Task[None] | None]:
    """The work's task for the block's lifetime; None runs nothing (work this process skips)."""
    if work is None:
        yield None
        return
    task = asyncio.create_task(work, name=name)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
