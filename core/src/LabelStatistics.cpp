/// @brief Per-label statistics in one parallel pass, and their CSV form.
#include "lucent/core/LabelStatistics.h"

#include "LabelRuns.h"
#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <iomanip>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace lucent {

namespace {

/// Voxels per piece: the partition whose partial sums are merged in order. Fixed by the grid alone,
/// so that float32 figures do not depend on the thread count; 2^20 keeps a piece's int16 sums of
/// squares within 64 bits.
constexpr std::size_t kPieceVoxels = std::size_t(1) << 20;

struct Piece {
    std::size_t begin = 0, end = 0;
    bool filled = false;  ///< in slices filled in for missing positions: counted, not measured
};

/// Runs of slices that are all measured or all filled, cut into pieces of at most kPieceVoxels.
std::vector<Piece> partition(const Geometry& g, const std::vector<int>& filledSlices) {
    std::vector<bool> filled(std::size_t(g.dims[2]), false);
    for (int k : filledSlices)
        if (k >= 0 && k < g.dims[2]) filled[std::size_t(k)] = true;
    const std::size_t slice = g.sliceSize();
    std::vector<Piece> out;
    for (std::size_t k = 0, nz = filled.size(); k < nz;) {
        std::size_t end = k + 1;
        while (end < nz && filled[end] == filled[k]) ++end;
        for (std::size_t b = k * slice, e = end * slice; b < e; b += kPieceVoxels)
            out.push_back({b, std::min(e, b + kPieceVoxels), filled[k]});
        k = end;
    }
    return out;
}

/// Exact sums of the int16 values of one label over a piece.
struct IntSums {
    std::size_t n = 0;
    std::int64_t s1 = 0;
    std::uint64_t s2 = 0;
    int min = std::numeric_limits<int>::max(), max = std::numeric_limits<int>::min();

    void add(const std::int16_t* x, std::size_t count) {
        std::int64_t a = 0;
        std::uint64_t b = 0;
        int lo = min, hi = max;
        for (std::size_t i = 0; i < count; ++i) {  // a reduction the compiler vectorises
            const int v = x[i];
            a += v;
            b += std::uint64_t(v * v);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        n += count, s1 += a, s2 += b, min = lo, max = hi;
    }
};

/// Sums of float32 values less the label's first value in the piece (its shift): sums of squares
/// near the data's spread, not its offset, so E[x^2] - E[x]^2 loses nothing at -1000 HU.
struct FloatSums {
    std::size_t n = 0;
    double shift = 0, s1 = 0, s2 = 0;
    double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();

    void add(const float* x, std::size_t count) {
        if (n == 0) shift = x[0];
        for (std::size_t i = 0; i < count; ++i) {
            const double d = double(x[i]) - shift;
            s1 += d, s2 += d * d;
            min = std::min(min, double(x[i]));
            max = std::max(max, double(x[i]));
        }
        n += count;
    }
};

// 128-bit integers (GCC and Clang): a volume's exact sums of squares pass 64 bits.
__extension__ using Int128 = __int128;

/// The int16 totals of one label: exact, so any order of merging gives the same figures.
struct IntTotal {
    std::size_t n = 0;
    Int128 s1 = 0, s2 = 0;
    int min = std::numeric_limits<int>::max(), max = std::numeric_limits<int>::min();

    void merge(const IntSums& p) {
        n += p.n, s1 += p.s1, s2 += p.s2;
        min = std::min(min, p.min), max = std::max(max, p.max);
    }
    void figures(LabelStatistics& s) const {
        // n s2 - s1^2 = n^2 var exactly (|s1| < 2^49, n s2 < 2^99 for n < 2^34): one rounding at the end.
        const Int128 spread = Int128(n) * s2 - s1 * s1;
        s.mean = double((long double)s1 / (long double)n);
        s.stddev = double(std::sqrt((long double)spread / ((long double)n * (long double)n)));
        s.min = min, s.max = max;
    }
};

/// The float32 totals of one label: pieces merged in the partition's order (Chan et al.'s update).
struct FloatTotal {
    std::size_t n = 0;
    double mean = 0, m2 = 0;
    double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();

