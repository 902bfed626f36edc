"""One LISTEN connection per process, fanning the database's live notices out to the streams
this process serves.

Any process may commit a change and any process may hold the console's stream: PostgreSQL
delivers each committed notice to every listening process, and each one hands it to its own
subscribers of that organisation and site.
"""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import asyncpg
from pydantic import ValidationError
from sqlalchemy.engine import make_url

from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import LIVE_STREAMS
from tagtrack.live.repository import CHANNEL
from tagtrack.live.schemas import LiveNotice

log = get_logger("tagtrack.live")

# A silent network failure is noticed by this periodic query on the listening connection.
HEALTH_CHECK_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 10.0
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 30.0


@dataclass(eq=False)
class Subscription:
    """One open stream: its organisation, its sites (None: all of them) and what changed."""

    org_id: str
    sites: frozenset[str] | None
    changed: set[str] = field(default_factory=set)
    missed: bool = False
    closing: bool = False
    # Set whenever there is something to send, or the stream must end.
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def pending(self) -> bool:
        return bool(self.changed) or self.missed

    def offer(self, notice: LiveNotice) -> None:
        if notice.org != self.org_id:
            return
        if self.sites is not None and notice.site not in self.sites:
            return
        self.changed.add(notice.site)
        self.wake.set()

    def miss(self) -> None:
        self.missed = True
        self.wake.set()

    def close(self) -> None:
        self.closing = True
        self.wake.set()

    def take(self) -> tuple[list[str], bool]:
        """The changed sites and the missed flag gathered since the last take."""
        sites, missed = sorted(self.changed), self.missed
        self.changed.clear()
        self.missed = False
        if not self.closing:
            self.wake.clear()
        return sites, missed


def listener_dsn(database_url: str) -> str:
    """The plain PostgreSQL URL asyncpg connects with, from the app's SQLAlchemy URL."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class LiveHub:
    def __init__(self) -> None:
        self.subscriptions: set[Subscription] = set()
        self.closing = False
        self.connected = asyncio.Event()
        # Successful LISTENs so far: the first connection, then each reconnection.
        self.connections = 0
        self.connection: asyncpg.Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, org_id: str, sites: frozenset[str] | None) -> Subscription:
        subscription = Subscription(org_id, sites)
        if self.closing:
            subscription.close()
        self.subscriptions.add(subscription)
        LIVE_STREAMS.inc()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        if subscription in self.subscriptions:
            self.subscriptions.remove(subscription)
            LIVE_STREAMS.dec()

    def deliver(self, payload: str) -> None:
        try:
            notice = LiveNotice.model_validate_json(payload)
        except ValidationError:
            log.warning("ignored a malformed live notice", notice=payload[:200])
            return
        for subscription in list(self.subscriptions):
            subscription.offer(notice)

    def close_streams(self) -> None:
        """End every open stream now; callable from a signal handler (the server stopping)."""
        if self._loop is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._close_all)

    def _close_all(self) -> None:
        self.closing = True
        for subscription in list(self.subscriptions):
            subscription.close()

    def _on_notice(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        self.deliver(payload)

    async def run(self, dsn: str) -> None:
        """Listen until cancelled, reconnecting with backoff whenever the connection is lost."""
        self._loop = asyncio.get_running_loop()
        backoff = BACKOFF_FIRST_SECONDS
        while True:
            connections = self.connections
            try:
                await self._listen(dsn)
            except Exception as exc:  # the database away or restarting: try again later
                if self.connections > connections:
                    backoff = BACKOFF_FIRST_SECONDS  # it had worked: start the backoff over
                log.warning(
                    "live updates: listening failed; retrying",
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
            await connection.add_listener(CHANNEL, self._on_notice)
            self.connection = connection
            self.connections += 1
            self.connected.set()
            if self.connections > 1:
                log.info("live updates: listening again")
            # Whatever was committed while no one listened is lost: streams refresh everything.
            for subscription in list(self.subscriptions):
                subscription.miss()
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


@asynccontextmanager
async def live_listener(hub: LiveHub, database_url: str) -> AsyncIterator[LiveHub]:
    """Run the hub's listener for the app's lifetime; open streams end when it stops."""
    task = asyncio.create_task(hub.run(listener_dsn(database_url)), name="live-listener")
    try:
        yield hub
    finally:
        hub._close_all()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
