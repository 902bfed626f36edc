from datetime import datetime

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, RequiredText

AT_LEAST_ONE = "You must select at least one item"


class ApiKeySecurityContext(ApiModel):
    sites: list[str] = Field(default_factory=list, description="Site ids, or the All Sites id")


class ApiKeyCreate(ApiModel):
    name: RequiredText = Field(max_length=200)
    roles: list[str] = Field(description="At least one role id; never Super Admin")
    securityCtx: ApiKeySecurityContext = Field(default_factory=ApiKeySecurityContext)


class ApiKeyRead(ApiModel):
    id: str = Field(alias="_id")
    name: str
    token: str = Field(
        description="Read-only. The whole token only in the answer to POST; elsewhere its start"
    )
    roles: list[str]
    securityCtx: ApiKeySecurityContext
    timeCreated: datetime
    createdBy: str
