from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Choice, Id, IdField, RequiredText

Category = Annotated[RequiredText, Field(max_length=200)]
ReportType = Literal["reportTypeSeen", "reportTypeNotSeen", "reportTypeCategories"]
ReportFormat = Literal["excel", "json"]

# The columns each type of report can show, in their default order. A configuration's
# headings choose some of them (in its order); none chosen means all.
REPORT_HEADINGS: dict[str, tuple[str, ...]] = {
    "reportTypeSeen": (
        "Name", "Serial", "Tag", "Class", "Categories", "Zone",
        "First Seen", "Last Seen", "Events",
    ),
    "reportTypeNotSeen": (
        "Name", "Serial", "Tag", "Class", "Categories", "Zone", "Last Seen", "Current Zone",
    ),
    "reportTypeCategories": ("Zone", "Category", "Count"),
}  # fmt: skip

REPORT_TYPE_NAMES = {
    "reportTypeSeen": "Things seen in the zones during the period",
    "reportTypeNotSeen": "Things last seen in the zones before the period",
    "reportTypeCategories": "Things in each zone by category",
}


class ReportConfigWrite(ApiModel):
    """Create or update a report configuration (the whole object)."""

    id: str | None = Field(default=None, alias="_id")
    name: RequiredText = Field(max_length=200, description="Required; unique within the site")
    type: ReportType
    format: ReportFormat
    email: bool = Field(default=False, description="Attach to the site's daily report mail")
    zones: list[Id] = Field(
        default_factory=list, max_length=500, description="Zones of the site; none = all"
    )
    categories: list[Category] = Field(
        default_factory=list, max_length=200, description="Thing categories; none = all"
    )
    headings: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Columns to show, in order, from the type's headings (GET reporttypes); "
        "none = all",
    )
    site: Id


class ReportConfigRead(ApiModel):
    id: str = IdField
    name: str
    type: str
    format: str
    email: bool
    zones: list[str]
    zoneNames: list[str] = Field(description="Names of `zones`, same order")
    categories: list[str]
    headings: list[str]
    site: str


class ReportTypeRead(ApiModel):
    id: str
    name: str
    headings: list[str] = Field(description="The columns this type can show, default order")


class AdhocReport(ApiModel):
    """Run a categories report now: JSON counts or an XLSX workbook (report.xlsx)."""

    type: Literal["reportTypeCategories"]
    format: ReportFormat
    site: Id
    categories: list[Category] = Field(default_factory=list, max_length=200)
    zones: list[Id] = Field(default_factory=list, max_length=500)


class CategoryCount(ApiModel):
    category: str
    count: int


class ZoneCategories(ApiModel):
    zone: str
    zoneName: str
    categories: list[CategoryCount] = Field(description="Non-zero counts, by category name")
    total: int = Field(description="Things in the zone carrying a counted category")


class CategoryReport(ApiModel):
    site: str
    zones: list[ZoneCategories] = Field(description="The chosen zones (none chosen: all), by name")
    total: int


class ActivityDay(ApiModel):
    day: date = Field(description="The day on the site's clock")
    firstSeen: datetime
    lastSeen: datetime
    timeDuration: int = Field(description="Nanoseconds on site: lastSeen - firstSeen")
    events: int
    reads: int


class ActivityThing(ApiModel):
    thing: str
    thingName: str
    thingTag: str
    thingClass: str
    site: str
    timeDuration: int = Field(description="Nanoseconds: the sum over the days")
    events: int
    reads: int
    days: list[ActivityDay]


REPORT_FORMATS = (Choice(id="excel", name="Excel (.xlsx)"), Choice(id="json", name="JSON"))
