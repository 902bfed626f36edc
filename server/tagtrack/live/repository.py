"""The SQL of live updates: announcing changes on the channel, re-checking a stream's key."""

from collections.abc import Iterable

from sqlalchemy import Text, bindparam, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.live.schemas import LiveNotice
from tagtrack.models import ApiKey

# One channel for every organization: a process listens once and filters in memory.
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

    async def key_sites(self, org_id: str, key_id: str) -> list[str] | None:
        """The sites of an API key while it exists."""
        stmt = select(ApiKey.site_ids).where(ApiKey.org_id == org_id, ApiKey.id == key_id)
        sites = (await self.session.execute(stmt)).scalar_one_or_none()
        return None if sites is None else list(sites)
