from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.jsontable import JSON_MEDIA_TYPE
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.schemas import Choice, UtcDateTime
from tagtrack.kit.wiring import provide
from tagtrack.kit.xlsx import XLSX_MEDIA_TYPE, XLSX_RESPONSE, download
from tagtrack.reports.schemas import (
    REPORT_FORMATS,
    REPORT_HEADINGS,
    REPORT_TYPE_NAMES,
    ActivityThing,
    AdhocReport,
    CategoryReport,
    ReportConfigRead,
    ReportConfigWrite,
    ReportTypeRead,
)
from tagtrack.reports.service import ReportService
from tagtrack.sites.scope import SiteQuery

router = APIRouter(tags=["reports"], responses=ERROR_RESPONSES)
# The report types and formats, for pickers; documented with the other lookups.
pickers = APIRouter(tags=["lookups"])


Service = Annotated[ReportService, Depends(provide(ReportService))]
After = Annotated[UtcDateTime, Query(description="From this time (inclusive)")]
Before = Annotated[UtcDateTime, Query(description="Up to this time (exclusive); 366 days at most")]


@router.get("/reportconfigs", response_model=list[ReportConfigRead])
async def list_report_configs(
    principal: SignedIn, service: Service, params: Listing, response: Response, site: SiteQuery = ""
) -> list[ReportConfigRead]:
    """Report configurations of the site (or every site in scope), by name."""
    configs, total = await service.list_page(principal, site, params)
    set_total(response, total)
    return configs


@router.get("/reportconfigs/{config_id}", response_model=ReportConfigRead)
async def get_report_config(
    config_id: str, principal: SignedIn, service: Service
) -> ReportConfigRead:
    """One report configuration."""
    return await service.get(principal, config_id)


@router.post("/reportconfigs", response_model=ReportConfigRead, status_code=201)
async def create_report_config(
    body: ReportConfigWrite,
    principal: Annotated[Principal, allowed("reportconfigs", "create")],
    service: Service,
) -> ReportConfigRead:
    """Create a report configuration; names are unique per site (400 'duplicate')."""
    return await service.create(principal, body)


@router.put("/reportconfigs/{config_id}", response_model=ReportConfigRead)
async def update_report_config(
    config_id: str,
    body: ReportConfigWrite,
    principal: Annotated[Principal, allowed("reportconfigs", "modify")],
    service: Service,
) -> ReportConfigRead:
    """Replace a report configuration."""
    return await service.update(principal, config_id, body)


@router.delete("/reportconfigs/{config_id}", status_code=204)
async def delete_report_config(
    config_id: str,
    principal: Annotated[Principal, allowed("reportconfigs", "delete")],
    service: Service,
) -> None:
    """Delete a report configuration."""
    await service.delete(principal, config_id)


@router.post(
    "/reports/adhoc",
    response_model=CategoryReport,
    responses={200: {"content": {XLSX_MEDIA_TYPE: {}}, "description": "JSON or report.xlsx"}},
)
async def adhoc_report(
    body: AdhocReport, principal: SignedIn, service: Service
) -> CategoryReport | StreamingResponse:
    """Counts of things now in each zone by category: JSON (format json) or report.xlsx
    (format excel, sheets 'Zone Categories' with Zone, Category, Count and 'Summary')."""
    if body.format == "json":
        return await service.adhoc_json(principal, body)
    return download(await service.adhoc_xlsx(principal, body), "report.xlsx")


@router.get(
    "/reports/{config_id}",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {XLSX_MEDIA_TYPE: {}, JSON_MEDIA_TYPE: {}},
            "description": "An XLSX workbook or a JSON document, by the report's format",
        }
    },
)
async def run_report(
    config_id: str, principal: SignedIn, service: Service, after: After, before: Before
) -> StreamingResponse:
    """The configured report over the period in its format, times on the site's clock (the
    time columns' headers name its time zone). Format excel: an XLSX workbook; format json:
    {"title", "columns", "rows": [{heading: value}], "summary": {label: value}}. The table:
    the configuration's headings (all of the type's when none); reportTypeSeen has a row per
    thing and zone read there in the period, reportTypeNotSeen a row per thing whose last
    read in the zones is before `after`, reportTypeCategories a row per zone and category
    (things now in the zone). The 'Summary' (second sheet): report, type, site, time zone,
    period, zones, categories, rows and the number of things (or the total count)."""
    filename, media_type, content = await service.run(principal, config_id, after, before)
    return download(content, filename, media_type)


@router.get("/eventsbything", response_model=list[ActivityThing])
async def events_by_thing(
    principal: SignedIn, service: Service, after: After, before: Before, site: SiteQuery = ""
) -> list[ActivityThing]:
    """The Activity report: per thing (by name), per day on its site's clock, the hours on
    site that day = the time from its first read to its last read that day (a folded event
    begun before midnight counts from midnight), with its events and reads. Things with no
    read in the period are left out, and so is the unknown placeholder thing."""
    return await service.activity(principal, site, after, before)


@router.get("/eventsbything/export", response_class=StreamingResponse, responses=XLSX_RESPONSE)
async def export_events_by_thing(
    principal: SignedIn, service: Service, after: After, before: Before, site: SiteQuery = ""
) -> StreamingResponse:
    """The Activity report as activity.xlsx: a row per thing and day with Name, Tag, Class,
    Day, First Seen, Last Seen (site clock), Hours ([h]:mm), Events, Reads."""
    return download(await service.activity_xlsx(principal, site, after, before), "activity.xlsx")


@router.get("/zonestatus/export", response_class=StreamingResponse, responses=XLSX_RESPONSE)
async def export_zone_status(
    principal: SignedIn, service: Service, site: SiteQuery = ""
) -> StreamingResponse:
    """Zone Status as zonestatus.xlsx: a row per thing now in a zone, by site and zone with
    Site (All Sites), Zone, Name, Type (unless workers are hidden), Entered (site clock) and
    Time in Zone ([h]:mm)."""
    return download(await service.zone_status_xlsx(principal, site), "zonestatus.xlsx")


@pickers.get("/reporttypes", response_model=list[ReportTypeRead])
async def report_types(principal: SignedIn) -> list[ReportTypeRead]:
    """The kinds of report a configuration runs, with the headings each can show."""
    return [
        ReportTypeRead(id=kind, name=name, headings=list(REPORT_HEADINGS[kind]))
        for kind, name in REPORT_TYPE_NAMES.items()
    ]


@pickers.get("/reportformat", response_model=list[Choice])
async def report_formats(principal: SignedIn) -> list[Choice]:
    """The formats of a report: excel (an XLSX workbook) or json."""
    return list(REPORT_FORMATS)
