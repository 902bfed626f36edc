"""Who each session token or API key is, kept for up to a minute by every server process.

Every request starts by finding its caller: the session, the user and the rules of their
roles. A console polling a page asks that same question every few seconds, so each process
keeps the answer for TTL_SECONDS. It forgets everything at once when:

- a statement of this process changes what the answer is read from (`watch_writes`): when
  it runs, and again when its connection goes back to the pool (after its commit), so a
  request that read the old rows meanwhile keeps nothing;
- PostgreSQL notifies a change committed by any process (the triggers of migration
  0015_principal_notices, on the same tables);
- its LISTEN connection is lost, or comes back: nothing is kept while no one listens.

The idle deadline of a session is checked on every request against what was kept, which is
never later than the database's; at and past it the database is asked again.
"""

import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from tagtrack.access.principal import Grant, Principal
from tagtrack.core.listening import Listener, Notice, listener_dsn
from tagtrack.core.tasks import running

PRINCIPALS_CHANNEL = "tagtrack_principals"
# A safety net: every change to an answer is notified (above). Far longer than a console's
# 5-s polls, which at a limit of 5 s found their caller gone at about every other poll and
# read the session, the user and the role rules again.
TTL_SECONDS = 60.0
MAX_ENTRIES = 10_000
# Writes that change who a token is (the tables the notifying triggers watch). New sessions
# and a session's idle deadline moving on change no one's answer.
_CHANGES = re.compile(
    r'\s*(?:(?:UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?'
    r"(?:users|roles|access_rules|api_keys|sites|organizations)\b"
    r'|INSERT\s+INTO\s+"?access_rules\b|(?:DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+"?user_sessions\b)',
    re.IGNORECASE,
)
_CHANGED = "principals changed"


@dataclass(frozen=True)
class Kept:
    """A caller as found, without the request's client address."""

    principal: Principal
    # A session's: its idle deadline as last read or written, and when it began.
    expires_at: datetime | None
    created_at: datetime | None
    stored: float

    def usable(self, now: datetime, lifetime: timedelta) -> bool:
        if self.expires_at is None or self.created_at is None:
            return True  # an API key: no deadline
        return self.expires_at > now and self.created_at > now - lifetime


class PrincipalCache(Listener):
    name = "principals"

    def __init__(
        self, ttl: float = TTL_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.ttl = ttl
        self.clock = clock
        self.entries: dict[str, Kept] = {}
        # The rights of each set of roles: every console of a role has the same, and a start
        # under load would otherwise read them once for each session it meets.
        self.role_grants: dict[tuple[str, tuple[str, ...]], tuple[dict[str, Grant], float]] = {}
        # Bumped at every forgetting: a lookup that began before one keeps nothing.
        self.generation = 0
        self.notices = 0

    def channels(self) -> dict[str, Notice]:
        return {PRINCIPALS_CHANNEL: self._on_notice}

    def listening(self) -> None:
        self.forget()  # whatever changed while no one listened

    def _on_notice(self, _connection: object, _pid: int, _channel: str, _payload: str) -> None:
        self.notices += 1
        self.forget()

    def forget(self) -> None:
        self.generation += 1
        self.entries.clear()
        self.role_grants.clear()

    def get(self, key: str) -> Kept | None:
        if not self.connected.is_set():
            return None
        kept = self.entries.get(key)
        if kept is None or self.clock() - kept.stored > self.ttl:
            return None
        return kept

    def put(
        self,
        key: str,
        principal: Principal,
        generation: int,
        expires_at: datetime | None = None,
        created_at: datetime | None = None,
    ) -> None:
        """Keep what a lookup begun at `generation` found, unless something changed since."""
        if generation != self.generation or not self.connected.is_set():
            return
        if len(self.entries) >= MAX_ENTRIES:
            self.entries.clear()
        self.entries[key] = Kept(principal, expires_at, created_at, self.clock())

    def grants_of(self, org_id: str, role_ids: Sequence[str]) -> dict[str, Grant] | None:
        """The rights these roles were last found to grant, if still kept."""
        if not self.connected.is_set():
            return None
        kept = self.role_grants.get((org_id, tuple(sorted(role_ids))))
        if kept is None or self.clock() - kept[1] > self.ttl:
            return None
        return kept[0]

    def put_grants(
        self, org_id: str, role_ids: Sequence[str], grants: dict[str, Grant], generation: int
    ) -> None:
        """Keep what a lookup begun at `generation` found, unless something changed since."""
        if generation != self.generation or not self.connected.is_set():
            return
        if len(self.role_grants) >= MAX_ENTRIES:
            self.role_grants.clear()
        self.role_grants[(org_id, tuple(sorted(role_ids)))] = (grants, self.clock())

    def moved_deadline(self, key: str, kept: Kept, expires_at: datetime) -> None:
        """This process moved the session's idle deadline on."""
        if self.entries.get(key) is kept:
            self.entries[key] = Kept(kept.principal, expires_at, kept.created_at, kept.stored)


def watch_writes(engine: AsyncEngine, cache: PrincipalCache) -> None:
    """Forget every caller when a statement through this engine changes who a token is."""

    def executed(
        conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any, _many: bool
    ) -> None:
        if _CHANGES.match(statement):
            conn.info[_CHANGED] = True
            cache.forget()

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None and record.info.pop(_CHANGED, False):
            cache.forget()

    event.listen(engine.sync_engine, "before_cursor_execute", executed)
    event.listen(engine.sync_engine.pool, "checkin", checked_in)


@asynccontextmanager
async def principal_cache(
    cache: PrincipalCache, engine: AsyncEngine, database_url: str
) -> AsyncIterator[PrincipalCache]:
    """Keep callers while this block runs: listen for changes, watch this process's writes."""
    watch_writes(engine, cache)
    async with running(cache.run(listener_dsn(database_url)), "principals"):
        yield cache
    cache.forget()
