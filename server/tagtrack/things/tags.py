"""Tag normalisation: tags are compared trimmed and upper case (EPC hex is upper case)."""

from collections.abc import Iterable


def normalize_tag(tag: str) -> str:
    return tag.strip().upper()


def normalize_tags(tags: Iterable[str]) -> list[str]:
    """Normalised, without empties and repeats, in their first order."""
    return list(dict.fromkeys(t for t in (normalize_tag(tag) for tag in tags) if t))
