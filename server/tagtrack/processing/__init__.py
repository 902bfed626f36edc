"""From acknowledged tag reads to events, zone presence, zone durations and exceptions."""
