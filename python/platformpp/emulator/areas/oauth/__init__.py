"""OAuth2 and OpenID Connect: authorize, token, revoke, userinfo, keys; grants and tokens."""
