from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.access.rules import SEEDED_ROLES, seeded_rules
from tagtrack.models import AccessRule, Role


class RoleRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def list_for_org(self, org_id: str) -> Sequence[Role]:
        stmt = select(Role).where(Role.org_id == org_id).order_by(Role.name)
        return (await self.session.execute(stmt)).scalars().all()

    async def rules_for_roles(self, org_id: str, role_ids: Sequence[str]) -> Sequence[AccessRule]:
        stmt = select(AccessRule).where(
            AccessRule.org_id == org_id, AccessRule.role_id.in_(list(role_ids))
        )
        return (await self.session.execute(stmt)).scalars().all()

    async def seed_org_roles(self, org_id: str) -> dict[str, Role]:
        roles: dict[str, Role] = {}
        for name in SEEDED_ROLES:
            role = Role(org_id=org_id, name=name)
            self.session.add(role)
            roles[name] = role
        await self.session.flush()
        for name, role in roles.items():
            for resource, (create, modify, delete) in seeded_rules(name).items():
                self.session.add(
                    AccessRule(
                        role_id=role.id,
                        org_id=org_id,
                        resource=resource,
                        create=create,
                        modify=modify,
                        delete=delete,
                    )
                )
        await self.session.flush()
        return roles
