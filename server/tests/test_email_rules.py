"""The email rules: addresses mail goes to, and usernames, with the console's examples."""

import json
import re
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from tagtrack.kit.schemas import Email, Username, is_email

# The console checks addresses before sending with the same examples (formRules.test.ts).
EXAMPLES = json.loads(
    (Path(__file__).parents[2] / "web/src/components/emailExamples.json").read_text()
)
ADDRESS = TypeAdapter(Email)
USERNAME = TypeAdapter(Username)


@pytest.mark.parametrize("value", EXAMPLES["addresses"])
def test_an_address_is_both_an_address_and_a_username(value: str) -> None:
    assert is_email(value)
    assert ADDRESS.validate_python(value) == value.strip()
    assert USERNAME.validate_python(value) == value.strip()


@pytest.mark.parametrize("value", EXAMPLES["addressesNotUsernames"])
def test_usernames_are_stricter_than_addresses(value: str) -> None:
    assert is_email(value)
    assert ADDRESS.validate_python(value) == value
    with pytest.raises(ValidationError, match="value is not a valid email address: "):
        USERNAME.validate_python(value)


@pytest.mark.parametrize("value", EXAMPLES["notAddresses"])
def test_not_an_address(value: str) -> None:
    assert not is_email(value)
    with pytest.raises(
        ValidationError, match=re.escape(f"'{value.strip()}' is not a valid email address")
    ):
        ADDRESS.validate_python(value)
    with pytest.raises(ValidationError, match="value is not a valid email address: "):
        USERNAME.validate_python(value)


def test_a_username_keeps_its_name_and_lowercases_its_domain() -> None:
    assert ADDRESS.validate_python("Ops@Example.COM") == "Ops@Example.COM"
    assert USERNAME.validate_python("Ops@Example.COM") == "Ops@example.com"
