"""DMs and group DMs of bots: opening a DM, group DMs an application makes from its users' access
tokens, adding and removing their recipients, and who may message whom."""
