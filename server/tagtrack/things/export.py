"""The things list as an XLSX workbook, written row by row (XlsxWriter constant_memory)."""

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import xlsxwriter

from tagtrack.models import Thing
from tagtrack.things.repository import Names

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def labels_from(site: Mapping[str, Any], org: Mapping[str, Any]) -> dict[str, str]:
    """The name and serial column titles: the site's label, else the organisation's, else
    the defaults."""

    def pick(key: str, default: str) -> str:
        return str(site.get(key) or org.get(key) or default)

    return {"name": pick("itemNameLabel", "Name"), "serial": pick("itemSerialLabel", "Serial")}


def _time(value: datetime | None) -> datetime | None:
    # Excel has no time zones: times are written in UTC.
    return value.replace(tzinfo=None) if value is not None else None


CHUNK_BYTES = 256 * 1024


async def _stream(handle: BinaryIO) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(handle.read, CHUNK_BYTES):
            yield chunk
    finally:
        handle.close()


class ThingSheet:
    """A workbook in a temporary file; use it as `async with`, then `finish()` for its bytes."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        handle, name = tempfile.mkstemp(prefix="tagtrack-things-", suffix=".xlsx")
        os.close(handle)
        self.path = Path(name)
        self.workbook = xlsxwriter.Workbook(
            str(self.path),
            # Names like "=1+1" stay text: no formulas or links from user input.
            {"constant_memory": True, "strings_to_formulas": False, "strings_to_urls": False},
        )
        self.sheet = self.workbook.add_worksheet("Things")
        self.dates = self.workbook.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
        self.headers = [
            labels["name"], labels["serial"], "Description", "Class", "Tag 1", "Tag 2",
            "Tags", "Tags 1", "Tags 2", "Categories", "Labels", "Zone", "Endpoint",
            "Last Event", "Last Zone Time", "Created", "Modified", "Id",
        ]  # fmt: skip
        self.sheet.write_row(0, 0, self.headers, self.workbook.add_format({"bold": True}))
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

    async def finish(self) -> AsyncIterator[bytes]:
        """Close the workbook; stream its bytes (the file is unlinked once opened)."""
        await asyncio.to_thread(self.workbook.close)
        handle = await asyncio.to_thread(self.path.open, "rb")
        return _stream(handle)

    async def __aenter__(self) -> "ThingSheet":
        return self

    async def __aexit__(self, *exc: object) -> None:
        # The open stream keeps the bytes; the name goes now, whatever happened.
        await asyncio.to_thread(self.path.unlink, missing_ok=True)
