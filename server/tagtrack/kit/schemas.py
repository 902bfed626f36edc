"""Base models for the API: the spec's field names, `_id` where the spec says so."""

import re
from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, EmailStr, Field

from tagtrack.models.ids import is_id


class ApiModel(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


def _required_text(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("is required")
    return value


def _valid_id(value: str) -> str:
    if not is_id(value):
        raise ValueError("must be a 24-character hex id")
    return value


_NUMBER = re.compile(r"^\s*[-+]?\d+(\.\d*)?\s*$")


def _not_a_number(value: object) -> object:
    # Pydantic reads a bare number as seconds since 1970: `startDate: 12` would be 1970-01-01.
    if isinstance(value, int | float) or (isinstance(value, str) and _NUMBER.match(value)):
        raise ValueError("must be a date and time such as 2026-01-31T08:00:00Z, not a number")
    return value


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


# The email rules, both here. An address mail is sent to (zone and site notices, a reset
# request, an identity provider's claim) needs only the shape name@domain.tld, the console's
# check too (web/src/components/formRules.ts). A username is an address too, but checked by
# email-validator (EmailStr): it also refuses special-use domains (x@y.test), dots at either
# end of or doubled in the name, empty or hyphen-led domain labels, and lowercases the domain.
# tests/test_email_rules.py and formRules.test.ts run the examples the rules share.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def is_email(value: str) -> bool:
    return bool(_EMAIL.match(value.strip()))


def _email(value: str) -> str:
    value = value.strip()
    if not _EMAIL.match(value):
        raise ValueError(f"'{value}' is not a valid email address")
    return value


RequiredText = Annotated[str, AfterValidator(_required_text)]
Id = Annotated[str, AfterValidator(_valid_id)]
UtcDateTime = Annotated[datetime, BeforeValidator(_not_a_number), AfterValidator(_utc)]
Email = Annotated[str, Field(max_length=254), AfterValidator(_email)]
Username = EmailStr
IdField = Field(alias="_id")


class Choice(ApiModel):
    id: str
    name: str
