from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.sites.schemas import SiteRead, SiteWrite, TimezoneRead, timezone_names
from tagtrack.sites.service import SiteService

router = APIRouter(prefix="/sites", tags=["sites"], responses=ERROR_RESPONSES)
# The timezones, for pickers; documented with the other lookups.
pickers = APIRouter(tags=["lookups"])


Service = Annotated[SiteService, Depends(provide(SiteService))]


@router.get("", response_model=list[SiteRead])
async def list_sites(
    principal: SignedIn, service: Service, params: Listing, response: Response
) -> list[SiteRead]:
    """Sites in the caller's scope, sorted by name by default; total in x-total-count."""
    sites, total = await service.list_page(principal, params)
    set_total(response, total)
    return sites


@router.get("/{site_id}", response_model=SiteRead)
async def get_site(site_id: str, principal: SignedIn, service: Service) -> SiteRead:
    """One site in the caller's scope."""
    return await service.get(principal, site_id)


@router.post("", response_model=SiteRead, status_code=201)
async def create_site(
    body: SiteWrite,
    principal: Annotated[Principal, allowed("sites", "create")],
    service: Service,
) -> SiteRead:
    """Create a site; name, start date and timezone are required, names unique."""
    return await service.create(principal, body)


@router.put("/{site_id}", response_model=SiteRead)
async def update_site(
    site_id: str,
    body: SiteWrite,
    principal: Annotated[Principal, allowed("sites", "modify")],
    service: Service,
) -> SiteRead:
    """Replace a site's fields."""
    return await service.update(principal, site_id, body)


@router.delete("/{site_id}", status_code=204)
async def delete_site(
    site_id: str,
    principal: Annotated[Principal, allowed("sites", "delete")],
    service: Service,
) -> None:
    """Delete a site and everything it owns."""
    await service.delete(principal, site_id)


@pickers.get("/timezones", response_model=list[TimezoneRead])
async def timezones(principal: SignedIn) -> list[TimezoneRead]:
    """IANA timezone names, sorted."""
    return [TimezoneRead(id=name) for name in timezone_names()]
