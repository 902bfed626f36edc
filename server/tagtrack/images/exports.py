"""Zip and CSV exports that stream: memory stays flat however many images match."""

import csv
import io
import zipfile
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

# A spreadsheet reads a cell starting with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

CSV_HEADER = (
    "id",
    "name",
    "timestamp",
    "timeCreated",
    "uploader",
    "longitude",
    "latitude",
    "annotation",
    "tags",
    "categories",
    "width",
    "height",
    "format",
    "bytes",
    "device",
    "orientation",
)


def safe_cell(value: object) -> object:
    """Text that a spreadsheet would run as a formula is kept as text (leading quote)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_line(cells: Sequence[object]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow([safe_cell(c) for c in cells])
    return out.getvalue().encode("utf-8")


async def csv_stream(rows: AsyncIterator[Sequence[object]]) -> AsyncIterator[bytes]:
    # The byte-order mark tells spreadsheets the file is UTF-8.
    yield "\ufeff".encode() + csv_line(CSV_HEADER)
    async for row in rows:
        yield csv_line(row)


class _Sink:
    """A write-only file for ZipFile; what it receives is handed on and forgotten."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes, /) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        return None

    def close(self) -> None:
        return None

    def drain(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


Entry = tuple[str, datetime, AsyncIterator[bytes]]


async def zip_stream(entries: AsyncIterator[Entry]) -> AsyncIterator[bytes]:
    """A zip of the entries (name, time, chunks), stored as is: photos do not compress."""
    sink = _Sink()
    archive = zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_STORED, allowZip64=True)
    async for name, when, chunks in entries:
        info = zipfile.ZipInfo(name, date_time=max(when.timetuple()[:6], (1980, 1, 1, 0, 0, 0)))
        info.compress_type = zipfile.ZIP_STORED
        with archive.open(info, "w", force_zip64=False) as member:
            async for chunk in chunks:
                member.write(chunk)
                if data := sink.drain():
                    yield data
        if data := sink.drain():
            yield data
    archive.close()
    yield sink.drain()
