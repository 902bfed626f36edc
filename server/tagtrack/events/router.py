from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from tagtrack.access.dependencies import SignedIn
from tagtrack.core.db import read_only
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.events.schemas import EventRead
from tagtrack.events.service import EventService
from tagtrack.kit.lists import (
    After,
    Before,
    Limit,
    Page,
    ThingFilter,
    set_total,
)
from tagtrack.kit.wiring import provide
from tagtrack.sites.scope import SiteQuery

router = APIRouter(tags=["events"], responses=ERROR_RESPONSES)


Service = Annotated[EventService, Depends(provide(EventService))]


@router.get("/events", response_model=list[EventRead])
@read_only
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
