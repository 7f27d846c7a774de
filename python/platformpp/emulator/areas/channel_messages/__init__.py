"""Guild channel messages: messages with attachments, reactions, pins, typing, slowmode, forwards and
Search Guild Messages (FTS5, indexed asynchronously)."""
