from datetime import datetime

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, IdField


class ExceptionThing(ApiModel):
    id: str = IdField
    name: str
    tag: str
    zone: str = Field(description="The zone the thing is in now; '' for none")
    zoneName: str
    lastEvent: datetime = Field(description="Its last read; 0001-01-01T00:00:00Z if never")


class ExceptionRead(ApiModel):
    id: str = IdField
    type: str = Field(
        description="zoneTimeException, inventoryThingsMissing, inventoryThingsUnexpected, "
        "inventoryThingsElsewhere (read in this zone, expected in another) or processException"
    )
    time: datetime
    site: str
    thing: str = Field(description="The thing of a zone time exception; '' for inventory ones")
    thingName: str
    thingTag: str
    zone: str
    zoneName: str
    multipleThings: list[str] = Field(description="The things of an inventory exception")
    timeDuration: int = Field(description="Nanoseconds in the zone (zone time exceptions)")
    message: str = Field(description="'... > N minute(s)', 'Shortage of N', 'Overage of N' ...")


class ExceptionDetail(ExceptionRead):
    things: list[ExceptionThing] = Field(
        description="multipleThings with their names and tags, in the same order; a thing "
        "deleted since is left out"
    )
