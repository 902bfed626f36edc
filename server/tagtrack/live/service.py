"""A console's live stream: the changes of the sites it may see, as Server-Sent Events."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.principal import Principal
from tagtrack.access.repository import AuthRepository
from tagtrack.core.config import Settings
from tagtrack.core.logging import get_logger
from tagtrack.live.hub import LiveHub
from tagtrack.live.repository import LiveRepository
from tagtrack.live.schemas import LiveMessage
from tagtrack.models.base import utcnow
from tagtrack.sites.scope import sites_in_scope

log = get_logger("tagtrack.live")

# A comment now and then keeps proxies and load balancers from closing an idle stream.
KEEPALIVE_SECONDS = 25.0
# The first change after a quiet spell goes out at once; later ones are gathered into at most
# one message per polling period, so a busy site costs its consoles no more than polling did.
MESSAGE_GAP_SECONDS = 5.0
# The caller is checked again this often: a stream must not outlive its session or key.
RECHECK_SECONDS = 60.0
# How long the browser waits before reconnecting a stream that ended.
RETRY_MS = 5000
MAX_LIFETIME_SECONDS = 3600


def sse_message(message: LiveMessage) -> str:
    return f"data: {message.model_dump_json()}\n\n"


class LiveService:
    def __init__(
        self, hub: LiveHub, sessionmaker: async_sessionmaker[AsyncSession], settings: Settings
    ) -> None:
        self.hub = hub
        self.sessionmaker = sessionmaker
        self.settings = settings

    def scope(self, principal: Principal, site: str) -> frozenset[str] | None:
        """The sites the stream carries (None: all of the organization's); 404 outside scope."""
        sites = sites_in_scope(principal, site)
        return None if sites is None else frozenset(sites)

    async def stream(
        self, principal: Principal, sites: frozenset[str] | None, lifetime: float
    ) -> AsyncIterator[str]:
        """The stream's text until its lifetime ends, the caller loses access, the client
        goes away or the server stops."""
        subscription = self.hub.subscribe(principal.org_id, sites)
        clock, sleep = self.hub.clock, self.hub.sleep
        started = clock()
        end = started + lifetime
        next_keepalive = started + KEEPALIVE_SECONDS
        next_check = started + RECHECK_SECONDS
        sendable = started
        try:
            yield f"retry: {RETRY_MS}\n\n"
            while not subscription.closing:
                now = clock()
                if now >= end:
                    return
                if subscription.pending and now >= sendable:
                    changed, missed = subscription.take()
                    yield sse_message(LiveMessage(sites=changed, missed=missed))
                    sendable = now + MESSAGE_GAP_SECONDS
                    next_keepalive = now + KEEPALIVE_SECONDS
                    continue
                if now >= next_check:
                    if not await self.still_allowed(principal):
                        return
                    next_check = now + RECHECK_SECONDS
                    continue
                if now >= next_keepalive:
                    yield ": keepalive\n\n"
                    next_keepalive = now + KEEPALIVE_SECONDS
                    continue
                wake_at = min(end, next_keepalive, next_check)
                if subscription.pending:
                    # Something waits for the gap to pass: sleep until then, not on the event.
                    await sleep(min(wake_at, sendable) - now)
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(subscription.wake.wait(), wake_at - now)
        finally:
            self.hub.unsubscribe(subscription)

    async def still_allowed(self, principal: Principal) -> bool:
        """Whether the session or key still stands, with the same sites as when it opened."""
        try:
            async with self.sessionmaker() as session:
                repository = LiveRepository(session)
                if principal.api_key_id is not None:
                    sites = await repository.key_sites(principal.org_id, principal.api_key_id)
                else:
                    assert principal.session_token_hash is not None
                    # The sign-in's own check, except that watching is not a use of the session.
                    found = await AuthRepository(session).session_user(
                        principal.session_token_hash,
                        utcnow(),
                        idle=timedelta(minutes=self.settings.session_idle_minutes),
                        lifetime=timedelta(days=self.settings.session_days),
                        extend=False,
                    )
                    same_org = found is not None and found.user.org_id == principal.org_id
                    sites = found.user.site_ids if found is not None and same_org else None
        except Exception:  # the database away: the listener's reconnection tells the streams
            log.warning("live updates: could not check a stream's caller", exc_info=True)
            return True
        # Changed sites end the stream too: the browser reconnects with the new scope.
        return sites is not None and tuple(sites) == principal.site_ids
