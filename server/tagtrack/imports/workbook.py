"""Reading .xlsx workbooks: only real .xlsx files (judged by their bytes), first sheet, cells
as text, rows streamed so that very large files read in constant memory."""

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import IO, Any

import openpyxl
from openpyxl.utils import get_column_letter

MAX_FILE_BYTES = 20 * 1024 * 1024
# Guards against zip bombs: the unpacked parts of a workbook may not exceed this.
MAX_UNPACKED_BYTES = 400 * 1024 * 1024
MAX_ROWS = 50_000
MAX_COLUMNS = 200
MAX_CELL_CHARS = 32_767
# What one preview may hold in memory, whatever its shape.
MAX_CELLS = 2_000_000

LIMITS_TEXT = (
    f"An .xlsx workbook (Excel 2007 or later) of at most {MAX_FILE_BYTES // 1048576} MiB "
    f"({MAX_UNPACKED_BYTES // 1048576} MiB unpacked), read from its first sheet: the first "
    f"non-empty row (or the row chosen) holds the headers, then at most {MAX_ROWS:,} rows of "
    f"at most {MAX_COLUMNS} columns ({MAX_CELLS:,} cells in all). Old .xls files, CSV, "
    "password-protected and damaged workbooks are refused (4xx)."
)

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC = b"PK\x03\x04"


class WorkbookRefused(Exception):
    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


def _refuse_by_signature(head: bytes, whole: bytes | None) -> None:
    """Say what the file is when it is not a zip archive."""
    if head.startswith(_OLE_MAGIC):
        # Excel wraps a password-protected .xlsx in an OLE file with an EncryptedPackage.
        if whole is not None and "EncryptedPackage".encode("utf-16-le") in whole:
            raise WorkbookRefused(
                "The workbook is password-protected: remove the password in Excel, save it "
                "as .xlsx and choose it again",
                "encrypted",
            )
        raise WorkbookRefused(
            "This is an old Excel 97-2003 (.xls) file: save it as .xlsx in Excel and choose "
            "it again",
            "unsupported type",
        )
    if head.startswith(_ZIP_MAGIC):
        return
    sample = head[:4096]
    if sample and b"\x00" not in sample:
        raise WorkbookRefused(
            "This is a text (CSV) file, not an Excel workbook: only .xlsx files can be imported",
            "unsupported type",
        )
    raise WorkbookRefused(
        "The file is not an Excel workbook: only .xlsx files can be imported", "unsupported type"
    )


def _check_archive(source: IO[bytes]) -> None:
    try:
        with zipfile.ZipFile(source) as archive:
            names = set(archive.namelist())
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise WorkbookRefused(
            "The workbook is damaged (not a readable .xlsx file)", "damaged"
        ) from exc
    finally:
        source.seek(0)
    if "xl/workbook.xml" not in names:
        raise WorkbookRefused(
            "The file is a zip archive but not an Excel workbook: only .xlsx files can be imported",
            "unsupported type",
        )
    if unpacked > MAX_UNPACKED_BYTES:
        raise WorkbookRefused(
            f"The workbook unpacks to more than {MAX_UNPACKED_BYTES // 1048576} MiB",
            "too large",
        )


