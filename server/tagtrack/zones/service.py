"""Zones: CRUD within the caller's sites, gates on the zone's own endpoints, counts."""

from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.endpoints.repository import EndpointRepository
from tagtrack.kit.lists import ListParams
from tagtrack.kit.tracking import or_unset
from tagtrack.kit.xlsx import (
    SITE_CLOCK,
    Cell,
    TableFile,
    clock_headers,
    clock_of,
    duration,
    wall_clock,
)
from tagtrack.models import Zone, ZoneGate
from tagtrack.models.base import utcnow
from tagtrack.models.ids import is_id
from tagtrack.processing.service import nanoseconds
from tagtrack.settings.repository import SettingsRepository
from tagtrack.sites.scope import names_one_site, site_for_write, sites_in_scope
from tagtrack.sites.service import SiteService
from tagtrack.things.export import labels_for
from tagtrack.zones.repository import ZoneDurationRepository, ZoneRepository
from tagtrack.zones.schemas import GateRead, ZoneDurationRead, ZoneRead, ZoneTotalRead, ZoneWrite

GATE_ENDPOINT_REQUIRED = "Please select an value"


def zone_read(zone: Zone, gates: Sequence[ZoneGate], counts: dict[str, int]) -> ZoneRead:
    return ZoneRead(
        id=zone.id,
        name=zone.name,
        description=zone.description,
        site=zone.site_id,
        duration=zone.duration,
        emails=list(zone.emails),
        killDuration=zone.kill_duration,
        immediateKill=zone.immediate_kill,
        killMode=zone.kill_mode,
        gates=[
            GateRead(endpoint=g.endpoint_id, direction=g.direction, antenna=g.antenna)
            for g in gates
        ],
        items=counts.get("item", 0),
        workers=counts.get("worker", 0),
    )


class ZoneService:
    def __init__(
        self, repository: ZoneRepository, endpoints: EndpointRepository, sites: SiteService
    ) -> None:
        self.repository = repository
        self.endpoints = endpoints
        self.sites = sites

    async def _reads(self, principal: Principal, zones: Sequence[Zone]) -> list[ZoneRead]:
        ids = [z.id for z in zones]
        gates = await self.repository.gates_of(principal.org_id, ids)
        counts = await self.repository.counts(principal.org_id, ids)
        return [zone_read(z, gates[z.id], counts[z.id]) for z in zones]

    async def list_page(
        self, principal: Principal, site: str, params: ListParams
    ) -> tuple[list[ZoneRead], int]:
        scope = sites_in_scope(principal, site)
        zones, total = await self.repository.list_page(principal.org_id, scope, params)
        return await self._reads(principal, zones), total

    async def get_model(self, principal: Principal, zone_id: str) -> Zone:
        """A zone of the caller's organization and sites; anything else is not found."""
        zone = await self.repository.get(principal.org_id, zone_id)
        if zone is None or not principal.sees_site(zone.site_id):
            raise NotFound("Zone not found")
        return zone

    async def get(self, principal: Principal, zone_id: str) -> ZoneRead:
        return (await self._reads(principal, [await self.get_model(principal, zone_id)]))[0]

    async def _gates(self, principal: Principal, body: ZoneWrite) -> list[tuple[str, str, int]]:
        gates: list[tuple[str, str, int]] = []
        for index, gate in enumerate(body.gates):
            if not gate.endpoint:
                raise BadRequest(f"gates.{index}.endpoint: {GATE_ENDPOINT_REQUIRED}")
            gates.append((gate.endpoint, gate.direction, gate.antenna))
        wanted = sorted({endpoint for endpoint, _, _ in gates})
        found = await self.endpoints.ids_in_site(principal.org_id, body.site, wanted)
        for index, (endpoint, _, _) in enumerate(gates):
            if endpoint not in found:
                raise BadRequest(
                    f"gates.{index}.endpoint: the endpoint is not an endpoint of the zone's site"
                )
        return gates

    async def _check(self, principal: Principal, body: ZoneWrite, except_id: str | None) -> None:
        await site_for_write(self.sites, principal, body.site)
        if await self.repository.name_taken(principal.org_id, body.site, body.name, except_id):
            raise BadRequest(
                f"A zone named '{body.name}' already exists in this site (duplicate)",
                reason="duplicate",
            )

    @staticmethod
    def _apply(zone: Zone, body: ZoneWrite) -> None:
        zone.name = body.name
        zone.description = body.description
        zone.site_id = body.site
        zone.duration = body.duration
        zone.emails = list(body.emails)
        zone.kill_duration = body.killDuration
        zone.immediate_kill = body.immediateKill
        zone.kill_mode = body.killMode

    async def create(self, principal: Principal, body: ZoneWrite) -> ZoneRead:
        await self._check(principal, body, None)
        gates = await self._gates(principal, body)
        zone = Zone(org_id=principal.org_id)
        self._apply(zone, body)
        await self.repository.add(zone)
        await self.repository.replace_gates(zone, gates)
        return (await self._reads(principal, [zone]))[0]

    async def update(self, principal: Principal, zone_id: str, body: ZoneWrite) -> ZoneRead:
        zone = await self.get_model(principal, zone_id)
        await self._check(principal, body, zone.id)
        gates = await self._gates(principal, body)
        self._apply(zone, body)
        await self.repository.replace_gates(zone, gates)
        return (await self._reads(principal, [zone]))[0]

    async def delete(self, principal: Principal, zone_id: str) -> None:
        await self.repository.delete(await self.get_model(principal, zone_id))


