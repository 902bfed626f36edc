from pydantic import Field

from tagtrack.kit.schemas import ApiModel, RequiredText


class CategoryWrite(ApiModel):
    """Create or update; an `id` in the body is ignored in favour of the path."""

    id: str | None = None
    name: RequiredText = Field(max_length=200)
    description: str = Field(default="", max_length=2000)
    hidden: bool = Field(default=False, description="Left out of the pickers; kept on images")


class CategoryRead(ApiModel):
    id: str
    name: str
    description: str
    hidden: bool


class CategoryUsage(ApiModel):
    images: int = Field(description="How many images carry the category")
