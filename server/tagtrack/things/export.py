"""The things list as an XLSX workbook, written row by row (XlsxWriter constant_memory)."""

import asyncio
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from tagtrack.kit.xlsx import XlsxFile
from tagtrack.models import Thing
from tagtrack.things.repository import Names


def labels_from(site: Mapping[str, Any], org: Mapping[str, Any]) -> dict[str, str]:
    """The name and serial column titles: the site's label, else the organisation's, else
    the defaults."""

    def pick(key: str, default: str) -> str:
        return str(site.get(key) or org.get(key) or default)

    return {"name": pick("itemNameLabel", "Name"), "serial": pick("itemSerialLabel", "Serial")}


def _time(value: datetime | None) -> datetime | None:
    # Excel has no time zones: times are written in UTC.
    return value.replace(tzinfo=None) if value is not None else None


class ThingSheet(XlsxFile):
    """The things workbook; use it as `async with`, then `finish()` for its bytes."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        super().__init__("tagtrack-things-")
        self.headers = [
            labels["name"], labels["serial"], "Description", "Class", "Tag 1", "Tag 2",
            "Tags", "Tags 1", "Tags 2", "Categories", "Labels", "Zone", "Endpoint",
            "Last Event", "Last Zone Time", "Created", "Modified", "Id",
        ]  # fmt: skip
        self.sheet = self.add_sheet("Things", self.headers)
        self.row = 1

    def _write_rows(self, rows: list[tuple[list[str], list[datetime | None], str]]) -> None:
        for texts, times, thing_id in rows:
            self.sheet.write_row(self.row, 0, texts)
            column = len(texts)
            for value in times:
                if value is not None:
                    self.sheet.write_datetime(self.row, column, value, self.dates)
                column += 1
            self.sheet.write_string(self.row, column, thing_id)
            self.row += 1

    async def write(self, things: Sequence[Thing], names: Mapping[str, Names]) -> None:
        rows = []
        for t in things:
            n = names.get(t.id, Names())
            texts = [
                t.name, t.serial, t.description, t.thing_class, t.tag1, t.tag2,
                ", ".join(t.tags), ", ".join(t.tags1), ", ".join(t.tags2),
                ", ".join(t.categories), ", ".join(t.labels), n.zone, n.endpoint,
            ]  # fmt: skip
            times = [t.last_event, t.last_zone_time, t.time_created, t.time_modified]
            rows.append((texts, [_time(v) for v in times], t.id))
        await asyncio.to_thread(self._write_rows, rows)
