"""Report configurations (CRUD within the caller's sites) and report runs."""

import re
from collections.abc import AsyncIterator, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.kit.jsontable import JSON_MEDIA_TYPE, JsonTable
from tagtrack.kit.lists import ListParams
from tagtrack.kit.xlsx import (
    SITE_CLOCK,
    XLSX_MEDIA_TYPE,
    Cell,
    TableFile,
    clock_headers,
    clock_of,
    duration,
    wall_clock,
)
from tagtrack.models import ReportConfig, Site
from tagtrack.models.base import utcnow
from tagtrack.processing.service import nanoseconds
from tagtrack.reports.repository import ReportRepository
from tagtrack.reports.schemas import (
    REPORT_HEADINGS,
    REPORT_TYPE_NAMES,
    ActivityDay,
    ActivityThing,
    AdhocReport,
    CategoryCount,
    CategoryReport,
    ReportConfigRead,
    ReportConfigWrite,
    ZoneCategories,
)
from tagtrack.settings.repository import SettingsRepository
from tagtrack.sites.scope import names_one_site, site_for_write, sites_in_scope
from tagtrack.sites.service import SiteService
from tagtrack.things.export import labels_for

MAX_PERIOD = timedelta(days=366)
ACTIVITY_HEADERS = (
    "Name", "Tag", "Class", "Day", "First Seen", "Last Seen", "Hours", "Events", "Reads",
)  # fmt: skip
ACTIVITY_KINDS = (None, None, None, date, datetime, datetime, timedelta, int, int)
# The columns of times, whose headers name the clock they are on.
TIMED = ("First Seen", "Last Seen")

# The Zone Status export: a row per thing in a zone, as the screen's zone tables show them.
ENTERED = "Entered"


def occupant_cells(
    row: Any, now: datetime, labels: dict[str, str], columns: tuple[bool, bool, bool]
) -> list[Cell]:
    """The row's cells; columns: with the Site, the Type and a Time Zone column."""
    site, zone, name, thing_class, entered, timezone = row
    with_site, with_type, with_zone = columns
    since = wall_clock(entered, timezone)
    cells: list[Cell] = [
        *([site] if with_site else []),
        zone,
        name,
        *([labels["worker" if thing_class == "worker" else "item"]] if with_type else []),
        since,
        duration(nanoseconds(now - entered)) if since else None,
    ]
    return [*cells, timezone] if with_zone else cells


def check_period(after: datetime, before: datetime) -> None:
    if before <= after:
        raise BadRequest("before must be later than after", reason="invalid period")
    if before - after > MAX_PERIOD:
        raise BadRequest("The period may be at most 366 days", reason="invalid period")


# A report configuration's format: its file's extension and media type.
FILE_TYPES = {"excel": (".xlsx", XLSX_MEDIA_TYPE), "json": (".json", JSON_MEDIA_TYPE)}
# What a report's columns hold where it is not text: their widths in a workbook fit them.
HEADING_KINDS: dict[str, type] = {"First Seen": datetime, "Last Seen": datetime}

ReportFile = TableFile | JsonTable


def file_name(name: str, format: str = "excel") -> str:
    """A report's name as a download file name (no quotes or path characters)."""
    safe = (re.sub(r"[^A-Za-z0-9 ._-]+", "_", name).strip(" ._") or "report")[:100]
    return safe + FILE_TYPES[format][0]


def config_read(config: ReportConfig, zone_names: dict[str, str]) -> ReportConfigRead:
    return ReportConfigRead(
        id=config.id,
        name=config.name,
        type=config.type,
        format=config.format,
        email=config.email,
        zones=list(config.zones),
        zoneNames=[zone_names.get(z, "") for z in config.zones],
        categories=list(config.categories),
        headings=list(config.headings),
        site=config.site_id,
    )


