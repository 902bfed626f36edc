"""XLSX workbooks whose sheet rows are written as XML straight into a deflated zip member
of a temporary file, then streamed: memory stays flat however many rows, and user text is
always an inline string (never a formula or a link)."""

import asyncio
import functools
import math
import operator
import os
import re
import tempfile
import zipfile
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import IO, Any, BinaryIO, Self
from xml.sax.saxutils import quoteattr
from zoneinfo import ZoneInfo

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CHUNK_BYTES = 256 * 1024
# The 40 MiB of sheet XML of 100,000 Activity rows: level 2 deflates it in 0.08 s of CPU to
# 4.0 MiB, level 1 as fast to 4.7 MiB, the default level 6 in 0.29 s to 3.4 MiB.
COMPRESS_LEVEL = 2


class Bold(str):
    """Text in the bold style (headers and the labels of a summary)."""


# A typed cell: text, number, Excel date-time, Excel date, duration ([h]:mm), or empty.
Cell = str | int | float | bool | datetime | date | timedelta | None


def duration(nanoseconds: int) -> timedelta:
    return timedelta(microseconds=nanoseconds // 1000)


def wall_clock(value: datetime | None, timezone: str) -> datetime | None:
    """The time as a clock in that timezone shows it (reports are read on site)."""
    if value is None or value.year < 1000:
        return None
    return value.astimezone(ZoneInfo(timezone)).replace(tzinfo=None)


# Cell formats, the indexes of cellXfs in STYLES.
BOLD, DATE_TIME, DAY, DURATION = 1, 2, 3, 4
EPOCH = datetime(1899, 12, 30)  # Excel's day 0 (serials are right from 1900-03-01)
EPOCH_DAY = EPOCH.toordinal()
ONE_DAY = timedelta(days=1)
MAX_COLUMNS = 16_384
MAX_ROWS = 1_048_576


def _letters(column: int) -> str:
    name = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        name = chr(65 + rest) + name
    return name


COLUMNS = [_letters(c) for c in range(MAX_COLUMNS)]

# XML 1.0 can't hold most control characters, lone surrogates or U+FFFE/U+FFFF: Excel's own
# escape for them is _xHHHH_, so a literal "_xHHHH_" in the text gets its "_" escaped too.
NOT_XML = r"\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff"
LITERAL_ESCAPE = re.compile(r"(_x[0-9A-Fa-f]{4}_)")
NOT_XML_CHARACTER = re.compile(f"[{NOT_XML}]")
# Excel refuses these in sheet names.
NOT_IN_TITLE = re.compile(r"[\[\]:*?/\\\x00-\x1f\ud800-\udfff\ufffe\uffff]")


def _control(match: re.Match[str]) -> str:
    return f"_x{ord(match[0]):04X}_"


def _text(value: str) -> str:
    """The rest of a <t> element's start tag and its text."""
    # Checks in C, several times faster than a regular expression for the usual text.
    if (
        value.isprintable()
        and "&" not in value
        and "<" not in value
        and ">" not in value
        and "_x" not in value
        and value[0] != " "
        and value[-1] != " "
    ):
        return ">" + value
    space = ' xml:space="preserve">' if value[0].isspace() or value[-1].isspace() else ">"
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return space + NOT_XML_CHARACTER.sub(_control, LITERAL_ESCAPE.sub(r"_x005F\1", value))


def _number(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{value} has no place in a spreadsheet cell")
    return value


def _date_time(value: datetime) -> float:
    # Excel has no time zones: the caller chooses the wall clock.
    if value.tzinfo is not None:
        value = value.replace(tzinfo=None)
    return (value - EPOCH) / ONE_DAY


def _day(value: date) -> int:
    return value.toordinal() - EPOCH_DAY


def _days(value: timedelta) -> float:
    return value / ONE_DAY


# Each type's cell, "{ref}" its reference and "{v...}" its value as the second function
# makes it; a row's XML is then one str.format of a template made for its types.
CELLS: dict[type, tuple[str, Callable[[Any], object]]] = {
    str: ('<c r="{ref}" t="inlineStr"><is><t{v}</t></is></c>', _text),
    Bold: (f'<c r="{{ref}}" s="{BOLD}" t="inlineStr"><is><t{{v}}</t></is></c>', _text),
    bool: ('<c r="{ref}" t="b"><v>{v:d}</v></c>', int),
    int: ('<c r="{ref}"><v>{v:d}</v></c>', int),
    float: ('<c r="{ref}"><v>{v!r}</v></c>', _number),
    datetime: (f'<c r="{{ref}}" s="{DATE_TIME}"><v>{{v!r}}</v></c>', _date_time),
    date: (f'<c r="{{ref}}" s="{DAY}"><v>{{v:d}}</v></c>', _day),
    timedelta: (f'<c r="{{ref}}" s="{DURATION}"><v>{{v!r}}</v></c>', _days),
    type(None): ("", id),
}


def _cell(kind: type) -> tuple[str, Callable[[Any], object]]:
    """A subclass (an enum's text or number, say) is written as its first base we know."""
    for base in kind.__mro__:
        if base in CELLS:
            return CELLS[base]
    raise TypeError(f"No spreadsheet cell for {kind.__name__}")


@functools.lru_cache(maxsize=1024)
def _shape(kinds: tuple[type, ...]) -> tuple[str, tuple[Callable[[Any], object], ...]]:
    """A row template for cells of these types, and what makes each cell's value."""
    template = ['<row r="{0}">']
    values = []
    for index, (column, kind) in enumerate(zip(COLUMNS, kinds, strict=False), 1):
        cell, value = _cell(kind)
        template.append(cell.replace("{ref}", column + "{0}").replace("{v", f"{{{index}"))
        values.append(value)
    template.append("</row>")
    return "".join(template), tuple(values)


def _row(number: int, cells: Sequence[object]) -> str:
    if "" in cells:  # empty text is an empty cell
        cells = [None if value == "" else value for value in cells]
    template, values = _shape(tuple(map(type, cells)))
    return template.format(str(number), *map(operator.call, values, cells))


class Sheet:
    """A worksheet being written: rows go in order, straight into its zip member."""

    def __init__(self, member: IO[bytes], number: int, title: str) -> None:
        self.member = member
        self.number = number
        self.title = title
        self.rows = 0
        member.write(f"{XML}<worksheet {SHEET_NS}><sheetData>".encode())

    def write(self, rows: Iterable[Sequence[Cell]]) -> None:
        """The next rows, typed cells each; text is always written as text."""
        if self.member.closed:
            raise ValueError(f"Sheet {self.title!r} is finished: a later one was added")
        first = self.rows + 1
        xml = [_row(number, cells) for number, cells in enumerate(rows, first)]
        # Excel shows no more rows: the rest are left out (as before).
        del xml[MAX_ROWS - self.rows :]
        self.rows += len(xml)
        self.member.write("".join(xml).encode("utf-8"))

    def close(self) -> None:
        if not self.member.closed:
            self.member.write(b"</sheetData></worksheet>")
            self.member.close()


def sheet_title(title: str, taken: Iterable[str]) -> str:
    """A valid and unused sheet name: at most 31 characters, none of []:*?/\\, not
    empty, not starting or ending with an apostrophe, not Excel's reserved History."""
    name = NOT_IN_TITLE.sub("_", title)[:31].strip("'") or "Sheet"
    if name.casefold() == "history":
        name += "_"
    used = {t.casefold() for t in taken}
    number = 1
    base = name
    while name.casefold() in used:
        number += 1
        suffix = f" ({number})"
        name = base[: 31 - len(suffix)].rstrip("'") + suffix
    return name


class XlsxFile:
    """A workbook in a temporary file; use it as `async with`, then `finish()` for its bytes.

    Sheets are written one after the other: adding a sheet finishes the one before."""

    def __init__(self, prefix: str = "tagtrack-") -> None:
        handle, name = tempfile.mkstemp(prefix=prefix, suffix=".xlsx")
        os.close(handle)
        self.path = Path(name)
        self.zip = zipfile.ZipFile(
            self.path, "w", zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL
        )
        # The package's relationships and styles first: `file` and the like then know the
        # zip for a spreadsheet; [Content_Types].xml lists the sheets, so it comes last.
        self.zip.writestr("_rels/.rels", ROOT_RELS)
        self.zip.writestr("xl/styles.xml", STYLES)
        self.sheets: list[Sheet] = []

    def add_sheet(self, title: str, headers: Sequence[str] = ()) -> Sheet:
        """A new worksheet, with a bold header row if headers are given; the rows then
        follow it in order."""
        if self.sheets:
            self.sheets[-1].close()
        number = len(self.sheets) + 1
        sheet = Sheet(
            self.zip.open(f"xl/worksheets/sheet{number}.xml", "w"),
            number,
            sheet_title(title, (s.title for s in self.sheets)),
        )
        self.sheets.append(sheet)
        if headers:
            sheet.write([[Bold(h) for h in headers]])
        return sheet

    def add_pairs(self, title: str, pairs: Sequence[tuple[str, Cell]]) -> None:
        """A small sheet of label and value rows (a report's summary)."""
        self.add_sheet(title).write([Bold(label), value] for label, value in pairs)

    def _close(self) -> None:
        if self.sheets:
            self.sheets[-1].close()
        else:
            self.add_sheet("Sheet1").close()
        sheets = "".join(
            f'<sheet name={quoteattr(s.title)} sheetId="{s.number}" r:id="rId{s.number}"/>'
            for s in self.sheets
        )
        self.zip.writestr(
            "xl/workbook.xml",
            f"{XML}<workbook {SHEET_NS}><bookViews><workbookView/></bookViews>"
            f"<sheets>{sheets}</sheets></workbook>",
        )
        relations = "".join(
            f'<Relationship Id="rId{s.number}" Type="{RELATIONS}/worksheet" '
            f'Target="worksheets/sheet{s.number}.xml"/>'
            for s in self.sheets
        )
        self.zip.writestr(
            "xl/_rels/workbook.xml.rels",
            f'{XML}<Relationships xmlns="{PACKAGE_RELATIONS}">{relations}'
            f'<Relationship Id="rId{len(self.sheets) + 1}" Type="{RELATIONS}/styles" '
            f'Target="styles.xml"/></Relationships>',
        )
        overrides = "".join(
            f'<Override PartName="/xl/worksheets/sheet{s.number}.xml" '
            f'ContentType="{SPREADSHEET}.worksheet+xml"/>'
            for s in self.sheets
        )
        self.zip.writestr("[Content_Types].xml", CONTENT_TYPES.format(sheets=overrides))
        self.zip.close()

    async def finish(self) -> AsyncIterator[bytes]:
        """Close the workbook; stream its bytes (the file is unlinked once opened)."""
        await asyncio.to_thread(self._close)
        handle = await asyncio.to_thread(self.path.open, "rb")
        return _stream(handle)

    async def finish_bytes(self) -> bytes:
        """Close the workbook and read it whole (for a mail attachment)."""
        await asyncio.to_thread(self._close)
        return await asyncio.to_thread(self.path.read_bytes)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        # The open stream keeps the bytes; the name goes now, whatever happened.
        await asyncio.to_thread(self._abandon)

    def _abandon(self) -> None:
        if self.zip.fp is not None:  # left unfinished: an error on the way
            for sheet in self.sheets:
                sheet.member.close()
            self.zip.close()
        self.path.unlink(missing_ok=True)


class TableFile(XlsxFile):
    """A workbook whose first sheet is one table, appended to chunk by chunk."""

    def __init__(self, prefix: str, title: str, headers: Sequence[str]) -> None:
        super().__init__(prefix)
        self.table = self.add_sheet(title, headers)

    @property
    def rows(self) -> int:
        """Rows below the header."""
        return self.table.rows - 1

    async def append(self, rows: Sequence[Sequence[Cell]]) -> None:
        await asyncio.to_thread(self.table.write, rows)


async def _stream(handle: BinaryIO) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(handle.read, CHUNK_BYTES):
            yield chunk
    finally:
        handle.close()


XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONS = "http://schemas.openxmlformats.org/package/2006/relationships"
SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml"
SHEET_NS = f'xmlns="{MAIN}" xmlns:r="{RELATIONS}"'
ROOT_RELS = (
    f'{XML}<Relationships xmlns="{PACKAGE_RELATIONS}"><Relationship Id="rId1" '
    f'Type="{RELATIONS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
CONTENT_TYPES = (
    f'{XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{SPREADSHEET}.sheet.main+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{SPREADSHEET}.styles+xml"/>'
    "{sheets}</Types>"
)
FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/><scheme val="minor"/>'
XF = 'fontId="{}" fillId="0" borderId="0" xfId="0"'
STYLES = (
    f'{XML}<styleSheet xmlns="{MAIN}"><numFmts count="3">'
    '<numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/>'
    '<numFmt numFmtId="165" formatCode="yyyy-mm-dd"/>'
    '<numFmt numFmtId="166" formatCode="[h]:mm"/></numFmts>'
    f'<fonts count="2"><font>{FONT}</font><font><b/>{FONT}</font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
    '</cellStyleXfs><cellXfs count="5">'
    f'<xf numFmtId="0" {XF.format(0)}/>'  # 0: plain
    f'<xf numFmtId="0" {XF.format(1)} applyFont="1"/>'  # BOLD
    f'<xf numFmtId="164" {XF.format(0)} applyNumberFormat="1"/>'  # DATE_TIME
    f'<xf numFmtId="165" {XF.format(0)} applyNumberFormat="1"/>'  # DAY
    f'<xf numFmtId="166" {XF.format(0)} applyNumberFormat="1"/>'  # DURATION
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</cellStyles></styleSheet>"
)
