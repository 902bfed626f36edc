from pydantic import BaseModel, Field, field_validator

from tagtrack.kit.schemas import Username


def _strip_required(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("is required")
    return value


class SecurityContext(BaseModel):
    sites: list[str] = Field(default_factory=list)
    companies: list[str] = Field(default_factory=list)


class CurrentUser(BaseModel):
    id: str
    name: str
    username: str
    roles: list[str]
    securityCtx: SecurityContext
    superAdmin: bool
    orgId: str


class UserRead(BaseModel):
    id: str
    name: str
    username: str
    roles: list[str]
    securityCtx: SecurityContext


class UserFields(BaseModel):
    name: str = Field(max_length=200)
    username: Username = Field(description="An email address; unique across TagTrack")
    roles: list[str] = Field(min_length=1, max_length=20, description="At least one role id")
    securityCtx: SecurityContext = Field(default_factory=SecurityContext)

    _name = field_validator("name")(_strip_required)


class UserCreate(UserFields):
    password: str | None = Field(
        default=None, max_length=256, description="Required unless an activation email is sent"
    )


class UserUpdate(UserFields):
    id: str
    password: str | None = Field(default=None, max_length=256, description="Empty keeps it")


class MeUpdate(BaseModel):
    name: str = Field(max_length=200)
    username: Username
    password: str | None = Field(default=None, max_length=256, description="Empty keeps it")

    _name = field_validator("name")(_strip_required)


class UsernameRead(BaseModel):
    id: str
    username: str
    name: str


class EmailCheck(BaseModel):
    email: str = Field(max_length=254)


class EmailCheckResult(BaseModel):
    exists: bool
