from typing import Annotated

from fastapi import APIRouter, Depends, Query

from tagtrack.access.dependencies import SignedIn
from tagtrack.core.text import comma_list
from tagtrack.kit.wiring import provide
from tagtrack.roles.schemas import AccessRuleRead, RoleRead
from tagtrack.roles.service import RoleService

router = APIRouter(tags=["roles"])
Service = Annotated[RoleService, Depends(provide(RoleService))]


@router.get("/roles", response_model=list[RoleRead])
async def list_roles(principal: SignedIn, service: Service) -> list[RoleRead]:
    """Roles of the organization, sorted by name (Super Admin only for super admins)."""
    return await service.list_roles(principal)


@router.get("/accessRules", response_model=list[AccessRuleRead])
async def access_rules(
    principal: SignedIn,
    service: Service,
    roles: Annotated[str, Query(description="Comma-separated role ids", max_length=2000)] = "",
) -> list[AccessRuleRead]:
    """Rights per resource, merged over the given roles of this organization."""
    role_ids = comma_list(roles)
    return await service.access_rules(principal, role_ids)
