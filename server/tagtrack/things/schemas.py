from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Choice, Id
from tagtrack.kit.tracking import XY, FiniteFloat

ThingClass = Literal["item", "worker"]
Tag = Annotated[str, Field(max_length=128)]
Text = Annotated[str, Field(max_length=200)]

TAGS_DESCRIPTION = (
    "Tags are trimmed and upper-cased; each is unique within the organization across every "
    "tag field of every thing (400 with 'duplicate' in the message)"
)


class ThingData(ApiModel):
    cFloat0: FiniteFloat | None = None


class CommonFields(ApiModel):
    name: str = Field(default="", max_length=300)
    description: str = Field(default="", max_length=4000)
    serial: str = Field(default="", max_length=200)
    tag1: Tag = Field(default="", description=TAGS_DESCRIPTION)
    tag2: Tag = ""
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    tags1: list[Tag] = Field(default_factory=list, max_length=100)
    tags2: list[Tag] = Field(default_factory=list, max_length=100)
    categories: list[Text] = Field(default_factory=list, max_length=200)
    labels: list[Text] = Field(default_factory=list, max_length=200)
    parents: list[Id] = Field(
        default_factory=list,
        max_length=200,
        description="Ids of parent things of the organization; unknown ids answer 400 "
        "'Parent no longer exists.'; a thing cannot be its own parent",
    )
    photo: list[Id] = Field(default_factory=list, max_length=200)


class CommonCreate(CommonFields):
    thing_class: ThingClass = Field(alias="class", description="Required; cannot change later")


class CommonUpdate(CommonFields):
    thing_class: ThingClass | None = Field(
        default=None, alias="class", description="Must equal the stored class (400 otherwise)"
    )


class CommonRead(CommonFields):
    thing_class: ThingClass = Field(alias="class")
    timeCreated: datetime
    timeModified: datetime


class StateWrite(ApiModel):
    """State is written by tag reads; only `alarmTamper: false` is taken (it clears the alarm)."""

    alarmTamper: bool | None = None


class StateRead(ApiModel):
    zone: str
    zoneName: str
    lastEvent: datetime
    lastEndpointTime: datetime
    lastZoneTime: datetime
    endpoint: str
    endpointName: str
    direction: str
    locationTag: str
    xycoordinates: XY
    map: str
    alarmTamper: bool
    alarmTamperTag: str
    alarmTamperTime: datetime


class ThingCreate(ApiModel):
    site: Id
    common: CommonCreate
    data: ThingData = Field(default_factory=ThingData)


class ThingUpdate(ApiModel):
    """The whole thing as read; `_id` and `site` are ignored (a thing moves by reads)."""

    id: str | None = Field(default=None, alias="_id")
    common: CommonUpdate
    state: StateWrite | None = None
    data: ThingData = Field(default_factory=ThingData)


class ThingRead(ApiModel):
    id: str = Field(alias="_id")
    site: str
    common: CommonRead
    state: StateRead
    data: ThingData


THING_CLASSES = (Choice(id="item", name="Item"), Choice(id="worker", name="Worker"))
