/// @brief Decimals of a volume's values and the interval's rounding to them.
#include "lucent/core/ValuePrecision.h"

#include <algorithm>
#include <cmath>

namespace lucent {

namespace {
constexpr int kSignificantDigits = 4, kMinFloatDecimals = 2, kMaxFloatDecimals = 6;
}  // namespace

int valueDecimals(PixelType type, double largest) {
    if (type == PixelType::Int16) return 0;
    const double magnitude = std::abs(largest);
    const int digitsBeforePoint = magnitude >= 1 ? int(std::floor(std::log10(magnitude))) + 1 : 0;
    return std::clamp(kSignificantDigits - digitsBeforePoint, kMinFloatDecimals, kMaxFloatDecimals);
}

int valueDecimals(const Volume& volume, double lowest, double highest) {
    return valueDecimals(volume.pixelType(), std::max(std::abs(lowest), std::abs(highest)));
}

std::pair<double, double> shownInterval(double lower, double upper, PixelType type, int decimals) {
    if (type == PixelType::Int16 || decimals <= 0) return {double(std::lround(lower)), double(std::lround(upper))};
    const double scale = std::pow(10.0, decimals);
    const auto asFloat = [](double x) { return double(float(x)); };
    double lo = asFloat(std::round(lower * scale) / scale), hi = asFloat(std::round(upper * scale) / scale);
    if (lo > lower) lo = asFloat((std::round(lower * scale) - 1) / scale);
    if (hi < upper) hi = asFloat((std::round(upper * scale) + 1) / scale);
    return {lo, hi};
}

}  // namespace lucent
