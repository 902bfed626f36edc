import re
from datetime import datetime

from pydantic import Field, field_validator

from tagtrack.kit.schemas import ApiModel, RequiredText

_SUBDOMAIN = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
# History is dropped a month's partition at a time: less than a month would keep more
# than it says; ten years is the most a setting means.
MIN_RETENTION_DAYS = 30
MAX_RETENTION_DAYS = 3650


class OrganizationFields(ApiModel):
    name: RequiredText = Field(max_length=200)
    subdomain: str = Field(description="Lowercase letters, digits and hyphens; unique")
    oktaEnabled: bool = False
    entraEnabled: bool = False
    historyRetentionDays: int = Field(
        default=0,
        description=(
            "Days of events and zone visits kept; older ones are deleted. 0 keeps them "
            f"forever, otherwise {MIN_RETENTION_DAYS} to {MAX_RETENTION_DAYS}"
        ),
    )

    @field_validator("subdomain")
    @classmethod
    def _subdomain(cls, value: str) -> str:
        value = value.strip().lower()
        if not _SUBDOMAIN.match(value):
            raise ValueError("must be 1-63 lowercase letters, digits or inner hyphens")
        return value

    @field_validator("historyRetentionDays")
    @classmethod
    def _retention(cls, value: int) -> int:
        if value != 0 and not MIN_RETENTION_DAYS <= value <= MAX_RETENTION_DAYS:
            raise ValueError(
                f"must be 0 (keep forever) or {MIN_RETENTION_DAYS} to {MAX_RETENTION_DAYS} days"
            )
        return value


class OrganizationWrite(OrganizationFields):
    id: str | None = Field(default=None, alias="_id")


class OrganizationRead(OrganizationFields):
    id: str = Field(alias="_id")
    timeCreated: datetime
