from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from tagtrack.access.dependencies import SignedIn
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.exceptions.schemas import ExceptionDetail, ExceptionRead
from tagtrack.exceptions.service import ExceptionService
from tagtrack.kit.lists import After, Before, Limit, Page, set_total
from tagtrack.kit.wiring import provide
from tagtrack.kit.xlsx import XLSX_RESPONSE, download
from tagtrack.sites.scope import SiteQuery

router = APIRouter(prefix="/exceptions", tags=["exceptions"], responses=ERROR_RESPONSES)


Service = Annotated[ExceptionService, Depends(provide(ExceptionService))]


@router.get("", response_model=list[ExceptionRead])
async def list_exceptions(
    principal: SignedIn,
    service: Service,
    response: Response,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
    sort: Annotated[str, Query(max_length=16, description="time or type; '-' descends")] = "-time",
    limit: Limit = 25,
    page: Page = 0,
) -> list[ExceptionRead]:
    """Exceptions of the period, newest first by default; total in x-total-count."""
    rows, total = await service.list_page(
        principal, site=site, after=after, before=before, sort=sort, limit=limit, page=page
    )
    set_total(response, total)
    return rows


@router.get("/export", response_class=StreamingResponse, responses=XLSX_RESPONSE)
async def export_exceptions(
    principal: SignedIn,
    service: Service,
    site: SiteQuery = "",
    after: After = None,
    before: Before = None,
) -> StreamingResponse:
    """Exceptions of the period, oldest first, as exceptions.xlsx: Time (site clock), Type,
    Message, Name, Tag, Zone, Duration ([h]:mm), Things, Site."""
    content = await service.export(principal, site=site, after=after, before=before)
    return download(content, "exceptions.xlsx")


@router.get("/{exception_id}", response_model=ExceptionDetail)
async def get_exception(
    exception_id: str, principal: SignedIn, service: Service
) -> ExceptionDetail:
    """One exception with the names and tags of its things."""
    return await service.get(principal, exception_id)
