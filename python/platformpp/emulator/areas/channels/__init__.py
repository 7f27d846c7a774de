"""Guild channels: list, create, positions, get, modify, delete, permission overwrites; group DMs
from fixtures (read with GET /channels/{id})."""
