from datetime import datetime

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id, IdField, RequiredText


class EventData(ApiModel):
    cFloat0: float | None = None


class EventRead(ApiModel):
    id: str = IdField
    tag: str
    time: datetime = Field(description="Last Seen: the newest folded read")
    firstTime: datetime = Field(description="Last Full Event: the first folded read")
    repeatCount: int
    direction: str
    endpoint: str
    endpointName: str
    thing: str = Field(description="777777777777777777777777 when the tag matched no thing")
    thingName: str
    matched: bool
    locationTag: str
    locationTagName: str
    antenna: int
    zone: str
    zoneName: str
    alarmTamper: bool
    data: EventData
    site: str


class ManualEvent(ApiModel):
    """Put the thing carrying `tag` in `zone`, now."""

    tag: RequiredText = Field(max_length=128)
    zone: Id


class ZoneDurationRead(ApiModel):
    id: str = IdField
    thing: str
    thingName: str
    zone: str
    zoneName: str
    timeStart: datetime
    timeEnd: datetime = Field(description="0001-01-01T00:00:00Z while the visit is open")
    timeDuration: int = Field(description="Nanoseconds; open visits count up to now")
    site: str


class ZoneTotalRead(ApiModel):
    zone: str
    zoneName: str
    visits: int = Field(description="Visits that overlap the period")
    things: int = Field(description="Different things among those visits")
    timeDuration: int = Field(
        description="Nanoseconds of those visits inside the period (open visits up to now)"
    )
