"""Workbooks made in the tests (never outside files)."""

import io
from typing import Any

from openpyxl import Workbook


def workbook_bytes(headers: list[str], rows: list[list[Any]]) -> bytes:
    """An .xlsx whose first sheet has these headers, then these rows."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(headers)
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
