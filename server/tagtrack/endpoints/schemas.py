from datetime import datetime

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id, RequiredText
from tagtrack.kit.tracking import XY, default_xy


class AutoEnroll(ApiModel):
    enabled: bool = Field(default=False, description="Unknown tags read here become new items")
    locationEnabled: bool = Field(
        default=False, description="Enrolled items are placed at this endpoint"
    )


class Antenna(ApiModel):
    """One antenna port; its index in `antennas` is the port number."""

    map: str = Field(default="", max_length=24)
    xycoordinates: XY = Field(default_factory=default_xy)


class EndpointStatusRead(ApiModel):
    endpoint: str
    endpointName: str = Field(default="", description="The endpoint's name, for tables")
    time: datetime
    uptime: int | None = Field(default=None, description="Seconds since the reader started")
    readerTemp: float | None = None
    ip: str = ""
    version: str = ""


class EndpointFields(ApiModel):
    name: RequiredText = Field(max_length=200, description="Unique in the organization")
    uuid: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=2000)
    site: Id
    map: str = Field(default="", max_length=24)
    externalgate: bool = False
    xycoordinates: XY = Field(default_factory=default_xy)
    autoEnroll: AutoEnroll = Field(default_factory=AutoEnroll)
    antennas: list[Antenna] = Field(default_factory=list, max_length=64)


class EndpointWrite(EndpointFields):
    """Create or update; `_id`, `key`, `status` and `qrcode` in the body are ignored."""

    id: str | None = Field(default=None, alias="_id")
    key: str | None = Field(default=None, description="Ignored: the server generates the key")


class EndpointRead(EndpointFields):
    id: str = Field(alias="_id")
    site: str
    key: str = Field(
        description="Bearer token of the reader; empty for callers without the modify right "
        "on endpoints"
    )
    status: EndpointStatusRead | None = Field(description="The latest heartbeat, null if none")
    qrcode: str = Field(
        description='JSON text {"url", "id", "key"} the handheld scans; empty without the key'
    )


class EventSource(ApiModel):
    id: str = Field(alias="_id")
    name: str
