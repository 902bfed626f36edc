from fastapi import APIRouter

from tagtrack.auth.dependencies import SignedIn
from tagtrack.kit.schemas import ApiModel
from tagtrack.reports.schemas import REPORT_HEADINGS, REPORT_TYPE_NAMES, ReportTypeRead
from tagtrack.sites.schemas import TimezoneRead, timezone_names

router = APIRouter(tags=["lookups"])


class Choice(ApiModel):
    id: str
    name: str


KILL_MODES = (Choice(id="zone", name="Leave the zone"), Choice(id="site", name="Leave the site"))
THING_CLASSES = (Choice(id="item", name="Item"), Choice(id="worker", name="Worker"))
REPORT_FORMATS = (Choice(id="excel", name="Excel (.xlsx)"), Choice(id="json", name="JSON"))


@router.get("/timezones", response_model=list[TimezoneRead])
async def timezones(principal: SignedIn) -> list[TimezoneRead]:
    """IANA timezone names, sorted."""
    return [TimezoneRead(id=name) for name in timezone_names()]


@router.get("/killmodes", response_model=list[Choice])
async def kill_modes(principal: SignedIn) -> list[Choice]:
    """What a zone's kill does: leave the zone, or leave the site."""
    return list(KILL_MODES)


@router.get("/thingclasses", response_model=list[Choice])
async def thing_classes(principal: SignedIn) -> list[Choice]:
    """The classes of things: item and worker."""
    return list(THING_CLASSES)


@router.get("/reporttypes", response_model=list[ReportTypeRead])
async def report_types(principal: SignedIn) -> list[ReportTypeRead]:
    """The kinds of report a configuration runs, with the headings each can show."""
    return [
        ReportTypeRead(id=kind, name=name, headings=list(REPORT_HEADINGS[kind]))
        for kind, name in REPORT_TYPE_NAMES.items()
    ]


@router.get("/reportformat", response_model=list[Choice])
async def report_formats(principal: SignedIn) -> list[Choice]:
    """The formats of a report: excel (an XLSX workbook) or json."""
    return list(REPORT_FORMATS)
