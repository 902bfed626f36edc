"""Manual events: reads a user makes by hand (the Events page, an import's "put in zone").

Processed at once in the caller's transaction, as the reader queue's batches are, so the call
answers with the event it made and an import's new items are placed before it commits.
"""

from collections.abc import Sequence

from tagtrack.access.principal import Principal
from tagtrack.core.errors import NotFound
from tagtrack.events.repository import EventRepository
from tagtrack.events.schemas import EventRead, ManualEvent
from tagtrack.models import Zone
from tagtrack.models.base import utcnow
from tagtrack.processing.repository import ReadRow
from tagtrack.processing.service import FreshThings, ProcessingService
from tagtrack.things.repository import ThingRepository
from tagtrack.things.tags import normalize_tag


class ManualReadService:
    def __init__(
        self,
        events: EventRepository,
        things: ThingRepository,
        processing: ProcessingService,
    ) -> None:
        self.events = events
        self.things = things
        self.processing = processing

    async def manual(self, principal: Principal, body: ManualEvent) -> EventRead:
        tag = normalize_tag(body.tag)
        zone = await self.events.zone(principal.org_id, body.zone)
        if zone is None or not principal.sees_site(zone.site_id):
            raise NotFound("Zone not found")
        if await self.things.by_tag(principal.org_id, tag) is None:
            raise NotFound(f"No thing carries the tag {tag}")
        await self.put_in_zone(principal.org_id, zone, [tag])
        return EventRead.model_validate(await self.events.latest_for_tag(principal.org_id, tag))

    async def put_in_zone(
        self, org_id: str, zone: Zone, tags: Sequence[str], fresh: FreshThings | None = None
    ) -> None:
        """A manual read of each of these (normalised, carried) tags in the zone, processed
        now as one batch; the caller has checked the zone and the tags (of stored things, or
        of the new things it writes in `fresh`)."""
        now = utcnow()
        # Plain rows: an ORM object each costs more than the rest of a large import's read.
        reads = [ReadRow(0, "", tag, 0, now, None, "IN", False, {}, zone.id) for tag in tags]
        if reads:
            await self.processing.process_now(org_id, reads, fresh)
