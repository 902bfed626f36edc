"""A PostgreSQL LISTEN connection kept open for as long as a task runs.

It reconnects with backoff whenever the connection is lost and checks it is alive every
half minute, so a dropped connection (a failover, an idle timeout) is noticed even when no
notice comes. What was notified while no one listened is lost: each subclass decides, on
reconnection, how to make up for it.
"""

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable

import asyncpg
from sqlalchemy.engine import make_url

from tagtrack.core.logging import get_logger

log = get_logger("tagtrack.listening")

HEALTH_CHECK_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 10.0
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 30.0

Notice = Callable[[object, int, str, str], None]


def listener_dsn(database_url: str) -> str:
    """The plain PostgreSQL URL asyncpg connects with, from the app's SQLAlchemy URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Listener(ABC):
    """Listen on the channels of `channels()`; `listening()` runs after every (re)connection."""

    name = "listener"

    def __init__(self) -> None:
        self.connected = asyncio.Event()
        # Successful LISTENs so far: the first connection, then each reconnection.
        self.connections = 0
        self.connection: asyncpg.Connection | None = None

    @abstractmethod
    def channels(self) -> dict[str, Notice]:
        """Each channel to LISTEN on, with the callback for its notices."""

    @abstractmethod
    def listening(self) -> None:
        """Called once listening starts, and again after each reconnection: make up for
        what was notified while no one listened."""

    async def run(self, dsn: str) -> None:
        """Listen until cancelled, reconnecting with backoff whenever the connection is lost."""
        backoff = BACKOFF_FIRST_SECONDS
        while True:
            connections = self.connections
            try:
                await self._listen(dsn)
            except Exception as exc:  # the database away or restarting: try again later
                if self.connections > connections:
                    backoff = BACKOFF_FIRST_SECONDS  # it had worked: start the backoff over
                log.warning(
                    "listening failed; retrying",
                    listener=self.name,
                    error=str(exc),
                    retry_seconds=round(backoff, 1),
                )
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_SECONDS)

    async def _listen(self, dsn: str) -> None:
        connection = await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT_SECONDS)
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _c: lost.set())
        try:
            for channel, on_notice in self.channels().items():
                await connection.add_listener(channel, on_notice)
            self.connection = connection
            self.connections += 1
            self.connected.set()
            if self.connections > 1:
                log.info("listening again", listener=self.name)
            self.listening()
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), HEALTH_CHECK_SECONDS)
                if not lost.is_set():
                    await connection.fetchval("SELECT 1", timeout=CONNECT_TIMEOUT_SECONDS)
            raise ConnectionError("the listening connection was closed")
        finally:
            self.connected.clear()
            self.connection = None
            connection.terminate()
