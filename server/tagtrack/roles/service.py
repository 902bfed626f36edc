from collections.abc import Sequence

from tagtrack.auth.principal import Principal
from tagtrack.roles.repository import RoleRepository
from tagtrack.roles.rules import SUPER_ADMIN
from tagtrack.roles.schemas import AccessRuleRead, RoleRead


def merge_rules(rules: Sequence[tuple[str, bool, bool, bool]]) -> dict[str, AccessRuleRead]:
    """A user holds a right when any of their roles grants it."""
    merged: dict[str, AccessRuleRead] = {}
    for resource, create, modify, delete in rules:
        current = merged.get(resource)
        if current is None:
            merged[resource] = AccessRuleRead(
                resource=resource, create=create, modify=modify, delete=delete
            )
        else:
            current.create |= create
            current.modify |= modify
            current.delete |= delete
    return merged


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
        merged = merge_rules([(r.resource, r.create, r.modify, r.delete) for r in rows])
        return sorted(merged.values(), key=lambda rule: rule.resource)
