from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from tagtrack.auth.dependencies import SignedIn, allowed
from tagtrack.auth.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.events.schemas import EventRead, ManualEvent, ZoneDurationRead, ZoneTotalRead
from tagtrack.events.service import EventService
from tagtrack.kit.lists import MAX_LIMIT, MAX_PAGE, set_total
from tagtrack.kit.schemas import UtcDateTime
from tagtrack.kit.wiring import provide
from tagtrack.kit.xlsx import XLSX_RESPONSE, download
from tagtrack.lookups.tracking import SiteQuery

router = APIRouter(tags=["events"], responses=ERROR_RESPONSES)


Service = Annotated[EventService, Depends(provide(EventService))]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT)]
Page = Annotated[int, Query(ge=0, le=MAX_PAGE, description="Zero-based page")]
After = Annotated[UtcDateTime | None, Query(description="From this time (inclusive)")]
Before = Annotated[UtcDateTime | None, Query(description="Up to this time (exclusive)")]
EndpointFilter = Annotated[str, Query(max_length=5000, description="Endpoint ids, comma separated")]
ThingFilter = Annotated[str, Query(max_length=24, description="Only this thing's")]


@router.get("/events", response_model=list[EventRead])
async def list_events(
    principal: SignedIn,
    service: Service,
    response: Response,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
    endpoint: Annotated[
        str, Query(max_length=5000, description="Endpoint ids, comma separated")
    ] = "",
    thing: ThingFilter = "",
    limit: Limit = 25,
    page: Page = 0,
) -> list[EventRead]:
    """Events by Last Seen, newest first; total in x-total-count."""
    events, total = await service.list_page(
        principal,
        site=site,
        after=after,
        before=before,
        endpoint=endpoint,
        thing=thing,
        limit=limit,
        page=page,
    )
    set_total(response, total)
    return events


@router.post("/events", response_model=EventRead, status_code=201)
async def create_event(
    body: ManualEvent,
    principal: Annotated[Principal, allowed("things", "modify")],
    service: Service,
) -> EventRead:
    """A manual event: the thing carrying the tag enters the zone now."""
    return await service.manual(principal, body)


@router.get("/zonedurations/totals", response_model=list[ZoneTotalRead])
async def zone_duration_totals(
    principal: SignedIn,
    service: Service,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
) -> list[ZoneTotalRead]:
    """Per zone (by name), the visits that overlap the period and their time inside it."""
    return await service.zone_totals(principal, site=site, after=after, before=before)


@router.get("/zonedurations/export", response_class=StreamingResponse, responses=XLSX_RESPONSE)
async def export_zone_durations(
    principal: SignedIn,
    service: Service,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
) -> StreamingResponse:
    """The Zones History of the period as zoneshistory.xlsx, newest first: Name, Site (All
    Sites), Zone, Start, End (site clock), Duration ([h]:mm; an open visit's so far)."""
    content = await service.durations_xlsx(principal, site=site, after=after, before=before)
    return download(content, "zoneshistory.xlsx")


@router.get("/zonedurations", response_model=list[ZoneDurationRead])
async def list_zone_durations(
    principal: SignedIn,
    service: Service,
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
