from typing import Literal

from pydantic import Field

from tagtrack.kit.schemas import ApiModel, Id

AssetField = Literal[
    "name", "description", "serial", "tags", "tags1", "tags2", "categories", "labels"
]


class HeaderAssetField(ApiModel):
    header: str = Field(max_length=200)
    assetField: AssetField


class ImportMapping(ApiModel):
    name: str = Field(default="DEFAULT", max_length=100)
    headerAssetFields: list[HeaderAssetField] = Field(default_factory=list, max_length=100)


class ImportSettings(ApiModel):
    importMappings: list[ImportMapping] = Field(default_factory=list, max_length=20)
    requireZone: bool = False
    generatePrefixTag: bool = False
    prefixedTagDupCheck: bool = False


class LabelSettings(ApiModel):
    """Empty labels mean the defaults Items, Workers, Name and Serial."""

    workerLabel: str = Field(default="", max_length=50)
    itemLabel: str = Field(default="", max_length=50)
    hideWorkers: bool = False
    itemNameLabel: str = Field(default="", max_length=50)
    itemSerialLabel: str = Field(default="", max_length=50)


class OrgSettingsBody(LabelSettings):
    pass


class SiteSettingsBody(LabelSettings):
    parentCategories: list[Id] = Field(default_factory=list, max_length=200)
    thingHeaders: list[str] = Field(default_factory=list, max_length=50)
    flattenEventsExports: bool = False
    orgTagPrefix: str = Field(default="", max_length=32)
    importSettings: ImportSettings = Field(default_factory=ImportSettings)
