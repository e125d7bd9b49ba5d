/// @brief Histogram classes: EM on the bins, BIC for the number of components, posterior run
/// around the value, cut at the smoothed histogram's minimum between neighbouring means.
#include "lucent/core/seg/HistogramClasses.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lucent {

namespace {

struct Bins {
    std::vector<double> x, w;  // centres and counts of the non-empty bins
    double total = 0;
};

Bins nonEmptyBins(const ValueHistogram& h) {
    Bins b;
    for (std::size_t i = 0; i < h.counts.size(); ++i)
        if (h.counts[i]) {
            b.x.push_back(h.lo + (double(i) + 0.5) * h.binWidth());
            b.w.push_back(double(h.counts[i]));
            b.total += double(h.counts[i]);
        }
    return b;
}

double logDensity(const MixtureComponent& c, double x) {
    const double z = (x - c.mean) / c.sd;
    return std::log(c.weight) - std::log(c.sd) - 0.5 * z * z;
}

/// EM for K components; returns the log-likelihood (up to the constant all K share).
double fitK(const Bins& b, int k, double minSd, std::vector<MixtureComponent>& out) {
    out.assign(std::size_t(k), {});
    double cumulative = 0;
    std::size_t at = 0;
    for (int c = 0; c < k; ++c) {
        const double target = (c + 0.5) / k * b.total;
        while (at + 1 < b.x.size() && cumulative + b.w[at] < target) cumulative += b.w[at++];
        out[std::size_t(c)] = {1.0 / k, b.x[at], std::max(minSd, (b.x.back() - b.x.front()) / (2.0 * k))};
    }
    std::vector<double> r(static_cast<std::size_t>(k));
    double logLikelihood = 0;
    for (int iteration = 0; iteration < 300; ++iteration) {
        std::vector<double> n(static_cast<std::size_t>(k), 0.0), sx(n), sxx(n);
        double ll = 0;
        for (std::size_t i = 0; i < b.x.size(); ++i) {
            double top = -std::numeric_limits<double>::infinity();
            for (int c = 0; c < k; ++c) top = std::max(top, r[std::size_t(c)] = logDensity(out[std::size_t(c)], b.x[i]));
            double sum = 0;
            for (double& v : r) sum += v = std::exp(v - top);
            ll += b.w[i] * (top + std::log(sum));
            for (int c = 0; c < k; ++c) {
                const double weight = b.w[i] * r[std::size_t(c)] / sum;
                n[std::size_t(c)] += weight;
                sx[std::size_t(c)] += weight * b.x[i];
                sxx[std::size_t(c)] += weight * b.x[i] * b.x[i];
            }
        }
        for (int c = 0; c < k; ++c) {
            if (n[std::size_t(c)] <= 0) continue;  // an empty component keeps its place
            MixtureComponent& m = out[std::size_t(c)];
            m.weight = n[std::size_t(c)] / b.total;
            m.mean = sx[std::size_t(c)] / n[std::size_t(c)];
            m.sd = std::max(minSd, std::sqrt(std::max(0.0, sxx[std::size_t(c)] / n[std::size_t(c)] - m.mean * m.mean)));
            m.weight = std::max(m.weight, 1e-12);
        }
        const bool settled = iteration > 0 && std::abs(ll - logLikelihood) <= 1e-9 * std::abs(ll);
        logLikelihood = ll;
        if (settled) break;
    }
    return logLikelihood;
}

}  // namespace

std::vector<MixtureComponent> fitHistogramMixture(const ValueHistogram& histogram, int maxComponents) {
    const Bins b = nonEmptyBins(histogram);
    if (b.x.size() < 2) return {{1.0, b.x.empty() ? histogram.lo : b.x[0], std::max(histogram.binWidth(), 1e-9)}};
    const double minSd = histogram.binWidth();  // no component narrower than a bin
    std::vector<MixtureComponent> best, fit;
    double bestBic = std::numeric_limits<double>::infinity();
    for (int k = 2; k <= std::min<int>(maxComponents, int(b.x.size())); ++k) {
        const double bic = -2.0 * fitK(b, k, minSd, fit) + (3.0 * k - 1.0) * std::log(b.total);
        if (bic < bestBic) bestBic = bic, best = fit;
    }
    std::sort(best.begin(), best.end(), [](const auto& a, const auto& c) { return a.mean < c.mean; });
    return best;
}

