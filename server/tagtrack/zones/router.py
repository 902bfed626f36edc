from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.auth.dependencies import SignedIn, allowed
from tagtrack.auth.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.lookups.tracking import SiteQuery
from tagtrack.zones.schemas import ZoneRead, ZoneWrite
from tagtrack.zones.service import ZoneService

router = APIRouter(prefix="/zones", tags=["zones"], responses=ERROR_RESPONSES)


Service = Annotated[ZoneService, Depends(provide(ZoneService))]


@router.get("", response_model=list[ZoneRead])
async def list_zones(
    principal: SignedIn, service: Service, params: Listing, response: Response, site: SiteQuery = ""
) -> list[ZoneRead]:
    """Zones of the site (or every site in scope) with gates and item/worker counts."""
    zones, total = await service.list_page(principal, site, params)
    set_total(response, total)
    return zones


@router.get("/{zone_id}", response_model=ZoneRead)
async def get_zone(zone_id: str, principal: SignedIn, service: Service) -> ZoneRead:
    """One zone with its gates and counts."""
    return await service.get(principal, zone_id)


@router.post("", response_model=ZoneRead, status_code=201)
async def create_zone(
    body: ZoneWrite,
    principal: Annotated[Principal, allowed("zones", "create")],
    service: Service,
) -> ZoneRead:
    """Create a zone. Names are unique per site (400 'duplicate'); each gate needs an
    endpoint of the zone's site (400 'Please select an value' when missing)."""
    return await service.create(principal, body)


@router.put("/{zone_id}", response_model=ZoneRead)
async def update_zone(
    zone_id: str,
    body: ZoneWrite,
    principal: Annotated[Principal, allowed("zones", "modify")],
    service: Service,
) -> ZoneRead:
    """Replace a zone's fields and its gates (in the given order)."""
    return await service.update(principal, zone_id, body)


@router.delete("/{zone_id}", status_code=204)
async def delete_zone(
    zone_id: str,
    principal: Annotated[Principal, allowed("zones", "delete")],
    service: Service,
) -> None:
    """Delete a zone and its gates; things in it are left in no zone."""
    await service.delete(principal, zone_id)
