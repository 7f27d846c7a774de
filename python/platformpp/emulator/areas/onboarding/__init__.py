"""A guild's pages for new members: the welcome screen, onboarding (prompts and default channels) and
the new member welcome (the server guide)."""
