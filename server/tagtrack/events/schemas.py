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
