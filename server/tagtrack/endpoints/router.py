from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Response

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.db import read_only
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.endpoints.schemas import EndpointRead, EndpointStatusRead, EndpointWrite, EventSource
from tagtrack.endpoints.service import EndpointService
from tagtrack.kit.lists import MAX_LIMIT, Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.sites.scope import SiteQuery

router = APIRouter(tags=["endpoints"], responses=ERROR_RESPONSES)


Service = Annotated[EndpointService, Depends(provide(EndpointService))]
Modifier = Annotated[Principal, allowed("endpoints", "modify")]
ConfigBody = Annotated[dict[str, Any], Body(description="Any JSON object up to 64 KiB")]


@router.get("/endpoints", response_model=list[EndpointRead])
async def list_endpoints(
    principal: SignedIn, service: Service, params: Listing, response: Response, site: SiteQuery = ""
) -> list[EndpointRead]:
    """Endpoints of the site (or every site in scope), by name; total in x-total-count."""
    endpoints, total = await service.list_page(principal, site, params)
    set_total(response, total)
    return endpoints


@router.get("/endpoints/status", response_model=list[EndpointStatusRead])
@read_only
async def latest_statuses(
    principal: SignedIn,
    service: Service,
    endpoint: Annotated[str, Query(max_length=24, description="One endpoint's id")] = "",
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="With endpoint only")] = 1,
    site: SiteQuery = "",
) -> list[EndpointStatusRead]:
    """With endpoint: its latest `limit` heartbeats, latest first. Without: the latest
    heartbeat of every endpoint of `site` that ever reported, latest first."""
    return await service.latest(principal, endpoint, site, limit)


@router.get("/endpoints/status/{endpoint_id}", response_model=list[EndpointStatusRead])
async def status_history(
    endpoint_id: str, principal: SignedIn, service: Service, params: Listing, response: Response
) -> list[EndpointStatusRead]:
    """Heartbeat history of one endpoint, latest first (sort `time`); total in x-total-count."""
    statuses, total = await service.status_page(principal, endpoint_id, params)
    set_total(response, total)
    return statuses


@router.get("/endpoints/statusfb/{endpoint_id}", response_model=EndpointStatusRead)
async def latest_status(
    endpoint_id: str, principal: SignedIn, service: Service
) -> EndpointStatusRead:
    """The latest heartbeat of one endpoint; 404 when it never reported."""
    return await service.latest_one(principal, endpoint_id)


@router.get("/endpoints/config/{endpoint_id}", response_model=dict[str, Any])
async def get_config(endpoint_id: str, principal: SignedIn, service: Service) -> dict[str, Any]:
    """The reader's configuration object ({} until one is saved)."""
    return await service.config(principal, endpoint_id)


@router.put("/endpoints/config/{endpoint_id}", response_model=dict[str, Any])
async def save_config(
    endpoint_id: str, body: ConfigBody, principal: Modifier, service: Service
) -> dict[str, Any]:
    """Replace the reader's configuration: a JSON object of at most 64 KiB."""
    return await service.save_config(principal, endpoint_id, body)


@router.get("/endpoints/{endpoint_id}", response_model=EndpointRead)
async def get_endpoint(endpoint_id: str, principal: SignedIn, service: Service) -> EndpointRead:
    """One endpoint with its latest heartbeat."""
    return await service.get(principal, endpoint_id)


@router.post("/endpoints", response_model=EndpointRead, status_code=201)
async def create_endpoint(
    body: EndpointWrite,
    principal: Annotated[Principal, allowed("endpoints", "create")],
    service: Service,
) -> EndpointRead:
    """Create an endpoint; the server generates its key. Names are unique in the
    organization (400 'duplicate'); the site must be in the caller's scope."""
    return await service.create(principal, body)


@router.put("/endpoints/{endpoint_id}", response_model=EndpointRead)
async def update_endpoint(
    endpoint_id: str, body: EndpointWrite, principal: Modifier, service: Service
) -> EndpointRead:
    """Replace an endpoint's fields; the key never changes. An endpoint that is a zone's
    gate cannot move to another site (400)."""
    return await service.update(principal, endpoint_id, body)


@router.delete("/endpoints/{endpoint_id}", status_code=204)
async def delete_endpoint(
    endpoint_id: str,
    principal: Annotated[Principal, allowed("endpoints", "delete")],
    service: Service,
) -> None:
    """Delete an endpoint, its heartbeats and the zone gates that use it."""
    await service.delete(principal, endpoint_id)


@router.get("/eventsources", response_model=list[EventSource])
async def event_sources(
    principal: SignedIn, service: Service, site: SiteQuery = ""
) -> list[EventSource]:
    """`{_id, name}` of the site's endpoints, by name (for event filters)."""
    return await service.sources(principal, site)
