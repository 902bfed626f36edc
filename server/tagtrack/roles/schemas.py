from pydantic import BaseModel


class RoleRead(BaseModel):
    id: str
    name: str


class AccessRuleRead(BaseModel):
    resource: str
    create: bool
    modify: bool
    delete: bool
