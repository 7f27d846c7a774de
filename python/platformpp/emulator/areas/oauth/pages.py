"""The HTML pages of the browser authorize flow: a consent page with a test-user picker, and an error
page for requests that must not be redirected (unknown client, bad redirect URI)."""

from __future__ import annotations

import html
import sqlite3
from collections.abc import Mapping

from starlette.responses import HTMLResponse

_STYLE = ("body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}"
          "button{padding:.5rem 1rem;margin-right:.5rem}select{padding:.4rem;min-width:12rem}")


NEEDS_SECRET = ("The emulator listens beyond loopback: a consent needs its admin secret (the"
                " emulator_admin_secret parameter, or Authorization: Bearer <secret>).")


def page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                        f"<style>{_STYLE}</style></head><body>{body}</body></html>", status_code=status)


def error_page(message: str, status: int = 400) -> HTMLResponse:
    return page("Authorization error", f"<h1>Authorization error</h1><p>{html.escape(message)}</p>", status)


def secret_field(asked: bool) -> str:
    """Off loopback a consent needs the emulator's admin secret: the pages ask for it."""
    if not asked:
        return ""
    return ("<p><label>Emulator admin secret <input type='password' name='emulator_admin_secret'"
            " autocomplete='off' required></label></p>")


def consent_page(app: sqlite3.Row, scopes: list[str], users: list[sqlite3.Row], params: Mapping[str, str],
                 *, ask_secret: bool = False) -> HTMLResponse:
    hidden = "".join(f"<input type='hidden' name='{html.escape(k)}' value='{html.escape(v)}'>"
                     for k, v in params.items() if not k.startswith("emulator_"))
    options = "".join(f"<option value='{row['id']}'>{html.escape(row['global_name'] or row['username'])}"
                      f" (@{html.escape(row['username'])})</option>" for row in users)
    scope_items = "".join(f"<li><code>{html.escape(scope)}</code></li>" for scope in scopes)
    return page(f"Authorize {app['name']}", (
        f"<h1>{html.escape(app['name'])} wants to access your account</h1>"
        f"<p>Requested scopes:</p><ul>{scope_items}</ul>"
        f"<form method='post' action='/oauth2/authorize'>{hidden}"
        f"<p><label>Sign in as test user <select name='emulator_user'>{options}</select></label></p>"
        f"{secret_field(ask_secret)}"
        "<button name='emulator_consent' value='allow'>Authorize</button>"
        "<button name='emulator_consent' value='deny'>Cancel</button></form>"
        "<p><small>platformpp emulator: no password, pick any test user.</small></p>"))
