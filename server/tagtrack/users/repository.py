from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.access.org_keys import OrgKeyRepository
from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Role, Site, User
from tagtrack.models.org_key import USERNAME


class UserRepository(Repository[User]):
    model = User

    async def list_page(self, org_id: str, params: ListParams) -> tuple[Sequence[User], int]:
        return await paginate(
            self.session,
            select(User).where(User.org_id == org_id),
            params,
            sortable={"name": User.name, "username": User.username},
            default_sort="name",
            searchable=[User.name, User.username],
            tiebreak=User.id,
        )

    async def get(self, org_id: str, user_id: str) -> User | None:
        stmt = select(User).where(User.org_id == org_id, User.id == user_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def by_username(self, username: str) -> User | None:
        """Sign-in names no organization: org_keys says whose the username is."""
        owner = await OrgKeyRepository(self.session).owner(USERNAME, username.lower())
        return await self.get(*owner) if owner else None

    async def username_taken(self, username: str, except_id: str | None = None) -> bool:
        """Taken in any organization: usernames are unique across them."""
        return await OrgKeyRepository(self.session).taken(USERNAME, username.lower(), except_id)

    async def all_in_org(self, org_id: str) -> Sequence[User]:
        stmt = select(User).where(User.org_id == org_id).order_by(User.username)
        return (await self.session.execute(stmt)).scalars().all()

    async def roles_by_id(self, org_id: str, role_ids: list[str]) -> dict[str, Role]:
        stmt = select(Role).where(Role.org_id == org_id, Role.id.in_(role_ids))
        return {r.id: r for r in (await self.session.execute(stmt)).scalars().all()}

    async def site_ids_in_org(self, org_id: str, site_ids: list[str]) -> set[str]:
        stmt = select(Site.id).where(Site.org_id == org_id, Site.id.in_(site_ids))
        return set((await self.session.execute(stmt)).scalars().all())
