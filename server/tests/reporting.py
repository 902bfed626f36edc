"""Builders for the report and exception tests: an organisation with a floor on its first
site, site clock settings, and XLSX workbooks opened with openpyxl."""

import io
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import httpx
from openpyxl import load_workbook
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
    """A fresh organisation and a floor on its first site, with these site columns set."""
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
    return load_workbook(io.BytesIO(response.content))


def values(sheet: Worksheet) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in sheet.iter_rows(values_only=True)]


def formats(sheet: Worksheet, row: int, columns: Sequence[int]) -> list[str]:
    """Number formats of these (1-based) cells of a row."""
    return [str(sheet.cell(row=row, column=c).number_format) for c in columns]
