"""The SDK release calendar (seed: Versioning), computed by the C++ core.

Three minor releases a year (April, July, November; 1.10 shipped in July 2026); the five most recent
released minors are supported. Dates are ``datetime.date``; versions are ``(major, minor)`` tuples.
"""

from ._platformpp import ReleaseCalendar

SUPPORTED_MINOR_COUNT: int = ReleaseCalendar.SUPPORTED_MINOR_COUNT
release_date = ReleaseCalendar.release_date
end_of_life = ReleaseCalendar.end_of_life
supported_minors = ReleaseCalendar.supported_minors
is_supported = ReleaseCalendar.is_supported

__all__ = ["SUPPORTED_MINOR_COUNT", "end_of_life", "is_supported", "release_date", "supported_minors"]
