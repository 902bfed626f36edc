from datetime import datetime
from typing import Literal

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Choice, Email, Id, IdField, RequiredText

Direction = Literal["NEAR", "GONE", "IN", "OUT"]
KillMode = Literal["zone", "site"]
MAX_NANOSECONDS = 2**63 - 1


class GateWrite(ApiModel):
    endpoint: str | None = Field(
        default=None,
        max_length=24,
        description="Required (400 'Please select an value'): an endpoint of the zone's site",
    )
    direction: Direction = Field(description="IN and NEAR put things in; OUT and GONE take out")
    antenna: int = Field(default=-1, ge=-1, le=8, description="-1 means every antenna")


class GateRead(ApiModel):
    endpoint: str
    direction: Direction
    antenna: int


class ZoneFields(ApiModel):
    name: RequiredText = Field(max_length=200, description="Unique within the site")
    description: str = Field(default="", max_length=2000)
    site: Id
    duration: int = Field(
        default=0, ge=0, le=MAX_NANOSECONDS, description="Alert time in nanoseconds; 0 = none"
    )
    emails: list[Email] = Field(default_factory=list, max_length=50)
    killDuration: float = Field(
        default=0, ge=0, le=1_000_000, allow_inf_nan=False, description="Hours; 0 = never"
    )
    immediateKill: bool = False
    killMode: KillMode = "zone"


class ZoneWrite(ZoneFields):
    """Create or update; gates are replaced in the given order. `items`/`workers` ignored."""

    id: str | None = Field(default=None, alias="_id")
    gates: list[GateWrite] = Field(default_factory=list, max_length=100)


class ZoneRead(ZoneFields):
    id: str = Field(alias="_id")
    site: str
    emails: list[str]
    gates: list[GateRead]
    items: int = Field(description="Items whose current zone this is")
    workers: int = Field(description="Workers whose current zone this is")


KILL_MODES = (Choice(id="zone", name="Leave the zone"), Choice(id="site", name="Leave the site"))


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
