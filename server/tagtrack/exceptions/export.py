"""The exceptions of a period as an XLSX workbook, times on the site's clock."""

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from tagtrack.kit.xlsx import SITE_CLOCK, Cell, TableFile, clock_headers, duration, wall_clock

HEADERS = ("Time", "Type", "Message", "Name", "Tag", "Zone", "Duration", "Things", "Site")
KINDS = (datetime, None, None, None, None, None, timedelta)
# The words the console shows for each type; any other is "expected in another zone".
TYPE_NAMES = {
    "zoneTimeException": "Zone time",
    "inventoryThingsMissing": "Missing",
    "inventoryThingsUnexpected": "Unexpected",
    "processException": "Processing",
}
OTHER_ZONE = "Other zone"


def type_name(kind: str) -> str:
    return TYPE_NAMES.get(kind, OTHER_ZONE)


# Excel refuses longer cells.
MAX_CELL = 32_000


def exception_cells(row: Any, things: Mapping[str, Any], with_zone: bool) -> list[Cell]:
    exc = row.TrackingException
    names = ", ".join(things[t].name for t in exc.multiple_things if t in things)
    cells: list[Cell] = [
        wall_clock(exc.time, row.timezone),
        type_name(exc.type),
        exc.message,
        row.thing_name or "",
        row.thing_tag or "",
        row.zone_name or "",
        duration(exc.time_duration) if exc.time_duration else None,
        names[:MAX_CELL],
        row.site_name,
    ]
    return [*cells, row.timezone] if with_zone else cells


class ExceptionSheet(TableFile):
    """Times on the clock of the exception's site, named in the Time header (or, for sites
    on several clocks, in a Time Zone column)."""

    def __init__(self, clock: str) -> None:
        super().__init__(
            "tagtrack-exceptions-", "Exceptions", clock_headers(HEADERS, ["Time"], clock), KINDS
        )
        self.with_zone = clock == SITE_CLOCK

    async def write(self, rows: Sequence[Any], things: Mapping[str, Any]) -> None:
        await self.append([exception_cells(row, things, self.with_zone) for row in rows])
