"""The voice service's error, in a module of its own so that code handling it does not import the
whole service (which starts only with the first call)."""


class VoiceServiceError(RuntimeError):
    """The service is not running, or an owner call named a participant that does not exist."""
