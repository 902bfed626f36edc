from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Map, Site


class SiteRepository(Repository[Site]):
    model = Site

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[Site], int]:
        stmt = select(Site).where(Site.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Site.id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": Site.name, "startDate": Site.start_date, "city": Site.city},
            default_sort="name",
            searchable=[Site.name, Site.description, Site.city],
            tiebreak=Site.id,
        )

    async def get(self, org_id: str, site_id: str) -> Site | None:
        stmt = select(Site).where(Site.org_id == org_id, Site.id == site_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def name_taken(self, org_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(Site.id).where(Site.org_id == org_id, Site.name == name)
        if except_id:
            stmt = stmt.where(Site.id != except_id)
        return await self.exists(stmt)

    async def floor_plan_keys(self, org_id: str, site_id: str) -> list[str]:
        stmt = select(Map.image_key).where(
            Map.org_id == org_id, Map.site_id == site_id, Map.image_key != ""
        )
        return list((await self.session.scalars(stmt)).all())
