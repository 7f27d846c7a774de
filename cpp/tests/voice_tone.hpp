// Test signals for the voice tests: a sine tone and a frequency estimate from interpolated zero crossings.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace voice_test {

constexpr double kPi = 3.14159265358979323846;

// Fills frames samples per channel of interleaved int16 with a sine (same on every channel), continuing
// from phase (in samples) which it advances.
inline void FillTone(std::int16_t* out, int frames, int channels, double hz, double amplitude, std::uint64_t& phase) {
    for (int i = 0; i < frames; ++i, ++phase) {
        const auto v = static_cast<std::int16_t>(amplitude * std::sin(2 * kPi * hz * static_cast<double>(phase) / 48000.0));
        for (int c = 0; c < channels; ++c) out[i * channels + c] = v;
    }
}

// The frequency of a mono signal at 48 kHz from its rising zero crossings (linear interpolation between
// samples); 0 when fewer than two crossings.
inline double EstimateFrequency(const std::vector<double>& mono) {
    double first = -1, last = -1;
    int crossings = 0;
    for (std::size_t i = 1; i < mono.size(); ++i) {
        if (mono[i - 1] < 0 && mono[i] >= 0) {
            const double t = static_cast<double>(i - 1) + (-mono[i - 1]) / (mono[i] - mono[i - 1]);
            if (first < 0) first = t;
            last = t;
            ++crossings;
        }
    }
    if (crossings < 2) return 0;
    return (crossings - 1) * 48000.0 / (last - first);
}

}  // namespace voice_test