def cell_text(value: Any) -> str:
    """A cell as the text a person would read in Excel."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # Serial numbers and tags typed as numbers must not grow a '.0'.
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime):
        if value.time() == time(0, 0):
            return value.date().isoformat()
        return value.replace(microsecond=0).isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.replace(microsecond=0).isoformat()
    if isinstance(value, timedelta):
        seconds = int(value.total_seconds())
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return str(value).strip()[:MAX_CELL_CHARS]


def _unique_headers(cells: list[str]) -> list[str]:
    """Headers as written; an empty one is named by its column, a repeat gets ' (2)'."""
    headers: list[str] = []
    seen: set[str] = set()
    for index, cell in enumerate(cells, start=1):
        base = cell or f"Column {get_column_letter(index)}"
        name, n = base, 1
        while name.lower() in seen:
            n += 1
            name = f"{base} ({n})"
        seen.add(name.lower())
        headers.append(name)
    return headers


# Non-empty rows above a chosen header row kept to offer as the header row instead.
MAX_ABOVE = 20


@dataclass
class Sheet:
    """The first sheet of a workbook: its headers, and its rows as text, read lazily."""

    headers: list[str]
    rows: Iterator[list[str]]
    # Rows the file says it has (a hint for progress; None when it does not say).
    size_hint: int | None
    # The sheet's row number (as Excel shows it) of the headers.
    header_row: int = 1
    # The non-empty rows above the headers, with their row numbers (at most MAX_ABOVE).
    above: list[tuple[int, list[str]]] = field(default_factory=list)
    # The row number of the row last handed on by rows.
    row_number: int = 0


def _texts(values: tuple[Any, ...]) -> list[str]:
    texts = [cell_text(v) for v in values]
    while texts and not texts[-1]:
        texts.pop()
    if len(texts) > MAX_COLUMNS:
        raise WorkbookRefused(f"The sheet has more than {MAX_COLUMNS} columns", "too large")
    return texts


def open_sheet(
    source: IO[bytes],
    *,
    max_rows: int | None = MAX_ROWS,
    max_cells: int | None = MAX_CELLS,
    owned: bool = False,
    header_row: int | None = None,
) -> Sheet:
    """Check the file is a real .xlsx and open its first sheet; raises WorkbookRefused.
    The headers are in header_row (the sheet's row number), else in the first non-empty row."""
    head = source.read(4096)
    source.seek(0)
    if not head.startswith(_ZIP_MAGIC):
        whole = head + source.read(MAX_FILE_BYTES) if head.startswith(_OLE_MAGIC) else None
        _refuse_by_signature(head, whole)
    _check_archive(source)
    try:
        book = openpyxl.load_workbook(source, read_only=True, data_only=True)
    except Exception as exc:  # a malformed part may make the parser raise anything
        raise WorkbookRefused(
            "The workbook is damaged (not a readable .xlsx file)", "damaged"
        ) from exc
    if not book.worksheets:
        book.close()
        raise WorkbookRefused("The workbook has no sheet", "empty")
    sheet = book.worksheets[0]
    hint = sheet.max_row if isinstance(sheet.max_row, int) else None
    # A declared size is not trusted: rows are read as they are, not padded to it.
    sheet.reset_dimensions()
    values = enumerate(sheet.iter_rows(values_only=True), start=1)
    above: list[tuple[int, list[str]]] = []
    try:
        headers: list[str] | None = None
        number = 0
        for number, raw in values:
            texts = _texts(raw)
            if header_row is None and not any(texts):
                continue
            if header_row is None or number == header_row:
                if any(texts):
                    headers = _unique_headers(texts)
                break
            if any(texts) and len(above) < MAX_ABOVE:
                above.append((number, texts))
    except WorkbookRefused:
        book.close()
        raise
    except Exception as exc:
        book.close()
        raise WorkbookRefused(
            "The workbook is damaged (not a readable .xlsx file)", "damaged"
        ) from exc
    if headers is None:
        book.close()
        if header_row is not None and number == header_row:
            raise WorkbookRefused(
                f"Row {header_row} of the sheet is empty: choose the row with the headers",
                "empty header row",
            )
        if header_row is not None and number:
            raise WorkbookRefused(
                f"The sheet has no row {header_row}: choose the row with the headers",
                "empty header row",
            )
        raise WorkbookRefused("The first sheet of the workbook is empty", "empty")

    def rows() -> Iterator[list[str]]:
        width = len(headers)
        count = cells = 0
        try:
            for row_number, raw in values:
                result.row_number = row_number
                texts = _texts(raw)
                if not any(texts):
                    continue
                count += 1
                if max_rows is not None and count > max_rows:
                    raise WorkbookRefused(f"The sheet has more than {max_rows:,} rows", "too large")
                cells += max(width, len(texts))
                if max_cells is not None and cells > max_cells:
                    raise WorkbookRefused(
                        f"The sheet has more than {max_cells:,} cells", "too large"
                    )
                # Cells beyond the headers are kept: read_all names their columns.
                yield texts + [""] * (width - len(texts))
        except WorkbookRefused:
            raise
        except Exception as exc:
            raise WorkbookRefused(
                "The workbook is damaged (not a readable .xlsx file)", "damaged"
            ) from exc
        finally:
            book.close()
            if owned:
                source.close()

    result = Sheet(headers=headers, rows=rows(), size_hint=hint, header_row=number, above=above)
    return result


@dataclass
class ReadSheet:
    """A whole sheet in memory: the headers, the rows below them and the rows above."""

    headers: list[str]
    rows: list[list[str]]
    row_numbers: list[int]
    header_row: int
    above: list[tuple[int, list[str]]]


def read_all(data: bytes, header_row: int | None = None) -> ReadSheet:
    """Headers and every row of a workbook held in memory (the API's preview)."""
    if len(data) > MAX_FILE_BYTES:
        raise WorkbookRefused(f"The file is over {MAX_FILE_BYTES // 1048576} MiB", "too large")
    sheet = open_sheet(io.BytesIO(data), header_row=header_row)
    rows: list[list[str]] = []
    numbers: list[int] = []
    for row in sheet.rows:
        rows.append(row)
        numbers.append(sheet.row_number)
    width = max([len(sheet.headers), *(len(r) for r in rows)])
    headers = _unique_headers(sheet.headers + [""] * (width - len(sheet.headers)))
    return ReadSheet(
        headers=headers,
        rows=[r + [""] * (width - len(r)) for r in rows],
        row_numbers=numbers,
        header_row=sheet.header_row,
        above=sheet.above,
    )


def open_path(path: Path) -> Sheet:
    """A workbook on disk, any size, rows streamed (the command line)."""
    source = path.open("rb")
    try:
        return open_sheet(source, max_rows=None, max_cells=None, owned=True)
    except WorkbookRefused:
        source.close()
        raise
