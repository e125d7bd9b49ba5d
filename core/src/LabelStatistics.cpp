/// @brief One-pass per-label statistics and their CSV form.
#include "lucent/core/LabelStatistics.h"

#include <array>
#include <cmath>
#include <iomanip>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace lucent {

std::vector<LabelStatistics> computeLabelStatistics(const Volume& volume, const LabelMap& labels) {
    if (volume.voxelCount() != labels.voxelCount())
        throw std::invalid_argument("the label map and the volume have different sizes");
    struct Running {
        std::size_t n = 0;
        double mean = 0, m2 = 0, min = 0, max = 0;
    };
    std::array<Running, 256> run{};
    const std::size_t n = labels.voxelCount();
    const std::uint8_t* l = labels.data();
    auto add = [&](std::uint8_t label, double x) {
        Running& r = run[label];
        if (r.n == 0) r.min = r.max = x;
        r.min = std::min(r.min, x);
        r.max = std::max(r.max, x);
        ++r.n;
        const double delta = x - r.mean;
        r.mean += delta / double(r.n);
        r.m2 += delta * (x - r.mean);
    };
    // The pixel type is chosen once, outside the loop.
    if (volume.pixelType() == PixelType::Int16) {
        const std::int16_t* v = volume.int16Data();
        for (std::size_t i = 0; i < n; ++i)
            if (l[i]) add(l[i], v[i]);
    } else {
        const float* v = volume.float32Data();
        for (std::size_t i = 0; i < n; ++i)
            if (l[i]) add(l[i], v[i]);
    }
    std::vector<LabelStatistics> out;
    const double ml = labels.geometry().voxelVolumeMl();
    for (int value = 1; value < 256; ++value) {
        const Running& r = run[std::size_t(value)];
        if (!r.n) continue;
        LabelStatistics s;
        s.value = std::uint8_t(value);
        s.voxels = r.n;
        s.millilitres = double(r.n) * ml;
        s.mean = r.mean;
        s.stddev = std::sqrt(r.m2 / double(r.n));
        s.min = r.min;
        s.max = r.max;
        out.push_back(s);
    }
    return out;
}

namespace {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

}  // namespace

std::string labelStatisticsCsv(const std::vector<LabelStatistics>& statistics, const LabelTable& table) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // a decimal point, whatever the user's locale
    out << std::setprecision(10);
    out << "value,name,voxels,ml,mean,sd,min,max\n";
    for (const auto& s : statistics)
        out << int(s.value) << ',' << csvField(table.nameOf(s.value)) << ',' << s.voxels << ',' << s.millilitres << ','
            << s.mean << ',' << s.stddev << ',' << s.min << ',' << s.max << '\n';
    return out.str();
}

}  // namespace lucent
