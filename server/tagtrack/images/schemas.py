from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from pydantic import Field, field_validator

from tagtrack.kit.schemas import ApiModel, Id

Tag = Annotated[str, Field(max_length=200)]


def clean_tags(tags: list[str]) -> list[str]:
    """Trimmed, without empties or repeats, in the order given."""
    seen: dict[str, None] = {}
    for tag in tags:
        text = tag.strip()
        if text:
            seen.setdefault(text, None)
    return list(seen)


class Location(ApiModel):
    type: str = "Point"
    coordinates: list[float] = Field(
        default_factory=lambda: [0.0, 0.0],
        min_length=2,
        max_length=2,
        description="[longitude, latitude]; [0, 0] means the image has no location",
    )

    @field_validator("coordinates")
    @classmethod
    def _range(cls, value: list[float]) -> list[float]:
        longitude, latitude = value
        if not (-180 <= longitude <= 180 and -90 <= latitude <= 90):
            raise ValueError("longitude must be within ±180 and latitude within ±90")
        return value


class CategoryRef(ApiModel):
    id: Id
    name: str = ""


class ImageSize(ApiModel):
    X: int
    Y: int


class CloudPhoto(ApiModel):
    bytes: int = Field(description="Size of the original file in bytes")
    size: ImageSize = Field(description="Width (X) and height (Y) of the upright photo")
    format: str = Field(description="jpg, png, webp or heic")


class ExifData(ApiModel):
    orientation: int = Field(description="EXIF orientation 1-8 of the original")
    device: str = Field(description="Camera or phone make and model, when the photo names it")
    dateTimeOriginal: datetime | None = Field(
        description="When the photo was taken, if known: the camera's clock, read as UTC "
        "unless the photo names its offset"
    )


class ImageRead(ApiModel):
    id: str
    uploader: str | None = Field(description="Id of the user who uploaded it")
    timestamp: datetime = Field(
        description="When the photo was taken (EXIF), else when it was uploaded; "
        "the date range of the search applies to it"
    )
    timeCreated: datetime = Field(description="When it was uploaded")
    location: Location
    annotation: str
    tags: list[str]
    categories: list[CategoryRef]
    cloud_photos: list[CloudPhoto]
    exif_data: ExifData
    name: str = Field(description="The uploaded file's name, for display only")


class ImageWrite(ApiModel):
    """The editable part of an image; other fields of the image object are ignored."""

    annotation: str = Field(default="", max_length=5000)
    tags: list[Tag] = Field(default_factory=list, max_length=200)
    categories: list[CategoryRef] = Field(default_factory=list, max_length=200)
    location: Location | None = Field(default=None, description="Left unchanged when absent")

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        return clean_tags(value)


class BulkEdit(ApiModel):
    """Tags and categories to add to or remove from many images at once."""

    ids: list[Id] | None = Field(
        default=None, max_length=10000, description="These images; absent: the search query"
    )
    addTags: list[Tag] = Field(default_factory=list, max_length=200)
    removeTags: list[Tag] = Field(default_factory=list, max_length=200)
    addCategories: list[Id] = Field(default_factory=list, max_length=200)
    removeCategories: list[Id] = Field(default_factory=list, max_length=200)

    @field_validator("addTags", "removeTags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        return clean_tags(value)


class Count(ApiModel):
    count: int


class Neighbours(ApiModel):
    """The images either side of one in the gallery's order, for the same search."""

    previous: str | None = Field(description="Id of the image before it; null at the start")
    next: str | None = Field(description="Id of the image after it; null at the end")


class Uploader(ApiModel):
    id: str
    username: str


@dataclass(frozen=True)
class ImageSearch:
    """The image search query: every field narrows the images, or widens them with `or`."""

    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    tags_empty: bool = False
    categories_empty: bool = False
    uploader: str = ""
    search: str = ""
    partial: bool = False
    date_start: datetime | None = None
    date_end: datetime | None = None
    any_of: bool = False

    @property
    def empty(self) -> bool:
        """No field is set: the query matches every image."""
        return not (
            self.tags
            or self.categories
            or self.tags_empty
            or self.categories_empty
            or self.uploader
            or self.search
            or self.date_start
            or self.date_end
        )
