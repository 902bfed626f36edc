"""A table as a JSON document, written row by row into a temporary file like the XLSX
workbooks (same calls as `TableFile`): {"title", "columns", "rows": [{column: value}], and
each table of pairs by its lower-cased title: {"summary": {label: value}}}. Times are ISO
8601 as given (the caller chooses the clock), durations in seconds."""

import asyncio
import json
import os
import tempfile
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import IO

from tagtrack.kit.xlsx import CHUNK_BYTES, Cell, SpooledDocument

JSON_MEDIA_TYPE = "application/json"


def _value(value: object) -> object:
    if isinstance(value, date):  # and datetime
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    raise TypeError(f"No JSON value for {type(value).__name__}")


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=_value, allow_nan=False)


class JsonTable(SpooledDocument):
    """A JSON table in a temporary file; use it as `async with`, then `finish()`."""

    def __init__(self, prefix: str, title: str, headers: Sequence[str]) -> None:
        handle, name = tempfile.mkstemp(prefix=prefix, suffix=".json")
        self.path = Path(name)
        self.file: IO[str] = os.fdopen(handle, "w", encoding="utf-8", buffering=CHUNK_BYTES)
        self.headers = list(headers)
        self.rows = 0
        self.pairs: dict[str, dict[str, object]] = {}
        self.file.write(f'{{"title": {_dumps(title)}, "columns": {_dumps(self.headers)}, ')
        self.file.write('"rows": [')

    def _write(self, rows: Sequence[Sequence[Cell]]) -> None:
        for cells in rows:
            self.file.write(("," if self.rows else "") + "\n")
            self.file.write(_dumps(dict(zip(self.headers, cells, strict=True))))
            self.rows += 1

    async def append(self, rows: Sequence[Sequence[Cell]]) -> None:
        await asyncio.to_thread(self._write, rows)

    def add_pairs(self, title: str, pairs: Sequence[tuple[str, Cell]]) -> None:
        """A small table of labels and values (a report's summary)."""
        self.pairs[title.lower()] = dict(pairs)

    def _close(self) -> None:
        self.file.write("\n]")
        for key, pairs in self.pairs.items():
            self.file.write(f", {_dumps(key)}: {_dumps(pairs)}")
        self.file.write("}\n")
        self.file.close()

    def _abandon(self) -> None:
        self.file.close()
        self.path.unlink(missing_ok=True)
