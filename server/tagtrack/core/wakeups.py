"""One LISTEN connection per process that wakes its background workers.

A worker is woken by a NOTIFY sent in the transaction that gives it work (PostgreSQL
delivers it on commit, to every listening process). After a reconnection every worker is
woken once, for whatever was committed while no one listened.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from tagtrack.core.tasks import running
from tagtrack.live.hub import listener_dsn

log = logging.getLogger("tagtrack.wakeups")

# New reads to process; mail to send.
READS_CHANNEL = "tagtrack_reads"
MAIL_CHANNEL = "tagtrack_mail"

HEALTH_CHECK_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 10.0
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 30.0


class Wakeups:
    def __init__(self) -> None:
        self.events: dict[str, asyncio.Event] = {}
        self.connected = asyncio.Event()

    def event(self, channel: str) -> asyncio.Event:
        """The event set whenever a notice arrives on the channel."""
        return self.events.setdefault(channel, asyncio.Event())

    def _on_notice(self, _connection: object, _pid: int, channel: str, _payload: str) -> None:
        self.event(channel).set()

    async def run(self, dsn: str) -> None:
        """Listen until cancelled, reconnecting with backoff whenever the connection is lost."""
        backoff = BACKOFF_FIRST_SECONDS
        while True:
            try:
                await self._listen(dsn)
            except Exception as exc:  # the database away or restarting: try again later
                if self.connected.is_set():
                    backoff = BACKOFF_FIRST_SECONDS
                log.warning("wake-ups: listening failed (%s); retrying in %.1fs", exc, backoff)
            self.connected.clear()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_SECONDS)

    async def _listen(self, dsn: str) -> None:
        connection = await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT_SECONDS)
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _c: lost.set())
        try:
            for channel in list(self.events):
                await connection.add_listener(channel, self._on_notice)
            self.connected.set()
            for event in self.events.values():
                event.set()
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), HEALTH_CHECK_SECONDS)
                if not lost.is_set():
                    await connection.fetchval("SELECT 1", timeout=CONNECT_TIMEOUT_SECONDS)
            raise ConnectionError("the listening connection was closed")
        finally:
            connection.terminate()


@asynccontextmanager
async def listening(wakeups: Wakeups, database_url: str) -> AsyncIterator[Wakeups]:
    """Listen for the channels asked for so far (ask with `event` before entering)."""
    async with running(wakeups.run(listener_dsn(database_url)), "wakeups"):
        yield wakeups
