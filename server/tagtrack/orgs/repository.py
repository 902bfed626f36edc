from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.models import Organization


class OrganizationRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def list_page(self, params: ListParams) -> tuple[Sequence[Organization], int]:
        return await paginate(
            self.session,
            select(Organization),
            params,
            sortable={
                "name": Organization.name,
                "subdomain": Organization.subdomain,
                "timeCreated": Organization.time_created,
            },
            default_sort="name",
            searchable=[Organization.name, Organization.subdomain],
            tiebreak=Organization.id,
        )

    async def get(self, org_id: str) -> Organization | None:
        return await self.session.get(Organization, org_id)

    async def count(self) -> int:
        return len((await self.session.execute(select(Organization.id).limit(1))).all())

    async def subdomain_taken(self, subdomain: str, except_id: str | None) -> bool:
        stmt = select(Organization.id).where(Organization.subdomain == subdomain)
        if except_id:
            stmt = stmt.where(Organization.id != except_id)
        return (await self.session.execute(stmt.limit(1))).first() is not None

    async def add(self, org: Organization) -> Organization:
        self.session.add(org)
        await self.session.flush()
        return org

    async def delete(self, org: Organization) -> None:
        await self.session.execute(delete(Organization).where(Organization.id == org.id))
