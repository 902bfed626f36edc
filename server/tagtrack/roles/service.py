from tagtrack.access.principal import Principal, merge_grants
from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import SUPER_ADMIN
from tagtrack.roles.schemas import AccessRuleRead, RoleRead


class RoleService:
    def __init__(self, repository: RoleRepository) -> None:
        self.repository = repository

    async def list_roles(self, principal: Principal) -> list[RoleRead]:
        roles = await self.repository.list_for_org(principal.org_id)
        return [
            RoleRead(id=r.id, name=r.name)
            for r in roles
            if r.name != SUPER_ADMIN or principal.super_admin
        ]

    async def access_rules(self, principal: Principal, role_ids: list[str]) -> list[AccessRuleRead]:
        rows = await self.repository.rules_for_roles(principal.org_id, role_ids)
        grants = merge_grants((r.resource, r.create, r.modify, r.delete) for r in rows)
        return [
            AccessRuleRead(resource=resource, create=g.create, modify=g.modify, delete=g.delete)
            for resource, g in sorted(grants.items())
        ]
