"""Channel webhooks (incoming, channel follower), their executes and messages, and announcement
channels (crosspost, follow)."""
