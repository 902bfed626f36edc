"""Exceptions: how processing and the daily inventory raise them; of the caller's sites, a page,
one with its things, an XLSX export."""

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.exceptions.export import ExceptionSheet
from tagtrack.exceptions.repository import SORTABLE, ExceptionRepository
from tagtrack.exceptions.schemas import ExceptionDetail, ExceptionRead, ExceptionThing
from tagtrack.kit.tracking import or_unset
from tagtrack.kit.xlsx import clock_of
from tagtrack.models import Site, TrackingException, Zone, ZoneDuration
from tagtrack.models.ids import UNKNOWN_THING_ID, is_id, new_id
from tagtrack.sites.scope import sites_in_scope

ZONE_TIME_EXCEPTION = "zoneTimeException"
PROCESS_EXCEPTION = "processException"
MISSING = "inventoryThingsMissing"
UNEXPECTED = "inventoryThingsUnexpected"
ELSEWHERE = "inventoryThingsElsewhere"
INVENTORY_MESSAGES = {
    MISSING: "Shortage of {n}",
    UNEXPECTED: "Overage of {n}",
    ELSEWHERE: "{n} expected in another zone",
}


def process_exception(
    org_id: str, site_id: str, tag: str, time: datetime, why: str
) -> TrackingException:
    """A read that processing could not use."""
    return TrackingException(
        id=new_id(),
        org_id=org_id,
        site_id=site_id,
        type=PROCESS_EXCEPTION,
        time=time,
        message=f"Read of {tag} not processed: {why}",
        multiple_things=[],
    )


def zone_time_exception(
    visit: ZoneDuration, zone: Zone, thing_name: str, time_duration: int
) -> TrackingException:
    """A visit longer than its zone's alert time (`time_duration` nanoseconds so far)."""
    minutes = max(1, round(zone.duration / 6e10))
    return TrackingException(
        id=new_id(),
        org_id=visit.org_id,
        site_id=visit.site_id,
        type=ZONE_TIME_EXCEPTION,
        time=visit.time_start + timedelta(microseconds=zone.duration / 1000),
        thing_id=visit.thing_id,
        zone_id=zone.id,
        zone_duration_id=visit.id,
        multiple_things=[],
        time_duration=time_duration,
        message=f"{thing_name} in {zone.name} > {minutes} minute(s)",
    )


def inventory_exception(
    site: Site, kind: str, time: datetime, zone_id: str, things: list[str]
) -> TrackingException:
    """Things a daily inventory found missing, unexpected or elsewhere in a zone."""
    return TrackingException(
        org_id=site.org_id,
        site_id=site.id,
        type=kind,
        time=time,
        thing_id=None,
        zone_id=zone_id,
        multiple_things=things,
        time_duration=0,
        message=INVENTORY_MESSAGES[kind].format(n=len(things)),
    )


def exception_read(row: Any) -> ExceptionRead:
    exc = row.TrackingException
    known = exc.thing_id and exc.thing_id != UNKNOWN_THING_ID
    return ExceptionRead(
        id=exc.id,
        type=exc.type,
        time=exc.time,
        site=exc.site_id,
        thing=exc.thing_id or "",
        thingName=(row.thing_name or "") if known else "",
        thingTag=(row.thing_tag or "") if known else "",
        zone=exc.zone_id or "",
        zoneName=row.zone_name or "",
        multipleThings=list(exc.multiple_things),
        timeDuration=exc.time_duration,
        message=exc.message,
    )


class ExceptionService:
    def __init__(self, repository: ExceptionRepository, audit: AuditRepository) -> None:
        self.repository = repository
        self.audit = audit

    async def list_page(
        self,
        principal: Principal,
        *,
        site: str,
        after: datetime | None,
        before: datetime | None,
        sort: str,
        limit: int,
        page: int,
    ) -> tuple[list[ExceptionRead], int]:
        if sort.lstrip("-") not in SORTABLE:
            raise BadRequest(
                f"Cannot sort by '{sort}'; sortable fields: {', '.join(sorted(SORTABLE))}",
                reason="invalid sort",
            )
        rows, total = await self.repository.page(
            principal.org_id,
            sites_in_scope(principal, site),
            after=after,
            before=before,
            sort=sort,
            limit=limit,
            page=page,
        )
        return [exception_read(row) for row in rows], total

    async def get(self, principal: Principal, exception_id: str) -> ExceptionDetail:
        row = (
            await self.repository.one(principal.org_id, exception_id)
            if is_id(exception_id)
            else None
        )
        if row is None or not principal.sees_site(row.TrackingException.site_id):
            raise NotFound("Exception not found")
        ids = [t for t in row.TrackingException.multiple_things if t != UNKNOWN_THING_ID]
        found = await self.repository.things(principal.org_id, ids)
        things = [
            ExceptionThing(
                id=t,
                name=found[t].name,
                tag=found[t].tag,
                zone=found[t].zone_id or "",
                zoneName=found[t].zone_name or "",
                lastEvent=or_unset(found[t].last_event),
            )
            for t in ids
            if t in found
        ]
        return ExceptionDetail(**exception_read(row).model_dump(), things=things)

    async def export(
        self, principal: Principal, *, site: str, after: datetime | None, before: datetime | None
    ) -> AsyncIterator[bytes]:
        """Every exception of the period, oldest first, as XLSX (streamed from a temp file)."""
        scope = sites_in_scope(principal, site)
        clock = clock_of(await self.repository.timezones(principal.org_id, scope))
        async with ExceptionSheet(clock) as sheet:
            async for rows in self.repository.in_order(principal.org_id, scope, after, before):
                ids = sorted({t for row in rows for t in row.TrackingException.multiple_things})
                await sheet.write(rows, await self.repository.things(principal.org_id, ids))
            content = await sheet.finish()
        await self.audit.record(
            principal,
            "exceptions.exported",
            "exceptions",
            target="exceptions.xlsx",
            detail={"sites": scope or "all", "after": str(after), "before": str(before)},
        )
        return content