    void merge(const FloatSums& p) {
        const double pn = double(p.n), pMean = p.shift + p.s1 / pn, pM2 = std::max(0.0, p.s2 - p.s1 * p.s1 / pn);
        const double total = double(n) + pn, delta = pMean - mean;
        mean += delta * pn / total;
        m2 += pM2 + delta * delta * double(n) * pn / total;
        n += p.n;
        min = std::min(min, p.min), max = std::max(max, p.max);
    }
    void figures(LabelStatistics& s) const {
        s.mean = mean;
        s.stddev = std::sqrt(m2 / double(n));
        s.min = min, s.max = max;
    }
};

/// The non-zero labels of one piece with their sums (in a filled piece only n, the voxel count).
template <class Sums>
struct PiecePartial {
    std::vector<std::uint8_t> labels;
    std::vector<Sums> sums;
};

template <class Sums, class T>
PiecePartial<Sums> accumulate(const T* v, const std::uint8_t* l, const Piece& piece) {
    std::array<Sums, 256> acc{};
    for (std::size_t i = piece.begin, j; i < piece.end; i = j) {
        j = labelRunEnd(l, i, piece.end);
        if (!l[i]) continue;
        if (piece.filled)
            acc[l[i]].n += j - i;
        else
            acc[l[i]].add(v + i, j - i);
    }
    PiecePartial<Sums> out;
    for (int value = 1; value < 256; ++value)
        if (acc[std::size_t(value)].n) {
            out.labels.push_back(std::uint8_t(value));
            out.sums.push_back(acc[std::size_t(value)]);
        }
    return out;
}

template <class Sums, class Total, class T>
std::vector<LabelStatistics> statistics(const T* v, const LabelMap& labels, const std::vector<int>& filledSlices,
                                        unsigned threads) {
    const std::vector<Piece> pieces = partition(labels.geometry(), filledSlices);
    std::vector<PiecePartial<Sums>> partial(pieces.size());
    parallelFor(pieces.size(), threads,
                [&](std::size_t p) { partial[p] = accumulate<Sums>(v, labels.data(), pieces[p]); });
    std::array<Total, 256> total{};
    std::array<std::size_t, 256> filled{};
    for (std::size_t p = 0; p < pieces.size(); ++p)
        for (std::size_t n = 0; n < partial[p].labels.size(); ++n) {
            const std::uint8_t value = partial[p].labels[n];
            if (pieces[p].filled)
                filled[value] += partial[p].sums[n].n;
            else
                total[value].merge(partial[p].sums[n]);
        }
    std::vector<LabelStatistics> out;
    const double ml = labels.geometry().voxelVolumeMl();
    for (std::size_t value = 1; value < 256; ++value) {
        if (!total[value].n && !filled[value]) continue;
        LabelStatistics s;
        s.value = std::uint8_t(value);
        s.voxels = total[value].n;
        s.millilitres = double(s.voxels) * ml;
        s.filledVoxels = filled[value];
        if (s.voxels) total[value].figures(s);
        out.push_back(s);
    }
    return out;
}

}  // namespace

std::vector<LabelStatistics> computeLabelStatistics(const Volume& volume, const LabelMap& labels, unsigned threads) {
    if (volume.voxelCount() != labels.voxelCount())
        throw std::invalid_argument("the label map and the volume have different sizes");
    const std::vector<int> filled = volume.metadata().filledSlices();
    if (volume.pixelType() == PixelType::Int16)
        return statistics<IntSums, IntTotal>(volume.int16Data(), labels, filled, threads);
    return statistics<FloatSums, FloatTotal>(volume.float32Data(), labels, filled, threads);
}

std::array<std::size_t, 256> countLabels(const LabelMap& labels, unsigned threads) {
    const std::size_t n = labels.voxelCount(), pieces = (n + kPieceVoxels - 1) / kPieceVoxels;
    std::vector<std::array<std::size_t, 256>> partial(pieces);
    parallelFor(pieces, threads, [&](std::size_t p) {
        std::array<std::size_t, 256>& c = partial[p];
        c.fill(0);
        for (std::size_t i = p * kPieceVoxels, e = std::min(n, i + kPieceVoxels), j; i < e; i = j) {
            j = labelRunEnd(labels.data(), i, e);
            c[labels[i]] += j - i;
        }
    });
    std::array<std::size_t, 256> out{};
    for (const auto& c : partial)
        for (std::size_t v = 0; v < 256; ++v) out[v] += c[v];
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
    for (const auto& s : statistics) {
        out << int(s.value) << ',' << csvField(table.nameOf(s.value)) << ',' << s.voxels << ',' << s.millilitres;
        // A label only in filled slices has no measured value: empty fields, not zeros.
        if (s.voxels)
            out << ',' << s.mean << ',' << s.stddev << ',' << s.min << ',' << s.max << '\n';
        else
            out << ",,,,\n";
    }
    return out.str();
}

}  // namespace lucent
