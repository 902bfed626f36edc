from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.models import Role, Site, User


class UserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

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

    async def username_taken(self, username: str, except_id: str | None = None) -> bool:
        stmt = select(User.id).where(func.lower(User.username) == username.lower())
        if except_id:
            stmt = stmt.where(User.id != except_id)
        return (await self.session.execute(stmt.limit(1))).first() is not None

    async def add(self, user: User) -> User:
        self.session.add(user)
        await self.session.flush()
        return user

    async def delete(self, user: User) -> None:
        await self.session.execute(delete(User).where(User.id == user.id))

    async def all_in_org(self, org_id: str) -> Sequence[User]:
        stmt = select(User).where(User.org_id == org_id).order_by(User.username)
        return (await self.session.execute(stmt)).scalars().all()

    async def roles_by_id(self, org_id: str, role_ids: list[str]) -> dict[str, Role]:
        stmt = select(Role).where(Role.org_id == org_id, Role.id.in_(role_ids))
        return {r.id: r for r in (await self.session.execute(stmt)).scalars().all()}

    async def site_ids_in_org(self, org_id: str, site_ids: list[str]) -> set[str]:
        stmt = select(Site.id).where(Site.org_id == org_id, Site.id.in_(site_ids))
        return set((await self.session.execute(stmt)).scalars().all())
