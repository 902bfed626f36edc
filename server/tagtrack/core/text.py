"""Small text rules shared from the settings up to the features."""


def comma_list(text: str) -> list[str]:
    """The items of a comma-separated list, trimmed, without empty ones."""
    return [part.strip() for part in text.split(",") if part.strip()]
