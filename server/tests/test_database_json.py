"""jsonb values read back exactly as the standard decoder reads them."""

import json

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

STORED = [
    '{"reader": "dock-1", "temperature": 21.5, "humidity": 40}',
    '{"nested": {"list": [1, "x", null, true, false, -0.0]}, "empty": {}}',
    # Beyond 64 bits, and a number past a double's range: jsonb keeps every digit.
    '{"count": 123456789012345678901234567890, "huge": 1e400, "tiny": 1e-400}',
    '"text"',
    "[]",
    '{"unicode": "Zoë \\u2603", "escaped": "a\\"b\\\\c\\n"}',
]


@pytest.mark.parametrize("value", STORED)
async def test_a_jsonb_value_reads_back_as_the_standard_decoder_reads_it(
    sessionmaker: async_sessionmaker[AsyncSession], value: str
) -> None:
    async with sessionmaker() as session:
        read = await session.scalar(text("SELECT CAST(:value AS jsonb)"), {"value": value})
        as_text = await session.scalar(
            text("SELECT CAST(CAST(:value AS jsonb) AS text)"), {"value": value}
        )
    expected = json.loads(as_text)
    assert read == expected
    assert type(read) is type(expected)
