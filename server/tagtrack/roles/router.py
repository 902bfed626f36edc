from typing import Annotated

from fastapi import APIRouter, Query

from tagtrack.access.dependencies import SignedIn
from tagtrack.access.roles import RoleRepository
from tagtrack.core.db import DbSession
from tagtrack.kit.lists import comma_list
from tagtrack.roles.schemas import AccessRuleRead, RoleRead
from tagtrack.roles.service import RoleService

router = APIRouter(tags=["roles"])


@router.get("/roles", response_model=list[RoleRead])
async def list_roles(principal: SignedIn, session: DbSession) -> list[RoleRead]:
    """Roles of the organisation, sorted by name (Super Admin only for super admins)."""
    return await RoleService(RoleRepository(session)).list_roles(principal)


@router.get("/accessRules", response_model=list[AccessRuleRead])
async def access_rules(
    principal: SignedIn,
    session: DbSession,
    roles: Annotated[str, Query(description="Comma-separated role ids", max_length=2000)] = "",
) -> list[AccessRuleRead]:
    """Rights per resource, merged over the given roles of this organisation."""
    role_ids = comma_list(roles)
    return await RoleService(RoleRepository(session)).access_rules(principal, role_ids)
