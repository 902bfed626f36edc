"""Reader ingest, authenticated by the endpoint's key (Authorization: Bearer <key>)."""

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.ingest.openapi import READS_BODY
from tagtrack.ingest.repository import ReaderEndpoint
from tagtrack.ingest.schemas import Accepted, ReaderConfig
from tagtrack.ingest.service import Admission, IngestService
from tagtrack.kit.wiring import provide

router = APIRouter(prefix="/ingest", tags=["ingest"])
user_router = APIRouter(tags=["ingest"])

STATUS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "{uptime (s), readerTemp, ip, version, time?}",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}
RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    429: ERROR_RESPONSES[400] | {"description": "Overloaded: retry after Retry-After seconds"},
}


Ingest = Annotated[IngestService, Depends(provide(IngestService))]


def admitted(channel: str) -> Any:
    """A dependency holding one of the process's ingest slots while the request runs."""

    async def slot(request: Request) -> AsyncIterator[None]:
        admission: Admission = request.app.state.admission
        async with admission.slot(channel):
            yield

    return Depends(slot)


async def reader_endpoint(request: Request, service: Ingest) -> ReaderEndpoint:
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    return await service.endpoint_for_key(key.strip() if scheme.lower() == "bearer" else "")


Reader = Annotated[ReaderEndpoint, Depends(reader_endpoint)]


@router.post(
    "/reads",
    status_code=202,
    response_model=Accepted,
    responses=RESPONSES,
    openapi_extra=READS_BODY,
    dependencies=[admitted("http")],
)
async def post_reads(request: Request, endpoint: Reader, service: Ingest) -> Accepted:
    """Queue a reader's reads; 202 only once they are committed. A repeated batchId counts once."""
    accepted = await service.accept_reads(endpoint, await request.body(), "http")
    return accepted


@router.post("/status", status_code=204, responses=RESPONSES, openapi_extra=STATUS_BODY)
async def post_status(request: Request, endpoint: Reader, service: Ingest) -> None:
    """Record a reader's heartbeat."""
    await service.accept_status(endpoint, await request.body())


@router.get("/config", response_model=ReaderConfig, responses=RESPONSES)
async def get_config(endpoint: Reader, service: Ingest) -> ReaderConfig:
    """The calling reader's own configuration."""
    return service.config(endpoint)


USER_READS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "{endpoint: <endpoint id>, batchId?, reads: [{tag, time?, antenna?}]}",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@user_router.post(
    "/messages/user",
    status_code=202,
    response_model=Accepted,
    responses=RESPONSES,
    openapi_extra=USER_READS_BODY,
    dependencies=[admitted("user")],
)
async def post_user_reads(
    request: Request,
    principal: Annotated[Principal, allowed("things", "modify")],
    service: Ingest,
) -> Accepted:
    """Queue reads a signed-in handheld user took with one of their sites' endpoints."""
    accepted = await service.accept_user_reads(principal, await request.body())
    return accepted
