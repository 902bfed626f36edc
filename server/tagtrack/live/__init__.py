"""Live updates: database notices of new events pushed to the console as Server-Sent Events."""
