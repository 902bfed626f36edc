from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.locationtags.schemas import LocationTagRead, LocationTagWrite
from tagtrack.locationtags.service import LocationTagService
from tagtrack.sites.scope import SiteQuery

router = APIRouter(prefix="/locationtags", tags=["locationtags"], responses=ERROR_RESPONSES)


Service = Annotated[LocationTagService, Depends(provide(LocationTagService))]


@router.get("", response_model=list[LocationTagRead])
async def list_location_tags(
    principal: SignedIn, service: Service, params: Listing, response: Response, site: SiteQuery = ""
) -> list[LocationTagRead]:
    """Location tags of the site; search over name, tag and zone name; sort name, tag, zone."""
    rows, total = await service.list_page(principal, site, params)
    set_total(response, total)
    return rows


@router.get("/{tag_id}", response_model=LocationTagRead)
async def get_location_tag(tag_id: str, principal: SignedIn, service: Service) -> LocationTagRead:
    """One location tag."""
    return await service.get(principal, tag_id)


@router.post("", response_model=LocationTagRead, status_code=201)
async def create_location_tag(
    body: LocationTagWrite,
    principal: Annotated[Principal, allowed("locationtags", "create")],
    service: Service,
) -> LocationTagRead:
    """Create a location tag: name and tag required; the tag is upper-cased and unique in
    the organization (400 'duplicate'); the zone must be of the same site."""
    return await service.create(principal, body)


@router.put("/{tag_id}", response_model=LocationTagRead)
async def update_location_tag(
    tag_id: str,
    body: LocationTagWrite,
    principal: Annotated[Principal, allowed("locationtags", "modify")],
    service: Service,
) -> LocationTagRead:
    """Replace a location tag's fields."""
    return await service.update(principal, tag_id, body)


@router.delete("/{tag_id}", status_code=204)
async def delete_location_tag(
    tag_id: str,
    principal: Annotated[Principal, allowed("locationtags", "delete")],
    service: Service,
) -> None:
    """Delete a location tag."""
    await service.delete(principal, tag_id)
