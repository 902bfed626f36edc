import re
from datetime import datetime

from pydantic import Field, field_validator

from tagtrack.kit.schemas import ApiModel, RequiredText

_SUBDOMAIN = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


class OrganizationFields(ApiModel):
    name: RequiredText = Field(max_length=200)
    subdomain: str = Field(description="Lowercase letters, digits and hyphens; unique")
    oktaEnabled: bool = False
    entraEnabled: bool = False

    @field_validator("subdomain")
    @classmethod
    def _subdomain(cls, value: str) -> str:
        value = value.strip().lower()
        if not _SUBDOMAIN.match(value):
            raise ValueError("must be 1-63 lowercase letters, digits or inner hyphens")
        return value


class OrganizationWrite(OrganizationFields):
    id: str | None = Field(default=None, alias="_id")


class OrganizationRead(OrganizationFields):
    id: str = Field(alias="_id")
    timeCreated: datetime
