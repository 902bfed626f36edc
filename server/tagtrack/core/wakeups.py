"""One LISTEN connection per process that wakes its background workers.

A worker is woken by a NOTIFY sent in the transaction that gives it work (PostgreSQL
delivers it on commit, to every listening process). After a reconnection every worker is
woken once, for whatever was committed while no one listened.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tagtrack.core.listening import Listener, Notice, listener_dsn
from tagtrack.core.tasks import running

# New reads to process; mail to send.
READS_CHANNEL = "tagtrack_reads"
MAIL_CHANNEL = "tagtrack_mail"


class Wakeups(Listener):
    name = "wake-ups"

    def __init__(self) -> None:
        super().__init__()
        self.events: dict[str, asyncio.Event] = {}

    def event(self, channel: str) -> asyncio.Event:
        """The event set whenever a notice arrives on the channel."""
        return self.events.setdefault(channel, asyncio.Event())

    def _on_notice(self, _connection: object, _pid: int, channel: str, _payload: str) -> None:
        self.event(channel).set()

    def channels(self) -> dict[str, Notice]:
        return dict.fromkeys(self.events, self._on_notice)

    def listening(self) -> None:
        for event in self.events.values():
            event.set()


@asynccontextmanager
async def listening(wakeups: Wakeups, database_url: str) -> AsyncIterator[Wakeups]:
    """Listen for the channels asked for so far (ask with `event` before entering)."""
    async with running(wakeups.run(listener_dsn(database_url)), "wakeups"):
        yield wakeups
