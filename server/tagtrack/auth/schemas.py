from pydantic import BaseModel, Field


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=254)
    password: str = Field(min_length=1, max_length=256)


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


class SsoAvailability(BaseModel):
    available: bool
