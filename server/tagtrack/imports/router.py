from typing import Annotated

from fastapi import APIRouter, Depends, File, Query, UploadFile

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES, ErrorBody
from tagtrack.imports.rules import BATCH_TEXT, RULES_TEXT
from tagtrack.imports.schemas import (
    ImportRow,
    ImportRowResult,
    ImportRows,
    ImportRowsResult,
    ParsedSheet,
)
from tagtrack.imports.service import ImportService
from tagtrack.imports.workbook import LIMITS_TEXT, MAX_FILE_BYTES
from tagtrack.kit.schemas import Id
from tagtrack.kit.wiring import provide
from tagtrack.settings.schemas import ImportMapping

router = APIRouter(
    prefix="/import",
    tags=["import"],
    responses={
        **ERROR_RESPONSES,
        413: {"model": ErrorBody, "description": "File, sheet or workbook too large"},
        415: {"model": ErrorBody, "description": "Not an .xlsx workbook"},
    },
)


Service = Annotated[ImportService, Depends(provide(ImportService))]
Importer = Annotated[Principal, allowed("import", "modify")]


@router.post("/parse", response_model=ParsedSheet, description=LIMITS_TEXT)
async def parse_workbook(
    principal: Importer,
    service: Service,
    file: Annotated[UploadFile, File(description="The .xlsx workbook")],
    headerRow: Annotated[  # noqa: N803
        int | None,
        Query(
            ge=1,
            le=1_048_576,
            description="The row number of the headers; default: the first non-empty row",
        ),
    ] = None,
) -> ParsedSheet:
    """Read a workbook's first sheet for the preview; nothing is stored."""
    data = await file.read(MAX_FILE_BYTES + 1)
    return await service.parse(file.filename or "", data, headerRow)


@router.post("/row", response_model=ImportRowResult, status_code=201, description=RULES_TEXT)
async def import_row(body: ImportRow, principal: Importer, service: Service) -> ImportRowResult:
    """Create one row of the sheet as an item of the site (or fill in its duplicate)."""
    return await service.import_row(principal, body)


@router.post("/rows", response_model=ImportRowsResult, description=f"{BATCH_TEXT} {RULES_TEXT}")
async def import_rows(body: ImportRows, principal: Importer, service: Service) -> ImportRowsResult:
    """Import a batch of rows of the sheet, each on its own, with one result per row."""
    return await service.import_rows(principal, body)


@router.put("/mapping", response_model=ImportMapping)
async def save_mapping(
    body: ImportMapping, principal: Importer, service: Service, site: Annotated[Id, Query()]
) -> ImportMapping:
    """Keep the header mapping in the site's settings (importSettings.importMappings, by name;
    DEFAULT is offered again on the next import); other settings are left unchanged."""
    return await service.save_mapping(principal, site, body)
