from pydantic import Field

from tagtrack.kit.schemas import ApiModel


class LiveNotice(ApiModel):
    """What the database carries on the live channel: one organization's site changed."""

    org: str
    site: str


class LiveMessage(ApiModel):
    """The data of one stream message."""

    sites: list[str] = Field(description="Sites with new or changed events, zones or visits")
    missed: bool = Field(
        False,
        description="Notices may have been lost (the server reconnected to the database): "
        "refresh everything shown",
    )
