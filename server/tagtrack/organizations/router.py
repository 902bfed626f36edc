from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.access.dependencies import allowed, require_super_admin
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.organizations.schemas import OrganizationRead, OrganizationWrite
from tagtrack.organizations.service import OrganizationService

router = APIRouter(prefix="/organizations", tags=["organizations"], responses=ERROR_RESPONSES)


Service = Annotated[OrganizationService, Depends(provide(OrganizationService))]
SuperAdmin = Annotated[Principal, require_super_admin()]


@router.get("", response_model=list[OrganizationRead])
async def list_organizations(
    principal: SuperAdmin, service: Service, params: Listing, response: Response
) -> list[OrganizationRead]:
    """Every organization (super admins only); total in x-total-count."""
    orgs, total = await service.list_page(params)
    set_total(response, total)
    return orgs


@router.get("/{org_id}", response_model=OrganizationRead)
async def get_organization(
    org_id: str, principal: SuperAdmin, service: Service
) -> OrganizationRead:
    """One organization (super admins only)."""
    return await service.get(org_id)


@router.post("", response_model=OrganizationRead, status_code=201)
async def create_organization(
    body: OrganizationWrite,
    principal: Annotated[Principal, allowed("organizations", "create")],
    service: Service,
) -> OrganizationRead:
    """Create an organization with the seeded roles; subdomains are unique."""
    return await service.create(principal, body)


@router.put("/{org_id}", response_model=OrganizationRead)
async def update_organization(
    org_id: str,
    body: OrganizationWrite,
    principal: Annotated[Principal, allowed("organizations", "modify")],
    service: Service,
) -> OrganizationRead:
    """Replace an organization's fields."""
    return await service.update(principal, org_id, body)


@router.delete("/{org_id}", status_code=204)
async def delete_organization(
    org_id: str,
    principal: Annotated[Principal, allowed("organizations", "delete")],
    service: Service,
) -> None:
    """Delete another organization and everything it owns."""
    await service.delete(principal, org_id)
