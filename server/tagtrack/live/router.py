from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse

from tagtrack.access.dependencies import SignedInWatching
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.wiring import provide
from tagtrack.live.service import MAX_LIFETIME_SECONDS, LiveService
from tagtrack.sites.scope import SiteQuery

router = APIRouter(tags=["live"], responses=ERROR_RESPONSES)

EVENT_STREAM = "text/event-stream"
_STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {EVENT_STREAM: {"schema": {"type": "string"}}},
        "description": (
            "Server-Sent Events: each message's data is {sites, missed}, the sites with new "
            "or changed events, zone presence or visits (at most one message every 5 s, "
            "the console's polling period); comments keep the stream open."
        ),
    }
}


Service = Annotated[LiveService, Depends(provide(LiveService))]
Lifetime = Annotated[
    int,
    Query(
        ge=0,
        le=MAX_LIFETIME_SECONDS,
        description="Seconds until the stream ends (the browser then reconnects)",
    ),
]


@router.get("/live", response_class=StreamingResponse, responses=_STREAM)
async def live_updates(
    principal: SignedInWatching,
    service: Service,
    site: SiteQuery = "",
    lifetime: Lifetime = MAX_LIFETIME_SECONDS,
) -> StreamingResponse:
    """Notices of the site's changes as they are committed, by any process."""
    sites = service.scope(principal, site)
    return StreamingResponse(
        service.stream(principal, sites, lifetime),
        media_type=EVENT_STREAM,
        # Proxies must pass each message on at once, and nothing may cache the stream.
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
