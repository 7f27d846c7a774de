"""Threads (channel types 10, 11, 12) in text, announcement, forum and media channels: creating them,
their members, listing active, archived and searched threads, and their Gateway events."""
