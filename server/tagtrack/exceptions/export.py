"""The exceptions of a period as an XLSX workbook, times on the site's clock."""

from collections.abc import Mapping, Sequence
from typing import Any

from tagtrack.kit.xlsx import Cell, TableFile, duration, wall_clock

HEADERS = ("Time", "Type", "Message", "Name", "Tag", "Zone", "Duration", "Things", "Site")
# Excel refuses longer cells.
MAX_CELL = 32_000


def exception_cells(row: Any, things: Mapping[str, Any]) -> list[Cell]:
    exc = row.TrackingException
    names = ", ".join(things[t].name for t in exc.multiple_things if t in things)
    return [
        wall_clock(exc.time, row.timezone),
        exc.type,
        exc.message,
        row.thing_name or "",
        row.thing_tag or "",
        row.zone_name or "",
        duration(exc.time_duration) if exc.time_duration else None,
        names[:MAX_CELL],
        row.site_name,
    ]


class ExceptionSheet(TableFile):
    def __init__(self) -> None:
        super().__init__("tagtrack-exceptions-", "Exceptions", HEADERS)

    async def write(self, rows: Sequence[Any], things: Mapping[str, Any]) -> None:
        await self.append([exception_cells(row, things) for row in rows])
