"""Lobbies: lobbies, their members, idle timeout and invites."""
