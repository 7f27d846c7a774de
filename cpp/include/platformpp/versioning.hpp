#pragma once
// The SDK release calendar: three minor releases a year (April, July, November; 1.10 shipped in
// July 2026), and support for the five most recent released minors.

#include <cstdint>
#include <vector>

namespace platformpp::versioning {

struct Date {
    int32_t year;
    int32_t month;  // 1..12
    int32_t day;    // 1..31
};

struct MinorVersion {
    int32_t major;
    int32_t minor;
};

inline constexpr int32_t kSupportedMinorCount = 5;

// The first day of the month the minor shipped (or ships) in. ValidationError for an unknown major or
// a negative minor.
Date ReleaseDate(int32_t major, int32_t minor);
// The five most recent minors released on or before `on`, oldest first (fewer before 1.4 shipped).
std::vector<MinorVersion> SupportedMinors(Date on);
bool IsSupported(MinorVersion version, Date on);
// The release date of the minor five after it: from that day it gets no more patches.
Date EndOfLife(int32_t major, int32_t minor);

}  // namespace platformpp::versioning
