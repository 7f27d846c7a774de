"""Guild settings pages: the vanity URL, the guild preview, join requests (member verification) and
incident actions (invites and DMs paused)."""
