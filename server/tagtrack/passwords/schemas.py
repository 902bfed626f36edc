from pydantic import BaseModel, Field


class PasswordResetBody(BaseModel):
    password: str = Field(max_length=256)
    token: str = Field(max_length=1000)
