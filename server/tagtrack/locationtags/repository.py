from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import LocationTag, Zone


class LocationTagRepository(Repository[LocationTag]):
    model = LocationTag

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[LocationTag], int]:
        stmt = (
            select(LocationTag)
            .outerjoin(Zone, (Zone.org_id == LocationTag.org_id) & (Zone.id == LocationTag.zone_id))
            .where(LocationTag.org_id == org_id)
        )
        if site_ids is not None:
            stmt = stmt.where(LocationTag.site_id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": LocationTag.name, "tag": LocationTag.tag, "zone": Zone.name},
            default_sort="name",
            searchable=[LocationTag.name, LocationTag.tag, Zone.name],
            tiebreak=LocationTag.id,
        )

    async def get(self, org_id: str, tag_id: str) -> LocationTag | None:
        stmt = select(LocationTag).where(LocationTag.org_id == org_id, LocationTag.id == tag_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def tag_taken(self, org_id: str, tag: str, except_id: str | None) -> bool:
        stmt = select(LocationTag.id).where(LocationTag.org_id == org_id, LocationTag.tag == tag)
        if except_id:
            stmt = stmt.where(LocationTag.id != except_id)
        return await self.exists(stmt)
