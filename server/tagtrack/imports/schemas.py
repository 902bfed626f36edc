from typing import Annotated, Literal

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id
from tagtrack.settings.schemas import HeaderAssetField

CellText = Annotated[str, Field(max_length=32_767)]


class SheetRow(ApiModel):
    row: int = Field(description="The sheet's row number")
    cells: list[str]


class ParsedSheet(ApiModel):
    """The first sheet of a workbook, every cell as text (dates as YYYY-MM-DD or
    YYYY-MM-DD HH:MM:SS, whole numbers without decimals, TRUE/FALSE)."""

    fileName: str
    headers: list[str]
    rows: list[list[str]] = Field(description="Each row has one cell per header")
    headerRow: int = Field(description="The sheet's row number (as Excel shows it) of the headers")
    rowNumbers: list[int] = Field(description="The sheet's row number of each row")
    above: list[SheetRow] = Field(
        description="Non-empty rows above the headers (at most 20), to choose as headers instead"
    )


class ImportTarget(ApiModel):
    """Where rows go and how they are read: the same for one row or a batch."""

    site: Id
    zone: Id | Literal[""] = Field(
        default="",
        description="Put the item in this zone of the site (by a manual event on its first "
        "tag; an item without any tag is created without a zone). Required when the site's "
        "importSettings.requireZone is on (400 'Please select a zone to import assets to.')",
    )
    headerAssetFields: list[HeaderAssetField] = Field(max_length=8)
    updateDuplicate: bool = Field(
        default=False,
        description="When a tag of the row is already another item's: false answers 400 with "
        "'duplicate' in the message; true fills what that item lacks from the row",
    )


Cells = Annotated[
    dict[Annotated[str, Field(max_length=200)], CellText],
    Field(max_length=200, description="The row's cells by header"),
]


class ImportRow(ImportTarget):
    cells: Cells


class BatchRow(ApiModel):
    cells: Cells


MAX_BATCH_ROWS = 500


class ImportRows(ImportTarget):
    rows: list[BatchRow] = Field(
        min_length=1,
        max_length=MAX_BATCH_ROWS,
        description=f"At most {MAX_BATCH_ROWS} rows, each imported on its own",
    )


class ImportRowResult(ApiModel):
    status: Literal["complete", "complete duplicate"]
    thing: str = Field(description="The id of the created or updated item")
    tags: list[str]
    createdCategories: list[str] = Field(description="Categories this row created, by name")


class BatchRowResult(ApiModel):
    """One row of a batch: imported ('complete', or 'complete duplicate' when an existing
    item was filled in), refused because a tag is already another item's ('duplicate', with
    the single-row call's 400 message as reason), or refused for another reason ('error')."""

    status: Literal["complete", "complete duplicate", "duplicate", "error"]
    reason: str = Field(default="", description="Why the row was refused")
    thing: str = Field(default="", description="The id of the created or updated item")
    tags: list[str] = Field(default_factory=list)
    createdCategories: list[str] = Field(default_factory=list)


class ImportRowsResult(ApiModel):
    results: list[BatchRowResult] = Field(description="One result per row, in the rows' order")