class ReportRunner:
    """Fills report workbooks; used by downloads and by the daily mail alike."""

    def __init__(self, repository: ReportRepository) -> None:
        self.repository = repository

    @staticmethod
    def sheet(config: ReportConfig, site: Site) -> ReportFile:
        """The report's file in its format: a workbook whose time columns name the site's
        time zone, or a JSON document."""
        headings = list(config.headings) or list(REPORT_HEADINGS[config.type])
        title = config.name or "Report"
        if config.format == "json":
            return JsonTable("tagtrack-report-", title, headings)
        headers = clock_headers(headings, TIMED, site.timezone)
        kinds = [HEADING_KINDS.get(h) for h in headings]
        return TableFile("tagtrack-report-", title, headers, kinds)

    async def fill(
        self,
        sheet: ReportFile,
        config: ReportConfig,
        site: Site,
        after: datetime,
        before: datetime,
    ) -> None:
        headings = list(config.headings) or list(REPORT_HEADINGS[config.type])
        zones = await self.repository.zones(site.org_id, site.id, config.zones)
        # Chosen zones deleted since match nothing (not every zone).
        zone_ids = list(config.zones)
        things: set[str] = set()
        total = 0
        categories_report = config.type == "reportTypeCategories"
        if categories_report:
            for _, zone_name, category, count in await self._categories(
                site, zones, config.categories
            ):
                await sheet.append([self._pick(headings, zone_name, category, count)])
                total += count
        else:
            chunks = (
                self.repository.seen(
                    site.org_id, site.id, zone_ids, config.categories, after, before
                )
                if config.type == "reportTypeSeen"
                else self.repository.not_seen(
                    site.org_id, site.id, zone_ids, config.categories, after
                )
            )
            async for rows in chunks:
                await sheet.append([self._thing_cells(headings, row, site) for row in rows])
                things.update(row.id for row in rows)
        period: list[tuple[str, Cell]] = (
            [("As of", wall_clock(utcnow(), site.timezone))]
            if categories_report
            else [
                ("From", wall_clock(after, site.timezone)),
                ("To", wall_clock(before, site.timezone)),
            ]
        )
        sheet.add_pairs(
            "Summary",
            [
                ("Report", config.name),
                ("Type", REPORT_TYPE_NAMES[config.type]),
                ("Site", site.name),
                ("Time Zone", site.timezone),
                *period,
                ("Zones", ", ".join(n for _, n in zones) if config.zones else "All zones"),
                ("Categories", ", ".join(config.categories) or "All categories"),
                ("Rows", sheet.rows),
                ("Total", total) if categories_report else ("Things", len(things)),
            ],
        )

    @staticmethod
    def _pick(headings: Sequence[str], zone: str, category: str, count: int) -> list[Cell]:
        values: dict[str, Cell] = {"Zone": zone, "Category": category, "Count": count}
        return [values[h] for h in headings]

    @staticmethod
    def _thing_cells(headings: Sequence[str], row: Any, site: Site) -> list[Cell]:
        mapping = row._mapping
        values: dict[str, Cell] = {
            "Name": row.name,
            "Serial": row.serial,
            "Tag": row.tag,
            "Class": row.thing_class,
            "Categories": ", ".join(row.categories),
            "Zone": row.zone_name,
            "First Seen": wall_clock(mapping.get("first_seen"), site.timezone),
            "Last Seen": wall_clock(mapping.get("last_seen"), site.timezone),
            "Events": mapping.get("events"),
            "Current Zone": mapping.get("current_zone") or "",
        }
        return [values[h] for h in headings]

    async def _categories(
        self, site: Site, zones: Sequence[tuple[str, str]], categories: Sequence[str]
    ) -> list[tuple[str, str, str, int]]:
        """(zone id, zone name, category, count): zones by name, categories by name."""
        counts = await self.repository.category_counts(
            site.org_id, site.id, [z for z, _ in zones], categories
        )
        order = {zone_id: index for index, (zone_id, _) in enumerate(zones)}
        names = dict(zones)
        rows = [(zone_id, names[zone_id], category, n) for zone_id, category, n in counts]
        return sorted(rows, key=lambda r: (order[r[0]], r[2]))

    async def categories(
        self, site: Site, zone_ids: Sequence[str], categories: Sequence[str]
    ) -> CategoryReport:
        zones = await self.repository.zones(site.org_id, site.id, zone_ids)
        per_zone = {z: ZoneCategories(zone=z, zoneName=n, categories=[], total=0) for z, n in zones}
        for zone_id, _, category, count in await self._categories(site, zones, categories):
            per_zone[zone_id].categories.append(CategoryCount(category=category, count=count))
            per_zone[zone_id].total += count
        listed = list(per_zone.values())
        return CategoryReport(site=site.id, zones=listed, total=sum(z.total for z in listed))


