from typing import Annotated

from fastapi import APIRouter, Depends

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.events.schemas import EventRead, ManualEvent
from tagtrack.kit.wiring import provide
from tagtrack.processing.manual import ManualReadService

# Served under the events resource: a manual event is a read, processed as readers' are.
router = APIRouter(tags=["events"], responses=ERROR_RESPONSES)

Service = Annotated[ManualReadService, Depends(provide(ManualReadService))]


@router.post("/events", response_model=EventRead, status_code=201)
async def create_event(
    body: ManualEvent,
    principal: Annotated[Principal, allowed("things", "modify")],
    service: Service,
) -> EventRead:
    """A manual event: the thing carrying the tag enters the zone now."""
    return await service.manual(principal, body)
