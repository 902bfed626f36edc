from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from tagtrack.access.principal import Principal
from tagtrack.core.errors import BadRequest
from tagtrack.core.text import comma_list
from tagtrack.events.repository import EventRepository
from tagtrack.events.schemas import EventRead
from tagtrack.kit.totals import SharedTotals
from tagtrack.models.ids import is_id
from tagtrack.sites.scope import sites_in_scope


def _ids(csv: str) -> list[str]:
    ids = comma_list(csv)
    bad = [value for value in ids if not is_id(value)]
    if bad:
        raise BadRequest(f"Not an endpoint id: {bad[0]}", reason="invalid id")
    return ids


# A page's rows validated in one call rather than one model at a time.
EVENT_ROWS = TypeAdapter(list[EventRead])


# One per process: shared by every console polling the Events page.
TOTALS = SharedTotals()


class EventService:
    def __init__(self, repository: EventRepository) -> None:
        self.repository = repository

    async def list_page(
        self,
        principal: Principal,
        *,
        site: str,
        after: datetime | None,
        before: datetime | None,
        endpoint: str,
        thing: str,
        limit: int,
        page: int,
    ) -> tuple[list[EventRead], int]:
        if thing and not is_id(thing):
            raise BadRequest("thing must be a 24-character hex id", reason="invalid id")
        scope = sites_in_scope(principal, site)
        filters: dict[str, Any] = {
            "after": after,
            "before": before,
            "endpoints": _ids(endpoint),
            "thing": thing,
        }
        if self.repository.counts_each_event(filters["endpoints"], thing):
            # Counted event by event: a large total is shared among polling consoles.
            sites = tuple(scope) if scope is not None else None
            key = (principal.org_id, sites, after, before, tuple(filters["endpoints"]), thing)
            total = await TOTALS.total(
                key, lambda: self.repository.count(principal.org_id, scope, **filters)
            )
        else:
            # Mostly from the hour counts: cheap, so always exact at once.
            total = await self.repository.count(principal.org_id, scope, **filters)
        rows = await self.repository.page(
            principal.org_id, scope, limit=limit, page=page, **filters
        )
        return EVENT_ROWS.validate_python(rows), total
