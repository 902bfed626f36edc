from pydantic import BaseModel


class VersionRead(BaseModel):
    version: str


class Health(BaseModel):
    status: str
    database: str


class Readiness(BaseModel):
    """ "ready" or "unavailable", and each check: "ok" or why it failed."""

    status: str
    checks: dict[str, str]
