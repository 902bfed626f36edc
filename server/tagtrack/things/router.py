from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from tagtrack.access.dependencies import SignedIn
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.core.text import comma_list
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.schemas import Choice, UtcDateTime
from tagtrack.kit.wiring import provide
from tagtrack.kit.xlsx import XLSX_MEDIA_TYPE
from tagtrack.sites.scope import SiteQuery, sites_in_scope
from tagtrack.things.repository import ThingFilter
from tagtrack.things.schemas import THING_CLASSES, ThingClass, ThingCreate, ThingRead, ThingUpdate
from tagtrack.things.service import ThingService

router = APIRouter(prefix="/things", tags=["things"], responses=ERROR_RESPONSES)
# The thing classes, for pickers; documented with the other lookups.
pickers = APIRouter(tags=["lookups"])


async def _filters(
    principal: SignedIn,
    site: SiteQuery = "",
    thing_class: Annotated[ThingClass | None, Query(alias="class")] = None,
    tags: Annotated[str, Query(max_length=4000, description="Comma list: any of them")] = "",
    category: Annotated[str, Query(max_length=200, description="Has this category")] = "",
    after: Annotated[
        UtcDateTime | None, Query(description="Last event at or after this time")
    ] = None,
) -> ThingFilter:
    return ThingFilter(
        site_ids=sites_in_scope(principal, site),
        thing_class=thing_class or "",
        tags=tuple(comma_list(tags)),
        category=category,
        after=after,
    )


Service = Annotated[ThingService, Depends(provide(ThingService))]
Filters = Annotated[ThingFilter, Depends(_filters)]


@router.get("", response_model=list[ThingRead])
async def list_things(
    principal: SignedIn, service: Service, filters: Filters, params: Listing, response: Response
) -> list[ThingRead]:
    """Things of the site (All Sites: the caller's sites). `search` matches name, serial,
    description and every tag; sort name (default), serial, class, timeCreated,
    timeModified, lastEvent, lastZoneTime, zoneName, endpointName (also as common.x /
    state.x)."""
    things, total = await service.list_page(principal, filters, params)
    set_total(response, total)
    return things


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {XLSX_MEDIA_TYPE: {}}, "description": "An XLSX workbook"}},
)
async def export_things(
    principal: SignedIn,
    service: Service,
    filters: Filters,
    params: Listing,
    download: bool = True,
) -> StreamingResponse:
    """The list's rows (every page, same filters, search and sort) as an XLSX attachment,
    with the site's name and serial labels as column titles."""
    filename, content = await service.export(principal, filters, params)
    disposition = "attachment" if download else "inline"
    return StreamingResponse(
        content,
        media_type=XLSX_MEDIA_TYPE,
        headers={"Content-Disposition": f'{disposition}; filename="{filename}"'},
    )


@router.get("/tag/{tag}", response_model=ThingRead)
async def thing_by_tag(tag: str, principal: SignedIn, service: Service) -> ThingRead:
    """The thing carrying this tag in any tag field (case-insensitive); 404 otherwise."""
    return await service.by_tag(principal, tag)


@router.get("/{thing_id}", response_model=ThingRead)
async def get_thing(thing_id: str, principal: SignedIn, service: Service) -> ThingRead:
    """One thing; unset times are 0001-01-01T00:00:00Z."""
    return await service.get(principal, thing_id)


@router.get("/{thing_id}/children", response_model=list[ThingRead])
async def thing_children(
    thing_id: str,
    principal: SignedIn,
    service: Service,
    filters: Filters,
    params: Listing,
    response: Response,
) -> list[ThingRead]:
    """Things whose parents contain this thing; total in x-total-count."""
    things, total = await service.children(principal, thing_id, filters, params)
    set_total(response, total)
    return things


@router.get("/{thing_id}/parents", response_model=list[ThingRead])
async def thing_parents(
    thing_id: str,
    principal: SignedIn,
    service: Service,
    filters: Filters,
    params: Listing,
    response: Response,
) -> list[ThingRead]:
    """The things in this thing's parents; total in x-total-count."""
    things, total = await service.parents(principal, thing_id, filters, params)
    set_total(response, total)
    return things


@router.post("", response_model=ThingRead, status_code=201)
async def create_thing(body: ThingCreate, principal: SignedIn, service: Service) -> ThingRead:
    """Create a thing: `common.class` is required; tags are upper-cased and unique in the
    organization (400 'Tag X is a duplicate of another thing's tag'). Needs the create right
    on `items` for an item, on `workers` for a worker."""
    return await service.create(principal, body)


@router.put("/{thing_id}", response_model=ThingRead)
async def update_thing(
    thing_id: str, body: ThingUpdate, principal: SignedIn, service: Service
) -> ThingRead:
    """Replace a thing's common fields and data. `common.class` cannot change (400);
    `state` is ignored except `alarmTamper: false`, which clears the tamper alarm;
    `parents` must be things of the organization (400 'Parent no longer exists.'). Needs the
    modify right on `items` or `workers` by the thing's class."""
    return await service.update(principal, thing_id, body)


@router.delete("/{thing_id}", status_code=204)
async def delete_thing(thing_id: str, principal: SignedIn, service: Service) -> None:
    """Delete a thing (it leaves its children's parents); needs the delete right on `items`
    or `workers` by the thing's class."""
    await service.delete(principal, thing_id)


@pickers.get("/thingclasses", response_model=list[Choice])
async def thing_classes(principal: SignedIn) -> list[Choice]:
    """The classes of things: item and worker."""
    return list(THING_CLASSES)