# The Zones History export: the screen's columns, Site in All Sites, times on the site's clock.
VISIT_TIMES = ("Start", "End")


def visit_cells(row: Any, now: datetime, with_site: bool, with_zone: bool) -> list[Cell]:
    name, site, zone, start, end, length, timezone = row
    if end is None:  # still there: the visit so far
        length = nanoseconds(now - start)
    cells: list[Cell] = [
        name or "",
        *([site] if with_site else []),
        zone or "",
        wall_clock(start, timezone),
        wall_clock(end, timezone),
        duration(length),
    ]
    return [*cells, timezone] if with_zone else cells


class ZoneDurationService:
    def __init__(
        self,
        repository: ZoneDurationRepository,
        org_settings: SettingsRepository,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.org_settings = org_settings
        self.audit = audit

    async def durations(
        self,
        principal: Principal,
        *,
        site: str,
        after: datetime | None,
        before: datetime | None,
        thing: str,
        limit: int,
        page: int,
    ) -> tuple[list[ZoneDurationRead], int]:
        if thing and not is_id(thing):
            raise BadRequest("thing must be a 24-character hex id", reason="invalid id")
        rows, total = await self.repository.durations(
            principal.org_id,
            sites_in_scope(principal, site),
            after=after,
            before=before,
            thing=thing,
            limit=limit,
            page=page,
        )
        now = utcnow()
        return [self._duration(row, now) for row in rows], total

    async def durations_xlsx(
        self, principal: Principal, *, site: str, after: datetime | None, before: datetime | None
    ) -> AsyncIterator[bytes]:
        """The Zones History table of the period as zoneshistory.xlsx, newest first."""
        scope = sites_in_scope(principal, site)
        labels, _ = await labels_for(self.org_settings, principal.org_id, scope)
        clock = clock_of(await self.repository.timezones(principal.org_id, scope))
        with_site = not names_one_site(site)
        headers = [labels["name"], *(["Site"] if with_site else []), "Zone", *VISIT_TIMES]
        headers = clock_headers([*headers, "Duration"], VISIT_TIMES, clock)
        kinds = [*[None] * (2 if with_site else 1), None, datetime, datetime, timedelta]
        now = utcnow()
        async with TableFile("tagtrack-zoneshistory-", "Zones History", headers, kinds) as sheet:
            async for rows in self.repository.visits_in_order(
                principal.org_id, scope, after=after, before=before
            ):
                await sheet.append(
                    [visit_cells(row, now, with_site, clock == SITE_CLOCK) for row in rows]
                )
            content = await sheet.finish()
        await self.audit.record(
            principal,
            "zonedurations.exported",
            "zonedurations",
            target="zoneshistory.xlsx",
            detail={"sites": scope or "all", "after": str(after), "before": str(before)},
        )
        return content

    async def zone_totals(
        self,
        principal: Principal,
        *,
        site: str,
        after: datetime | None,
        before: datetime | None,
    ) -> list[ZoneTotalRead]:
        rows = await self.repository.zone_totals(
            principal.org_id,
            sites_in_scope(principal, site),
            after=after,
            before=before,
            now=utcnow(),
        )
        return [
            ZoneTotalRead(
                zone=zone_id,
                zoneName=name,
                visits=visits,
                things=things,
                timeDuration=round(float(seconds) * 10**9),
            )
            for zone_id, name, visits, things, seconds in rows
        ]

    @staticmethod
    def _duration(row: Any, now: datetime) -> ZoneDurationRead:
        length = row.time_duration
        if row.time_end is None:
            length = nanoseconds(now - row.time_start)
        return ZoneDurationRead(
            id=row.id,
            thing=row.thing_id,
            thingName=row.thing_name or "",
            zone=row.zone_id,
            zoneName=row.zone_name or "",
            timeStart=row.time_start,
            timeEnd=or_unset(row.time_end),
            timeDuration=length,
            site=row.site_id,
        )
