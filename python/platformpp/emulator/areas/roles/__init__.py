"""Guild roles: list, get, create, modify, positions, delete."""
