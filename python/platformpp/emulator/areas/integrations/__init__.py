"""Guild integrations: the bot integration each application's bot brings into a guild."""
