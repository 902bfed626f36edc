from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.models import OrgSettings, SiteSettings


class SettingsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def org_settings(self, org_id: str) -> dict[str, Any]:
        stmt = select(OrgSettings.settings).where(OrgSettings.org_id == org_id)
        return (await self.session.execute(stmt)).scalar_one_or_none() or {}

    async def save_org_settings(self, org_id: str, settings: dict[str, Any]) -> None:
        stmt = insert(OrgSettings).values(org_id=org_id, settings=settings)
        stmt = stmt.on_conflict_do_update(
            index_elements=[OrgSettings.org_id], set_={"settings": settings}
        )
        await self.session.execute(stmt)

    async def site_settings(self, org_id: str, site_id: str) -> dict[str, Any]:
        stmt = select(SiteSettings.settings).where(
            SiteSettings.org_id == org_id, SiteSettings.site_id == site_id
        )
        return (await self.session.execute(stmt)).scalar_one_or_none() or {}

    async def save_site_settings(self, org_id: str, site_id: str, settings: dict[str, Any]) -> None:
        stmt = insert(SiteSettings).values(site_id=site_id, org_id=org_id, settings=settings)
        stmt = stmt.on_conflict_do_update(
            index_elements=[SiteSettings.org_id, SiteSettings.site_id], set_={"settings": settings}
        )
        await self.session.execute(stmt)
