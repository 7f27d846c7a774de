"""Messages: lobby messages and game direct messages, one implementation."""
