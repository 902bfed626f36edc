"""XLSX workbooks written row by row to a temporary file (XlsxWriter constant_memory) and
streamed: memory stays flat however many rows, and user text never becomes a formula."""

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import BinaryIO, Self
from zoneinfo import ZoneInfo

import xlsxwriter
from xlsxwriter.worksheet import Worksheet

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CHUNK_BYTES = 256 * 1024
NANOSECONDS_PER_DAY = 86_400 * 10**9

# A typed cell: text, number, Excel date-time, Excel date, duration ([h]:mm), or empty.
Cell = str | int | float | bool | datetime | date | timedelta | None


def duration(nanoseconds: int) -> timedelta:
    return timedelta(microseconds=nanoseconds // 1000)


def wall_clock(value: datetime | None, timezone: str) -> datetime | None:
    """The time as a clock in that timezone shows it (reports are read on site)."""
    if value is None or value.year < 1000:
        return None
    return value.astimezone(ZoneInfo(timezone)).replace(tzinfo=None)


async def _stream(handle: BinaryIO) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(handle.read, CHUNK_BYTES):
            yield chunk
    finally:
        handle.close()


class XlsxFile:
    """A workbook in a temporary file; use it as `async with`, then `finish()` for its bytes."""

    def __init__(self, prefix: str = "tagtrack-") -> None:
        handle, name = tempfile.mkstemp(prefix=prefix, suffix=".xlsx")
        os.close(handle)
        self.path = Path(name)
        self.workbook = xlsxwriter.Workbook(
            str(self.path),
            # Names like "=1+1" stay text: no formulas or links from user input.
            {"constant_memory": True, "strings_to_formulas": False, "strings_to_urls": False},
        )
        self.bold = self.workbook.add_format({"bold": True})
        self.dates = self.workbook.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
        self.days = self.workbook.add_format({"num_format": "yyyy-mm-dd"})
        self.durations = self.workbook.add_format({"num_format": "[h]:mm"})

    def add_sheet(self, title: str, headers: Sequence[str]) -> Worksheet:
        """A new worksheet with a bold header row; rows then go from row 1 down."""
        sheet = self.workbook.add_worksheet(title[:31])
        for column, header in enumerate(headers):
            sheet.write_string(0, column, header, self.bold)
        return sheet

    def write_cells(self, sheet: Worksheet, row: int, cells: Sequence[Cell]) -> None:
        """One row of typed cells; text is always written as text."""
        for column, value in enumerate(cells):
            if value is None or value == "":
                continue
            if isinstance(value, str):
                sheet.write_string(row, column, value)
            elif isinstance(value, bool):
                sheet.write_boolean(row, column, value)
            elif isinstance(value, int | float):
                sheet.write_number(row, column, value)
            elif isinstance(value, datetime):
                # Excel has no time zones: the caller chooses the wall clock.
                sheet.write_datetime(row, column, value.replace(tzinfo=None), self.dates)
            elif isinstance(value, date):
                sheet.write_datetime(
                    row, column, datetime(value.year, value.month, value.day), self.days
                )
            else:
                sheet.write_number(row, column, value / timedelta(days=1), self.durations)

    async def finish(self) -> AsyncIterator[bytes]:
        """Close the workbook; stream its bytes (the file is unlinked once opened)."""
        await asyncio.to_thread(self.workbook.close)
        handle = await asyncio.to_thread(self.path.open, "rb")
        return _stream(handle)

    async def finish_bytes(self) -> bytes:
        """Close the workbook and read it whole (for a mail attachment)."""
        await asyncio.to_thread(self.workbook.close)
        return await asyncio.to_thread(self.path.read_bytes)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        # The open stream keeps the bytes; the name goes now, whatever happened.
        await asyncio.to_thread(self.path.unlink, missing_ok=True)


class TableFile(XlsxFile):
    """A workbook whose first sheet is one table, appended to chunk by chunk."""

    def __init__(self, prefix: str, title: str, headers: Sequence[str]) -> None:
        super().__init__(prefix)
        self.table = self.add_sheet(title, headers)
        self.rows = 0

    def _append(self, rows: Sequence[Sequence[Cell]]) -> None:
        for cells in rows:
            self.rows += 1
            self.write_cells(self.table, self.rows, cells)

    async def append(self, rows: Sequence[Sequence[Cell]]) -> None:
        await asyncio.to_thread(self._append, rows)

    def add_pairs(self, title: str, pairs: Sequence[tuple[str, Cell]]) -> None:
        """A small second sheet of label and value rows (a report's summary)."""
        sheet = self.workbook.add_worksheet(title)
        for row, (label, value) in enumerate(pairs):
            sheet.write_string(row, 0, label, self.bold)
            self.write_cells(sheet, row, [None, value])