namespace {

/// The histogram smoothed over 3 bins each side (a sampled histogram's counts are noisy).
std::vector<double> smoothed(const ValueHistogram& h) {
    const long bins = long(h.counts.size());
    std::vector<double> out(std::size_t(bins), 0.0);
    for (long i = 0; i < bins; ++i)
        for (long d = -3; d <= 3; ++d)
            if (i + d >= 0 && i + d < bins) out[std::size_t(i)] += double(h.counts[std::size_t(i + d)]) * std::exp(-0.5 * double(d * d) / 2.25);
    return out;
}

/// From `seed` towards `end` (direction `step`): the bottom of the first dip lower than half the
/// lower of the highest points before it and after it, or `end` when there is none.
long firstDip(const std::vector<double>& smooth, long seed, long end, long step) {
    if (seed == end) return end;
    std::vector<double> farPeak(smooth.size(), 0.0);  // highest from each bin on to `end`
    for (long i = end, last = end; ; i -= step) {
        farPeak[std::size_t(i)] = std::max(smooth[std::size_t(i)], i == last ? 0.0 : farPeak[std::size_t(i + step)]);
        if (i == seed) break;
    }
    double nearPeak = smooth[std::size_t(seed)];
    for (long i = seed + step; i != end; i += step) {
        nearPeak = std::max(nearPeak, smooth[std::size_t(i)]);
        if (smooth[std::size_t(i)] >= 0.5 * std::min(nearPeak, farPeak[std::size_t(i)])) continue;
        while (i + step != end && smooth[std::size_t(i + step)] < smooth[std::size_t(i)]) i += step;
        // The middle of a flat bottom (an empty gap between two values): the class stays near its own.
        long last = i;
        while (last + step != end && smooth[std::size_t(last + step)] == smooth[std::size_t(i)]) last += step;
        return i + (last - i) / 2;
    }
    return end;
}

}  // namespace

ValueClass histogramClassOf(const ValueHistogram& h, const std::vector<MixtureComponent>& mixture, double value) {
    const long bins = long(h.counts.size());
    const double width = h.binWidth();
    auto binOf = [&](double x) { return std::clamp(h.binOf(std::clamp(x, h.lo, h.hi)), 0L, bins - 1); };
    const std::vector<double> smooth = smoothed(h);
    auto valley = [&](double from, double to) {  // the lowest bin between two values
        const long a = binOf(std::min(from, to)), b = binOf(std::max(from, to));
        long at = a;
        for (long i = a; i <= b; ++i)
            if (smooth[std::size_t(i)] < smooth[std::size_t(at)]) at = i;
        return at;
    };
    // Neighbouring components (by mean) of about one height with no dip between them are one
    // class: a broad flat tissue the mixture cut into pieces. A shoulder beside a peak is not.
    std::vector<int> group(mixture.size(), 0);
    for (std::size_t c = 1; c < mixture.size(); ++c) {
        const double a = smooth[std::size_t(binOf(mixture[c - 1].mean))], b = smooth[std::size_t(binOf(mixture[c].mean))];
        const double dip = smooth[std::size_t(valley(mixture[c - 1].mean, mixture[c].mean))];
        const bool same = std::min(a, b) >= 0.5 * std::max(a, b) && dip >= 0.5 * std::min(a, b);
        group[c] = group[c - 1] + (same ? 0 : 1);
    }
    auto owner = [&](long i) {
        const double x = h.lo + (double(i) + 0.5) * width;
        std::size_t best = 0;
        for (std::size_t c = 1; c < mixture.size(); ++c)
            if (logDensity(mixture[c], x) > logDensity(mixture[best], x)) best = c;
        return best;
    };
    const long seed = binOf(value);
    const int mine = group[owner(seed)];
    double lowMean = h.hi, highMean = h.lo;  // the extent of my group's means
    for (std::size_t c = 0; c < mixture.size(); ++c)
        if (group[c] == mine) lowMean = std::min(lowMean, mixture[c].mean), highMean = std::max(highMean, mixture[c].mean);
    long lo = seed, hi = seed;
    while (lo > 0 && group[owner(lo - 1)] == mine) --lo;
    while (hi < bins - 1 && group[owner(hi + 1)] == mine) ++hi;
    // Cut at the histogram's lowest point between my group and the nearest other component on
    // each side (by mean: a broad component may own values on both sides of a narrow one).
    double below = h.lo - 1, above = h.hi + 1;
    for (std::size_t c = 0; c < mixture.size(); ++c) {
        if (group[c] == mine) continue;
        if (mixture[c].mean < lowMean) below = std::max(below, mixture[c].mean);
        if (mixture[c].mean > highMean) above = std::min(above, mixture[c].mean);
    }
    if (lo > 0 && below >= h.lo) lo = std::max(lo, std::min(seed, valley(below, lowMean)));
    if (hi < bins - 1 && above <= h.hi) hi = std::min(hi, std::max(seed, valley(highMean, above)));
    // Inside the run, a dip below half of the lower of the peaks on its two sides (an empty gap at
    // the least) parts two tissues one broad component spans: the class stops at the first.
    hi = firstDip(smooth, seed, hi, +1);
    lo = firstDip(smooth, seed, lo, -1);
    return {h.lo + double(lo) * width, h.lo + double(hi + 1) * width};
}

}  // namespace lucent
