import re
from datetime import datetime
from zoneinfo import available_timezones

from pydantic import Field, field_validator

from tagtrack.kit.schemas import ApiModel, Email, RequiredText, UtcDateTime

_TIMEZONES = frozenset(available_timezones())
_DAILY_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class Timezone(ApiModel):
    id: str = Field(description="An IANA timezone name from GET /api/timezones")

    @field_validator("id")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in _TIMEZONES:
            raise ValueError(f"Unknown timezone '{value}'")
        return value


class ReportSettings(ApiModel):
    dailyTime: str = Field(default="", description="HH:MM in the site's timezone, or empty")
    emails: list[Email] = Field(default_factory=list, max_length=50)

    @field_validator("dailyTime")
    @classmethod
    def _time(cls, value: str) -> str:
        if value and not _DAILY_TIME.match(value):
            raise ValueError("must be HH:MM")
        return value


class EndpointRef(ApiModel):
    id: str = Field(alias="_id")
    name: str


class SiteFields(ApiModel):
    name: RequiredText = Field(max_length=200)
    description: str = Field(default="", max_length=2000)
    startDate: UtcDateTime
    addressLine1: str = Field(default="", max_length=200)
    addressLine2: str = Field(default="", max_length=200)
    city: str = Field(default="", max_length=100)
    state: str = Field(default="", max_length=100)
    country: str = Field(default="", max_length=100)
    zipcode: str = Field(default="", max_length=20)
    timezone: Timezone
    reportSettings: ReportSettings = Field(default_factory=ReportSettings)


class SiteWrite(SiteFields):
    """Create or update; an `_id` in the body is ignored in favour of the path."""

    id: str | None = Field(default=None, alias="_id")


class SiteRead(SiteFields):
    id: str = Field(alias="_id")
    startDate: datetime
    endpoints: list[EndpointRef] = Field(default_factory=list)


class TimezoneRead(ApiModel):
    id: str


def timezone_names() -> list[str]:
    return sorted(_TIMEZONES)
