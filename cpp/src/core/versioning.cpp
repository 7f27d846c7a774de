// The release calendar of the seed's Versioning section. Minor releases follow one another in a fixed
// April, July, November cycle anchored on 1.10 (July 2026); everything else is derived from that.
#include "platformpp/versioning.hpp"

#include <string>
#include <tuple>

#include "platformpp/errors.hpp"

namespace platformpp::versioning {
namespace {

constexpr int32_t kReleaseMonths[] = {4, 7, 11};
constexpr int32_t kAnchorMinor = 10;  // 1.10 ...
constexpr int32_t kAnchorYear = 2026; // ... shipped in July 2026,
constexpr int32_t kAnchorSlot = 1;    // the second release of its year.

int32_t FloorDiv(int32_t a, int32_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

void RequireKnown(int32_t major, int32_t minor) {
    if (major != 1) throw ValidationError("major", "only major version 1 is known, got " + std::to_string(major));
    if (minor < 0) throw ValidationError("minor", "must be >= 0, got " + std::to_string(minor));
}

bool OnOrBefore(const Date& a, const Date& b) {
    return std::tie(a.year, a.month, a.day) <= std::tie(b.year, b.month, b.day);
}

void RequireValidDate(const Date& d) {
    if (d.month < 1 || d.month > 12) throw ValidationError("on", "month must be 1..12");
    if (d.day < 1 || d.day > 31) throw ValidationError("on", "day must be 1..31");
}

// The newest minor released on or before `on`, or -1 if none had shipped.
int32_t LatestReleasedMinor(const Date& on) {
    // Slot index of the release cycle containing `on`, counted from the anchor.
    int32_t slotInYear = -1;
    for (int32_t i = 0; i < 3; ++i) {
        if (on.month >= kReleaseMonths[i]) slotInYear = i;
    }
    const int32_t slotsSinceAnchor = (on.year - kAnchorYear) * 3 + slotInYear - kAnchorSlot;
    return kAnchorMinor + slotsSinceAnchor;  // slotInYear == -1 lands on the previous November
}

}  // namespace

Date ReleaseDate(int32_t major, int32_t minor) {
    RequireKnown(major, minor);
    const int32_t slot = kAnchorSlot + (minor - kAnchorMinor);
    return Date{kAnchorYear + FloorDiv(slot, 3), kReleaseMonths[slot - 3 * FloorDiv(slot, 3)], 1};
}

Date EndOfLife(int32_t major, int32_t minor) {
    RequireKnown(major, minor);
    return ReleaseDate(major, minor + kSupportedMinorCount);
}

std::vector<MinorVersion> SupportedMinors(Date on) {
    RequireValidDate(on);
    const int32_t latest = LatestReleasedMinor(on);
    std::vector<MinorVersion> supported;
    for (int32_t minor = latest - kSupportedMinorCount + 1; minor <= latest; ++minor) {
        if (minor >= 0) supported.push_back({1, minor});
    }
    return supported;
}

bool IsSupported(MinorVersion version, Date on) {
    RequireKnown(version.major, version.minor);
    RequireValidDate(on);
    return OnOrBefore(ReleaseDate(version.major, version.minor), on) &&
           !OnOrBefore(EndOfLife(version.major, version.minor), on);
}

}  // namespace platformpp::versioning
