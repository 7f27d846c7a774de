"""The soundboard: the built-in sounds, a guild's sounds (list, create, get, modify, delete), playing
one in a voice channel, and the Gateway's Request Soundboard Sounds."""
