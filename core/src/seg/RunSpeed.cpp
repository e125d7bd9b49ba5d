/// @brief The speeds of live runs: the watchable defaults and the --speed spelling.
#include "lucent/core/seg/RunSpeed.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

namespace lucent {

int watchableSpeed(Method method) {
    switch (method) {
    case Method::Snake: return 20;               // 39 steps on the CT head: about 2 s
    case Method::RegionGrowing: return 60;       // a front layer a step: a skull grows in a few seconds
    case Method::FuzzyConnectedness: return 30;  // the sweep settles voxels in strength order
    case Method::FuzzyCMeans: return 8;          // few iterations, each one visible
    case Method::Snake3d: return 20;             // a voxel layer an iteration at most: a ventricle in a few seconds
    case Method::GrowCut: return 30;             // the labels' fronts meet in a few seconds
    }
    return kMaxSpeed;
}

int parseSpeed(std::string_view text) {
    if (text == "max") return kUnpaced;
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < kMinSpeed || value > kMaxSpeed)
        throw std::invalid_argument("speed must be " + std::to_string(kMinSpeed) + ".." + std::to_string(kMaxSpeed) +
                                    " steps per second or max, not '" + std::string(text) + "'");
    return value;
}

std::string speedText(int speed) { return speed == kUnpaced ? "max" : std::to_string(speed); }

namespace {
constexpr std::array<int, 9> kLadder{1, 2, 5, 10, 20, 30, 60, 120, kMaxSpeed};
}  // namespace

int fasterSpeed(int speed) {
    if (speed == kUnpaced) return kUnpaced;
    const auto next = std::upper_bound(kLadder.begin(), kLadder.end(), speed);
    return next == kLadder.end() ? kUnpaced : *next;
}

int slowerSpeed(int speed) {
    if (speed == kUnpaced) return kLadder.back();
    const auto below = std::lower_bound(kLadder.begin(), kLadder.end(), speed);
    return below == kLadder.begin() ? kLadder.front() : *(below - 1);
}

}  // namespace lucent
