"""Field types and values the tracking features share: map coordinates, optional references,
the unset time."""

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from tagtrack.kit.schemas import Id

# Times a thing or endpoint never had serialise as this (DESIGN section 4).
UNSET_TIME = datetime(1, 1, 1, tzinfo=UTC)


def or_unset(value: datetime | None) -> datetime:
    return value if value is not None else UNSET_TIME


def _empty_as_none(value: Any) -> Any:
    return None if value == "" else value


FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
XY = Annotated[list[FiniteFloat], Field(min_length=2, max_length=2, description="[x, y]")]


def _in_picture(xy: list[float]) -> list[float]:
    if any(not 0 <= v <= 1 for v in xy):
        raise ValueError("x and y are fractions of the map picture, from 0 to 1")
    return xy


# A position on a map: fractions of its picture, [0, 0] meaning not placed.
FractionXY = Annotated[
    XY,
    AfterValidator(_in_picture),
    Field(description="[x, y] fractions of the map picture from its top-left, each 0 to 1"),
]
# An optional reference to another row: "" and null both mean none.
OptionalRef = Annotated[Id | None, BeforeValidator(_empty_as_none)]


def default_xy() -> list[float]:
    return [0.0, 0.0]
