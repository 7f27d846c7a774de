"""Relationships: platform and game friends, blocks and pending requests."""
