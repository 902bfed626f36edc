from datetime import datetime

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id, RequiredText
from tagtrack.kit.tracking import XY


def default_top_left() -> list[float]:
    return [0.0, 1000.0]


def default_bot_right() -> list[float]:
    return [1000.0, 0.0]


class MapFields(ApiModel):
    name: RequiredText = Field(max_length=200, description="Unique within the site")
    site: Id
    topLeft: XY = Field(
        default_factory=default_top_left,
        description="[x, y] map units of the picture's top-left corner (y grows upwards)",
    )
    botRight: XY = Field(
        default_factory=default_bot_right,
        description="[x, y] map units of the picture's bottom-right corner",
    )


class MapWrite(MapFields):
    """Create or update; `_id` and `image` in the body are ignored (upload with PUT image)."""

    id: str | None = Field(default=None, alias="_id")
    image: str | None = Field(default=None, description="Ignored")


class MapRead(MapFields):
    id: str = Field(alias="_id")
    site: str
    image: str = Field(description="URL of the floor-plan picture; empty when none is uploaded")
    imageWidth: int = Field(description="Pixels; 0 without a picture")
    imageHeight: int = Field(description="Pixels; 0 without a picture")


class MapThing(ApiModel):
    """A thing placed on a map at fractions [x, y] of the picture (from its top-left)."""

    id: str = Field(alias="_id")
    name: str
    thingClass: str = Field(alias="class", description="item or worker")
    tag: str = Field(description="The thing's first tag")
    xycoordinates: XY
    lastEvent: datetime = Field(description="Time of its last read; 0001-01-01 when never read")
