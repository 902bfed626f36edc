from collections.abc import Sequence

from sqlalchemy import func, select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Role, Site, User


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
        stmt = select(User).where(func.lower(User.username) == username.lower())
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def username_taken(self, username: str, except_id: str | None = None) -> bool:
        stmt = select(User.id).where(func.lower(User.username) == username.lower())
        if except_id:
            stmt = stmt.where(User.id != except_id)
        return await self.exists(stmt)

    async def all_in_org(self, org_id: str) -> Sequence[User]:
        stmt = select(User).where(User.org_id == org_id).order_by(User.username)
        return (await self.session.execute(stmt)).scalars().all()

    async def roles_by_id(self, org_id: str, role_ids: list[str]) -> dict[str, Role]:
        stmt = select(Role).where(Role.org_id == org_id, Role.id.in_(role_ids))
        return {r.id: r for r in (await self.session.execute(stmt)).scalars().all()}

    async def site_ids_in_org(self, org_id: str, site_ids: list[str]) -> set[str]:
        stmt = select(Site.id).where(Site.org_id == org_id, Site.id.in_(site_ids))
        return set((await self.session.execute(stmt)).scalars().all())
