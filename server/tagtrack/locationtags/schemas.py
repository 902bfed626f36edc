from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id, RequiredText
from tagtrack.kit.tracking import XY, FractionXY, OptionalRef, default_xy


class LocationTagFields(ApiModel):
    name: RequiredText = Field(max_length=200)
    tag: RequiredText = Field(
        max_length=128, description="Stored trimmed and upper case; unique in the organization"
    )
    zone: OptionalRef = Field(default=None, description="A zone of the same site, or null")
    map: str = Field(default="", max_length=24)
    xycoordinates: XY = Field(default_factory=default_xy)
    site: Id


class LocationTagWrite(LocationTagFields):
    id: str | None = Field(default=None, alias="_id")
    xycoordinates: FractionXY = Field(default_factory=default_xy)


class LocationTagRead(LocationTagFields):
    id: str = Field(alias="_id")
    site: str
