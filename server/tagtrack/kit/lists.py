"""List parameters shared by every list endpoint, and paging in SQL."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Query, Response
from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from tagtrack.core.errors import BadRequest
from tagtrack.kit.schemas import UtcDateTime

# A mapped attribute or any SQL expression.
Column = InstrumentedAttribute[Any] | ColumnElement[Any]

MAX_LIMIT = 10000
# Keeps page * limit inside PostgreSQL's bigint OFFSET.
MAX_PAGE = 10**9
TOTAL_HEADER = "x-total-count"


@dataclass(frozen=True)
class ListParams:
    limit: int
    page: int
    sort: str
    search: str
    search2: str


async def _list_params(
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="Rows per page")] = 25,
    page: Annotated[int, Query(ge=0, le=MAX_PAGE, description="Zero-based page")] = 0,
    sort: Annotated[str, Query(max_length=64, description="Field, '-' prefix descends")] = "",
    search: Annotated[str, Query(max_length=200, description="Contains, any text field")] = "",
    search2: Annotated[str, Query(max_length=200, description="Fuzzy (trigram) match")] = "",
) -> ListParams:
    return ListParams(limit=limit, page=page, sort=sort, search=search.strip(), search2=search2)


Listing = Annotated[ListParams, Depends(_list_params)]


def set_total(response: Response, total: int) -> None:
    response.headers[TOTAL_HEADER] = str(total)


async def paginate(
    session: AsyncSession,
    stmt: Select[Any],
    params: ListParams,
    *,
    sortable: Mapping[str, Column],
    default_sort: str,
    searchable: Sequence[Column],
    tiebreak: Column,
) -> tuple[Sequence[Any], int]:
    """Apply search, sort and paging; return the page and the total before paging."""
    if params.search and searchable:
        pattern = f"%{_escape_like(params.search)}%"
        stmt = stmt.where(or_(*(col.ilike(pattern, escape="\\") for col in searchable)))
    if params.search2.strip() and searchable:
        term = params.search2.strip()
        stmt = stmt.where(or_(*(func.word_similarity(term, col) > 0.3 for col in searchable)))
    total = (await session.execute(select(func.count()).select_from(stmt.subquery()))).scalar_one()
    sort = params.sort or default_sort
    descending = sort.startswith("-")
    key = sort.lstrip("-")
    if key not in sortable:
        raise BadRequest(
            f"Cannot sort by '{key}'; sortable fields: {', '.join(sorted(sortable))}",
            reason="invalid sort",
        )
    column = sortable[key]
    order = column.desc() if descending else column.asc()
    stmt = stmt.order_by(order, tiebreak).limit(params.limit).offset(params.page * params.limit)
    rows = (await session.execute(stmt)).scalars().all()
    return rows, int(total)


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# The query of the history lists (events, zone durations, exceptions).
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT)]
Page = Annotated[int, Query(ge=0, le=MAX_PAGE, description="Zero-based page")]
After = Annotated[UtcDateTime | None, Query(description="From this time (inclusive)")]
Before = Annotated[UtcDateTime | None, Query(description="Up to this time (exclusive)")]
ThingFilter = Annotated[str, Query(max_length=24, description="Only this thing's")]
