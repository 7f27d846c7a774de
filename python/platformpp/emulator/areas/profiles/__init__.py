"""Profiles: application identity profiles and the game stats widget fields."""
