from typing import Annotated

from fastapi import APIRouter, Depends, Response
from fastapi.responses import StreamingResponse

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import After, Before, Limit, Listing, Page, ThingFilter, set_total
from tagtrack.kit.schemas import Choice
from tagtrack.kit.wiring import provide
from tagtrack.kit.xlsx import XLSX_RESPONSE, download
from tagtrack.sites.scope import SiteQuery
from tagtrack.zones.schemas import KILL_MODES, ZoneDurationRead, ZoneRead, ZoneTotalRead, ZoneWrite
from tagtrack.zones.service import ZoneDurationService, ZoneService

router = APIRouter(prefix="/zones", tags=["zones"], responses=ERROR_RESPONSES)
# The visits to zones, documented with the events they come from.
durations = APIRouter(tags=["events"], responses=ERROR_RESPONSES)
# The kill modes, for pickers; documented with the other lookups.
pickers = APIRouter(tags=["lookups"])


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


@pickers.get("/killmodes", response_model=list[Choice])
async def kill_modes(principal: SignedIn) -> list[Choice]:
    """What a zone's kill does: leave the zone, or leave the site."""
    return list(KILL_MODES)


DurationService = Annotated[ZoneDurationService, Depends(provide(ZoneDurationService))]


@durations.get("/zonedurations/totals", response_model=list[ZoneTotalRead])
async def zone_duration_totals(
    principal: SignedIn,
    service: DurationService,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
) -> list[ZoneTotalRead]:
    """Per zone (by name), the visits that overlap the period and their time inside it."""
    return await service.zone_totals(principal, site=site, after=after, before=before)


@durations.get("/zonedurations/export", response_class=StreamingResponse, responses=XLSX_RESPONSE)
async def export_zone_durations(
    principal: SignedIn,
    service: DurationService,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
) -> StreamingResponse:
    """The Zones History of the period as zoneshistory.xlsx, newest first: Name, Site (All
    Sites), Zone, Start, End (site clock), Duration ([h]:mm; an open visit's so far)."""
    content = await service.durations_xlsx(principal, site=site, after=after, before=before)
    return download(content, "zoneshistory.xlsx")


@durations.get("/zonedurations", response_model=list[ZoneDurationRead])
async def list_zone_durations(
    principal: SignedIn,
    service: DurationService,
    response: Response,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
    thing: ThingFilter = "",
    limit: Limit = 10000,
    page: Page = 0,
) -> list[ZoneDurationRead]:
    """Visits of things to zones that overlap the period, newest first."""
    visits, total = await service.durations(
        principal, site=site, after=after, before=before, thing=thing, limit=limit, page=page
    )
    set_total(response, total)
    return visits