class ReportService:
    def __init__(
        self,
        repository: ReportRepository,
        sites: SiteService,
        org_settings: SettingsRepository,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.sites = sites
        self.org_settings = org_settings
        self.audit = audit
        self.runner = ReportRunner(repository)

    async def _reads(
        self, principal: Principal, configs: Sequence[ReportConfig]
    ) -> list[ReportConfigRead]:
        chosen = sorted({z for c in configs for z in c.zones})
        names = await self.repository.zone_names(principal.org_id, chosen)
        return [config_read(c, names) for c in configs]

    async def list_page(
        self, principal: Principal, site: str, params: ListParams
    ) -> tuple[list[ReportConfigRead], int]:
        configs, total = await self.repository.list_page(
            principal.org_id, sites_in_scope(principal, site), params
        )
        return await self._reads(principal, configs), total

    async def get_model(self, principal: Principal, config_id: str) -> ReportConfig:
        """A configuration of the caller's organization and sites; anything else not found."""
        config = await self.repository.get(principal.org_id, config_id)
        if config is None or not principal.sees_site(config.site_id):
            raise NotFound("Report configuration not found")
        return config

    async def get(self, principal: Principal, config_id: str) -> ReportConfigRead:
        return (await self._reads(principal, [await self.get_model(principal, config_id)]))[0]

    async def _zones_of_site(self, org_id: str, site_id: str, zone_ids: Sequence[str]) -> None:
        chosen = await self.repository.zones(org_id, site_id, zone_ids) if zone_ids else []
        found = {z for z, _ in chosen}
        for index, zone_id in enumerate(zone_ids):
            if zone_id not in found:
                raise BadRequest(f"zones.{index}: not a zone of the report's site")

    async def _check(
        self, principal: Principal, body: ReportConfigWrite, except_id: str | None
    ) -> None:
        await site_for_write(self.sites, principal, body.site)
        await self._zones_of_site(principal.org_id, body.site, body.zones)
        allowed = REPORT_HEADINGS[body.type]
        for index, heading in enumerate(body.headings):
            if heading not in allowed:
                raise BadRequest(
                    f"headings.{index}: '{heading}' is not a heading of this report type; "
                    f"choose from {', '.join(allowed)}"
                )
        if len(set(body.headings)) != len(body.headings):
            raise BadRequest("headings: each heading may be chosen once")
        if await self.repository.name_taken(principal.org_id, body.site, body.name, except_id):
            raise BadRequest(
                f"A report named '{body.name}' already exists in this site (duplicate)",
                reason="duplicate",
            )

    @staticmethod
    def _apply(config: ReportConfig, body: ReportConfigWrite) -> None:
        config.name = body.name
        config.type = body.type
        config.format = body.format
        config.email = body.email
        config.zones = list(dict.fromkeys(body.zones))
        config.categories = list(dict.fromkeys(body.categories))
        config.headings = list(body.headings)
        config.site_id = body.site

    async def create(self, principal: Principal, body: ReportConfigWrite) -> ReportConfigRead:
        await self._check(principal, body, None)
        config = ReportConfig(org_id=principal.org_id)
        self._apply(config, body)
        await self.repository.add(config)
        return (await self._reads(principal, [config]))[0]

    async def update(
        self, principal: Principal, config_id: str, body: ReportConfigWrite
    ) -> ReportConfigRead:
        config = await self.get_model(principal, config_id)
        await self._check(principal, body, config.id)
        self._apply(config, body)
        await self.repository.add(config)
        return (await self._reads(principal, [config]))[0]

    async def delete(self, principal: Principal, config_id: str) -> None:
        await self.repository.delete(await self.get_model(principal, config_id))

    async def run(
        self, principal: Principal, config_id: str, after: datetime, before: datetime
    ) -> tuple[str, str, AsyncIterator[bytes]]:
        """The configured report over the period in its format (XLSX or JSON): its file
        name, media type and bytes."""
        check_period(after, before)
        config = await self.get_model(principal, config_id)
        site = await self.sites.get_model(principal, config.site_id)
        async with self.runner.sheet(config, site) as sheet:
            await self.runner.fill(sheet, config, site, after, before)
            content = await sheet.finish()
        name = file_name(config.name, config.format)
        await self.audit.record(
            principal,
            "reports.exported",
            "reportconfigs",
            target_id=config.id,
            target=name,
            detail={"after": after.isoformat(), "before": before.isoformat()},
        )
        return name, FILE_TYPES[config.format][1], content

    async def adhoc_json(self, principal: Principal, body: AdhocReport) -> CategoryReport:
        site = await site_for_write(self.sites, principal, body.site)
        await self._zones_of_site(site.org_id, site.id, body.zones)
        return await self.runner.categories(site, body.zones, body.categories)

    async def adhoc_xlsx(self, principal: Principal, body: AdhocReport) -> AsyncIterator[bytes]:
        site = await site_for_write(self.sites, principal, body.site)
        await self._zones_of_site(site.org_id, site.id, body.zones)
        config = ReportConfig(
            name="Zone Categories",
            type=body.type,
            format="excel",
            zones=list(body.zones),
            categories=list(body.categories),
            headings=[],
        )
        now = utcnow()
        async with self.runner.sheet(config, site) as sheet:
            await self.runner.fill(sheet, config, site, now, now)
            content = await sheet.finish()
        await self.audit.record(
            principal,
            "reports.exported",
            "reportconfigs",
            target="report.xlsx",
            detail={"site": site.id, "type": body.type},
        )
        return content

    async def activity(
        self, principal: Principal, site: str, after: datetime, before: datetime
    ) -> list[ActivityThing]:
        check_period(after, before)
        things: list[ActivityThing] = []
        scope = sites_in_scope(principal, site)
        async for rows in self.repository.activity(principal.org_id, scope, after, before):
            for row in rows:
                if not things or things[-1].thing != row.id:
                    things.append(
                        ActivityThing(
                            thing=row.id,
                            thingName=row.name,
                            thingTag=row.tag,
                            thingClass=row.thing_class,
                            site=row.site_id,
                            timeDuration=0,
                            events=0,
                            reads=0,
                            days=[],
                        )
                    )
                day = ActivityDay(
                    day=row.day,
                    firstSeen=row.first_seen,
                    lastSeen=row.last_seen,
                    timeDuration=nanoseconds(row.last_seen - row.first_seen),
                    events=int(row.events),
                    reads=int(row.reads),
                )
                thing = things[-1]
                thing.days.append(day)
                thing.timeDuration += day.timeDuration
                thing.events += day.events
                thing.reads += day.reads
        return things

    async def activity_xlsx(
        self, principal: Principal, site: str, after: datetime, before: datetime
    ) -> AsyncIterator[bytes]:
        check_period(after, before)
        scope = sites_in_scope(principal, site)
        clock = clock_of(await self.repository.timezones(principal.org_id, scope))
        headers = clock_headers(ACTIVITY_HEADERS, TIMED, clock)
        async with TableFile("tagtrack-activity-", "Activity", headers, ACTIVITY_KINDS) as sheet:
            async for rows in self.repository.activity_cells(
                principal.org_id, scope, after, before, with_zone=clock == SITE_CLOCK
            ):
                await sheet.append(rows)
            content = await sheet.finish()
        await self.audit.record(
            principal,
            "activity.exported",
            "events",
            target="activity.xlsx",
            detail={
                "sites": scope or "all",
                "after": after.isoformat(),
                "before": before.isoformat(),
            },
        )
        return content

    async def zone_status_xlsx(self, principal: Principal, site: str) -> AsyncIterator[bytes]:
        """What is in each zone now, as the Zone Status screen's tables, as zonestatus.xlsx."""
        scope = sites_in_scope(principal, site)
        labels, hide_workers = await labels_for(self.org_settings, principal.org_id, scope)
        clock = clock_of(await self.repository.timezones(principal.org_id, scope))
        columns = (not names_one_site(site), not hide_workers, clock == SITE_CLOCK)
        headers = [
            *(["Site"] if columns[0] else []),
            "Zone",
            labels["name"],
            *(["Type"] if columns[1] else []),
            ENTERED,
            "Time in Zone",
        ]
        kinds = [None] * (len(headers) - 2) + [datetime, timedelta]
        now = utcnow()
        async with TableFile(
            "tagtrack-zonestatus-", "Zone Status", clock_headers(headers, [ENTERED], clock), kinds
        ) as sheet:
            async for rows in self.repository.zone_occupants(principal.org_id, scope, hide_workers):
                await sheet.append([occupant_cells(row, now, labels, columns) for row in rows])
            content = await sheet.finish()
        await self.audit.record(
            principal,
            "zonestatus.exported",
            "things",
            target="zonestatus.xlsx",
            detail={"sites": scope or "all"},
        )
        return content
