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
import unicodedata
import zipfile
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import IO, Any, BinaryIO, Self
from xml.sax.saxutils import quoteattr
from zoneinfo import ZoneInfo

from fastapi.responses import StreamingResponse

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The OpenAPI responses of an endpoint that downloads a workbook.
XLSX_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {XLSX_MEDIA_TYPE: {}}, "description": "An XLSX workbook"}
}
CHUNK_BYTES = 256 * 1024
# The 40 MiB of sheet XML of 100,000 Activity rows: level 2 deflates it in 0.08 s of CPU to
# 4.0 MiB, level 1 as fast to 4.7 MiB, the default level 6 in 0.29 s to 3.4 MiB.
COMPRESS_LEVEL = 2


def download(
    content: AsyncIterator[bytes], filename: str, media_type: str = XLSX_MEDIA_TYPE
) -> StreamingResponse:
    """The file as an attachment, streamed as it is read."""
    return StreamingResponse(
        content,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


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


# Times of several sites: each row on its own site's clock, named in a column of its own.
SITE_CLOCK = "site time"
TIME_ZONE = "Time Zone"


def clock_of(zones: Sequence[str]) -> str:
    """The clock a workbook's times are on: the one time zone of its sites, or each site's."""
    return zones[0] if len(zones) == 1 else SITE_CLOCK


def clock_headers(headers: Iterable[str], timed: Iterable[str], clock: str) -> list[str]:
    """Headers naming the clock in each time column's ("First Seen (Europe/Amsterdam)"),
    and a Time Zone column last when the rows are on several sites' clocks."""
    times = set(timed)
    named = [f"{h} ({clock})" if h in times else h for h in headers]
    return [*named, TIME_ZONE] if clock == SITE_CLOCK else named


# Cell formats, the indexes of cellXfs in STYLES.
BOLD, DATE_TIME, DAY, DURATION = 1, 2, 3, 4
EPOCH = datetime(1899, 12, 30)  # Excel's day 0 (serials are right from 1900-03-01)
EPOCH_DAY = EPOCH.toordinal()
ONE_DAY = timedelta(days=1)
MAX_COLUMNS = 16_384
MAX_ROWS = 1_048_576
# Column widths are fitted to the header and to the rows up to this one: <cols> comes before
# the rows in the sheet, so the rows wait in memory until then.
SAMPLE_ROWS = 1000
# Widths in characters of the default font's digits: a cell's characters, a margin, room
# for a header's filter button, and bounds (long text is cut at the column's edge instead).
MARGIN, FILTER_BUTTON, MIN_WIDTH, MAX_WIDTH = 2.0, 2.5, 8.43, 60.0
# What Excel shows of each typed value, in characters (its formats in STYLES).
SHOWN_CHARACTERS: dict[type, int] = {bool: 5, datetime: 19, date: 10, timedelta: 7}


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


def _characters(value: object) -> int:
    """About how many characters wide a cell's value shows."""
    if isinstance(value, str):
        return max(map(_text_width, value.splitlines() or [""]))
    if isinstance(value, timedelta):
        hours = int(max(value, timedelta(0)) // timedelta(hours=1))
        return len(str(hours)) + 3
    if isinstance(value, int | float) and not isinstance(value, bool):
        return min(len(repr(value)), 11)  # General shows at most 11 characters
    return next((n for kind, n in SHOWN_CHARACTERS.items() if isinstance(value, kind)), 0)


def _text_width(line: str) -> int:
    if line.isascii():
        return len(line)
    # East Asian wide characters take two digits' room.
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


class Sheet:
    """A worksheet being written: rows go in order into its zip member, the first ones
    once their column widths are known. A header row is bold, frozen and filtered."""

    def __init__(
        self, member: IO[bytes], number: int, title: str, kinds: Sequence[type | None] = ()
    ) -> None:
        self.member = member
        self.number = number
        self.title = title
        self.rows = 0
        self.header = False
        self.columns = 0
        # Widths in characters; a column's declared type sets its least width, so a column
        # empty in the first rows still shows its later dates.
        self.widths = [float(SHOWN_CHARACTERS.get(kind, 0) if kind else 0) for kind in kinds]
        self.waiting: list[bytes] | None = []

    def write(self, rows: Iterable[Sequence[Cell]], *, header: bool = False) -> None:
        """The next rows, typed cells each; text is always written as text."""
        if self.member.closed:
            raise ValueError(f"Sheet {self.title!r} is finished: a later one was added")
        if self.waiting is not None:
            rows = list(rows)
            self._measure(rows[: SAMPLE_ROWS - self.rows], header)
        first = self.rows + 1
        xml = [_row(number, cells) for number, cells in enumerate(rows, first)]
        # Excel shows no more rows: the rest are left out (as before).
        del xml[MAX_ROWS - self.rows :]
        self.rows += len(xml)
        data = "".join(xml).encode("utf-8")
        if self.waiting is None:
            self.member.write(data)
            return
        self.waiting.append(data)
        if self.rows >= SAMPLE_ROWS:
            self._start()

    def _measure(self, rows: Sequence[Sequence[Cell]], header: bool) -> None:
        extra = FILTER_BUTTON if header else 0.0
        for cells in rows:
            self.columns = max(self.columns, len(cells))
            if len(self.widths) < len(cells):
                self.widths += [0.0] * (len(cells) - len(self.widths))
            for column, value in enumerate(cells):
                characters = _characters(value)
                if characters:
                    # Bold is about a tenth wider.
                    width = characters * 1.1 + extra if header else float(characters)
                    self.widths[column] = max(self.widths[column], width)
        if header:
            self.header = True

    def _start(self) -> None:
        """The sheet's start (frozen header, column widths) and the rows that waited."""
        waiting, self.waiting = self.waiting or [], None
        view = (
            '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" '
            'activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" '
            'activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
            if self.header
            else ""
        )
        cols = "".join(
            f'<col min="{n}" max="{n}" width="{min(MAX_WIDTH, max(MIN_WIDTH, w + MARGIN)):.2f}"'
            ' customWidth="1"/>'
            for n, w in enumerate(self.widths, 1)
            if w
        )
        self.member.write(
            f"{XML}<worksheet {SHEET_NS}>{view}"
            f'<sheetFormatPr defaultRowHeight="15"/>{f"<cols>{cols}</cols>" if cols else ""}'
            "<sheetData>".encode()
        )
        for data in waiting:
            self.member.write(data)

    @property
    def filter_range(self) -> str | None:
        """The header and the rows below it, when the sheet has a header."""
        if not self.header or not self.columns:
            return None
        return f"A1:{COLUMNS[self.columns - 1]}{max(self.rows, 1)}"

    def close(self) -> None:
        if not self.member.closed:
            if self.waiting is not None:
                self._start()
            ref = self.filter_range
            end = f'<autoFilter ref="{ref}"/>' if ref else ""
            self.member.write(f"</sheetData>{end}</worksheet>".encode())
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


class SpooledDocument(ABC):
    """A document written into a temporary file: use it as `async with`, then `finish()` for
    its bytes. Subclasses set `path` and say how to close and to abandon the file."""

    path: Path

    @abstractmethod
    def _close(self) -> None: ...

    @abstractmethod
    def _abandon(self) -> None: ...

    async def finish(self) -> AsyncIterator[bytes]:
        """Close the document; stream its bytes (the file is unlinked once opened)."""
        await asyncio.to_thread(self._close)
        handle = await asyncio.to_thread(self.path.open, "rb")
        return stream_file(handle)

    async def finish_bytes(self) -> bytes:
        """Close the document and read it whole (for a mail attachment)."""
        await asyncio.to_thread(self._close)
        return await asyncio.to_thread(self.path.read_bytes)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        # The open stream keeps the bytes; the name goes now, whatever happened.
        await asyncio.to_thread(self._abandon)


class XlsxFile(SpooledDocument):
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

    def add_sheet(
        self, title: str, headers: Sequence[str] = (), kinds: Sequence[type | None] = ()
    ) -> Sheet:
        """A new worksheet, with a bold, frozen and filtered header row if headers are
        given; the rows then follow it in order. `kinds` are the columns' cell types where
        known (datetime, timedelta...), so that their widths fit them from the start."""
        if self.sheets:
            self.sheets[-1].close()
        number = len(self.sheets) + 1
        sheet = Sheet(
            self.zip.open(f"xl/worksheets/sheet{number}.xml", "w"),
            number,
            sheet_title(title, (s.title for s in self.sheets)),
            kinds,
        )
        self.sheets.append(sheet)
        if headers:
            sheet.write([[Bold(h) for h in headers]], header=True)
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
        # Excel and LibreOffice keep a filter's range in this hidden name too.
        filters = "".join(
            f'<definedName name="_xlnm._FilterDatabase" localSheetId="{s.number - 1}" '
            f'hidden="1">{_escape(_quoted(s.title))}!{_absolute(ref)}</definedName>'
            for s in self.sheets
            if (ref := s.filter_range)
        )
        names = f"<definedNames>{filters}</definedNames>" if filters else ""
        self.zip.writestr(
            "xl/workbook.xml",
            f"{XML}<workbook {SHEET_NS}><bookViews><workbookView/></bookViews>"
            f"<sheets>{sheets}</sheets>{names}</workbook>",
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

    def _abandon(self) -> None:
        if self.zip.fp is not None:  # left unfinished: an error on the way
            for sheet in self.sheets:
                sheet.member.close()
            self.zip.close()
        self.path.unlink(missing_ok=True)


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _absolute(ref: str) -> str:
    return re.sub(r"([A-Z]+)(\d+)", r"$\1$\2", ref)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class TableFile(XlsxFile):
    """A workbook whose first sheet is one table, appended to chunk by chunk."""

    def __init__(
        self,
        prefix: str,
        title: str,
        headers: Sequence[str],
        kinds: Sequence[type | None] = (),
    ) -> None:
        super().__init__(prefix)
        self.table = self.add_sheet(title, headers, kinds)

    @property
    def rows(self) -> int:
        """Rows below the header."""
        return self.table.rows - 1

    async def append(self, rows: Sequence[Sequence[Cell]]) -> None:
        await asyncio.to_thread(self.table.write, rows)


async def stream_file(handle: BinaryIO) -> AsyncIterator[bytes]:
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
