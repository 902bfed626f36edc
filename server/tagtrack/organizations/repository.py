from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Organization


class OrganizationRepository(Repository[Organization]):
    model = Organization

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

    async def any_exist(self) -> bool:
        return await self.exists(select(Organization.id))

    async def subdomain_taken(self, subdomain: str, except_id: str | None) -> bool:
        stmt = select(Organization.id).where(Organization.subdomain == subdomain)
        if except_id:
            stmt = stmt.where(Organization.id != except_id)
        return await self.exists(stmt)

    async def by_subdomain(self, subdomain: str) -> Organization | None:
        stmt = select(Organization).where(Organization.subdomain == subdomain.lower())
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def the_only_one(self) -> Organization | None:
        """The organization of an installation that has exactly one."""
        rows = (await self.session.execute(select(Organization).limit(2))).scalars().all()
        return rows[0] if len(rows) == 1 else None
