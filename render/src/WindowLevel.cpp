/// @brief CT window presets and the histogram-based automatic window.
#include "lucent/render/WindowLevel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lucent::render {

const std::vector<WindowPreset>& windowPresets() {
    static const std::vector<WindowPreset> presets = {
        {"lung", "CT lung", {-600, 1500}},       {"mediastinum", "CT mediastinum", {50, 350}},
        {"bone", "CT bone", {500, 2000}},        {"brain", "CT brain", {40, 80}},
        {"abdomen", "CT abdomen", {50, 400}},    {"auto", "Auto (from histogram)", {}}};
    return presets;
}

WindowLevel autoWindow(const Volume& volume) {
    const std::size_t n = volume.voxelCount();
    if (n == 0) return {};
    // A strided sample is plenty for percentiles and keeps this instant on 100 M voxels.
    const std::size_t stride = std::max<std::size_t>(1, n / 2'000'000);
    std::vector<float> sample;
    sample.reserve(n / stride + 1);
    for (std::size_t i = 0; i < n; i += stride) sample.push_back(static_cast<float>(volume.value(i)));
    const float lowest = *std::min_element(sample.begin(), sample.end());
    std::vector<float> kept;
    for (float v : sample)
        if (v > lowest) kept.push_back(v);
    if (kept.size() < 16) kept = sample;
    auto at = [&](double q) {
        auto it = kept.begin() + std::ptrdiff_t(q * double(kept.size() - 1));
        std::nth_element(kept.begin(), it, kept.end());
        return double(*it);
    };
    const double lo = at(0.01), hi = at(0.99);
    return {(lo + hi) / 2.0, std::max(1.0, hi - lo)};
}

bool valuesLookLikeCt(const Volume& volume) {
    const std::size_t n = volume.voxelCount();
    if (n == 0) return false;
    const std::size_t stride = std::max<std::size_t>(1, n / 1'000'000);
    std::size_t sampled = 0, air = 0;
    for (std::size_t i = 0; i < n; i += stride, ++sampled) {
        const double v = volume.value(i);
        if (v > 32767) return false;
        air += v >= -1100 && v <= -900;
    }
    return air * 100 >= sampled;
}

std::string defaultCtPreset(const std::string& description) {
    std::string d = description;
    std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* word : {"head", "brain", "cran", "skull", "neuro"})
        if (d.find(word) != std::string::npos) return "brain";
    return "abdomen";
}

std::string fileWindowName(std::size_t index) { return "file" + std::to_string(index + 1); }

std::string fileWindowLabel(const NamedWindow& window, std::size_t index) {
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "W %g L %g", window.width, window.center);
    return (window.name.empty() ? "Scan window " + std::to_string(index + 1) : window.name) + "  " + numbers;
}

std::optional<WindowLevel> presetWindow(const std::string& name, const Volume& volume) {
    if (name == "auto") return autoWindow(volume);
    const auto& own = volume.metadata().windows;
    for (std::size_t i = 0; i < own.size(); ++i)
        if (name == fileWindowName(i)) return WindowLevel{own[i].center, own[i].width};
    for (const auto& p : windowPresets())
        if (p.name == name) return p.window;
    return std::nullopt;
}

}  // namespace lucent::render
