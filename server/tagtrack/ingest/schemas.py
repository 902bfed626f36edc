from typing import Any

from pydantic import Field

from tagtrack.kit.schemas import ApiModel


class Accepted(ApiModel):
    accepted: int = Field(description="Reads durably queued for processing by this request")
    duplicate: bool = Field(
        default=False, description="True when this batchId was delivered before"
    )


class ReaderConfig(ApiModel):
    """What a reader needs to know about itself."""

    id: str = Field(alias="_id")
    name: str
    site: str
    antennas: list[dict[str, Any]]
    config: dict[str, Any]
    repeatWindowSeconds: float
