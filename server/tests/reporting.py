"""Builders for the report and exception tests: an organization with a floor on its first
site, site clock settings, and XLSX workbooks opened with openpyxl."""

import io
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

import httpx
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.kit.xlsx import XLSX_MEDIA_TYPE
from tagtrack.models import Site
from tests.conftest import Org
from tests.tracking import T0, Floor


async def org_with_floor(
    org_factory: Callable[[], Awaitable[Org]],
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
    **site: Any,
) -> tuple[Org, Floor]:
    """A fresh organization and a floor on its first site, with these site columns set."""
    org = await org_factory()
    if site:
        async with sessionmaker() as session, session.begin():
            await session.execute(update(Site).where(Site.id == org.site_ids[0]).values(**site))
    return org, Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)


def seconds(moment: datetime) -> float:
    """A time as the floor's read offset from T0."""
    return (moment - T0).total_seconds()


def z(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def xlsx(response: httpx.Response, filename: str) -> Workbook:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == XLSX_MEDIA_TYPE
    assert f'filename="{filename}"' in response.headers["content-disposition"]
    return laid_out(load_workbook(io.BytesIO(response.content)))


def shown_characters(cell: Any) -> int:
    """The characters Excel shows of a cell's value in our formats."""
    value = cell.value
    if isinstance(value, date):  # yyyy-mm-dd, yyyy-mm-dd hh:mm:ss: as long as shown
        return len(cell.number_format)
    if isinstance(value, timedelta):
        return len(f"{int(value.total_seconds() // 3600)}:00")
    return len(str(value)) if value is not None else 0


def laid_out(book: Workbook) -> Workbook:
    """Checks that the workbook opens readable: in every sheet each column's width fits its
    dates, durations and numbers (else Excel shows #####) and its header with the filter
    button; the first sheet's header row is bold, frozen and filtered over all its rows."""
    for sheet in book.worksheets:
        for column in sheet.iter_cols():
            letter = get_column_letter(column[0].column)
            needed = max(
                (
                    shown_characters(c) + (2 if c.row == 1 and c.font.b else 0)
                    for c in column
                    if not isinstance(c.value, str) or c.row == 1
                ),
                default=0,
            )
            if needed:
                width = sheet.column_dimensions[letter].width
                assert sheet.column_dimensions[letter].customWidth, (sheet.title, letter)
                assert width >= needed, (sheet.title, letter, width, needed)
    table = book.worksheets[0]
    last = get_column_letter(table.max_column)
    assert table.freeze_panes == "A2"
    assert table.auto_filter.ref == f"A1:{last}{table.max_row}"
    assert all(cell.font.b for cell in table[1])
    assert not any(cell.font.b for row in table.iter_rows(min_row=2) for cell in row)
    return book


def values(sheet: Worksheet) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in sheet.iter_rows(values_only=True)]


def formats(sheet: Worksheet, row: int, columns: Sequence[int]) -> list[str]:
    """Number formats of these (1-based) cells of a row."""
    return [str(sheet.cell(row=row, column=c).number_format) for c in columns]
