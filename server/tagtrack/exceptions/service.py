"""Exceptions of the caller's sites: a page, one with its things, an XLSX export."""

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from tagtrack.audit.repository import AuditRepository
from tagtrack.auth.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.core.ids import UNKNOWN_THING_ID, is_id
from tagtrack.exceptions.export import ExceptionSheet
from tagtrack.exceptions.repository import SORTABLE, ExceptionRepository
from tagtrack.exceptions.schemas import ExceptionDetail, ExceptionRead, ExceptionThing
from tagtrack.kit.xlsx import clock_of
from tagtrack.lookups.tracking import or_unset, sites_in_scope


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
