"""The SQL of live updates: announcing changes on the channel, re-checking a stream's caller."""

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import Text, bindparam, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.live.schemas import LiveNotice
from tagtrack.models import ApiKey, User, UserSession

# One channel for every organisation: a process listens once and filters in memory.
CHANNEL = "tagtrack_live"


class LiveRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def announce(self, org_id: str, site_ids: Iterable[str]) -> None:
        """Notify listeners of the sites' changes when the transaction commits (not before)."""
        payloads = sorted(LiveNotice(org=org_id, site=site).model_dump_json() for site in site_ids)
        if not payloads:
            return
        # One round trip for all sites; PostgreSQL sends nothing if the transaction rolls back.
        each = func.unnest(bindparam("payloads", payloads, type_=ARRAY(Text)))
        await self.session.execute(select(func.pg_notify(CHANNEL, each)))

    async def session_sites(
        self, org_id: str, token_hash: str, now: datetime, lifetime: timedelta
    ) -> list[str] | None:
        """The sites of a session's user while the session is valid; never extends it."""
        stmt = (
            select(User.site_ids)
            .join(UserSession, UserSession.user_id == User.id)
            .where(
                UserSession.org_id == org_id,
                User.org_id == org_id,
                UserSession.token_hash == token_hash,
                UserSession.expires_at > now,
                UserSession.created_at > now - lifetime,
                User.active.is_(True),
            )
        )
        sites = (await self.session.execute(stmt)).scalar_one_or_none()
        return None if sites is None else list(sites)

    async def key_sites(self, org_id: str, key_id: str) -> list[str] | None:
        """The sites of an API key while it exists."""
        stmt = select(ApiKey.site_ids).where(ApiKey.org_id == org_id, ApiKey.id == key_id)
        sites = (await self.session.execute(stmt)).scalar_one_or_none()
        return None if sites is None else list(sites)
