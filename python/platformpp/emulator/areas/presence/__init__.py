"""Presence: status, custom status and rich presence of SDK users; who sees whose."""
