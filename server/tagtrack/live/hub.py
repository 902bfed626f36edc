"""One LISTEN connection per process, fanning the database's live notices out to the streams
this process serves.

Any process may commit a change and any process may hold the console's stream: PostgreSQL
delivers each committed notice to every listening process, and each one hands it to its own
subscribers of that organization and site.
"""

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from pydantic import ValidationError

from tagtrack.core.listening import Listener, Notice, listener_dsn
from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import LIVE_STREAMS
from tagtrack.core.tasks import running
from tagtrack.live.repository import CHANNEL
from tagtrack.live.schemas import LiveNotice

log = get_logger("tagtrack.live")


@dataclass(eq=False)
class Subscription:
    """One open stream: its organization, its sites (None: all of them) and what changed."""

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


class LiveHub(Listener):
    name = "live updates"

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__()
        # The streams' timing (the gap between messages) runs on these.
        self.clock = clock
        self.sleep = sleep
        self.subscriptions: set[Subscription] = set()
        self.closing = False
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

    def channels(self) -> dict[str, Notice]:
        return {CHANNEL: self._on_notice}

    def listening(self) -> None:
        # Whatever was committed while no one listened is lost: streams refresh everything.
        for subscription in list(self.subscriptions):
            subscription.miss()

    async def run(self, dsn: str) -> None:
        self._loop = asyncio.get_running_loop()
        await super().run(dsn)


@asynccontextmanager
async def live_listener(hub: LiveHub, database_url: str) -> AsyncIterator[LiveHub]:
    """Run the hub's listener for the app's lifetime; open streams end when it stops."""
    async with running(hub.run(listener_dsn(database_url)), "live-listener"):
        try:
            yield hub
        finally:
            hub._close_all()
