"""Webhooks: signed event webhooks to the application's URL, with retries."""
