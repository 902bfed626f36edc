"""Events (folded tag reads), manual events and zone durations."""
