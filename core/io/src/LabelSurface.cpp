/// @brief Label surfaces: crop, contour and smooth (SurfaceContour), then patient LPS, outward winding, normals.
#include "lucent/io/LabelSurface.h"

#include "SurfaceContour.h"

#include "lucent/core/Errors.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace lucent::io {

namespace {

/// Progress in thousandths with cancellation: the caller's callback sees (done, 1000).
class Thousandths {
public:
    explicit Thousandths(const ProgressCallback& callback) : m_callback(callback) {}
    void report(double done) const {
        if (!keepGoing(done)) throw Cancelled();
    }
    /// The non-throwing form, for callbacks that run inside VTK (an exception must not cross it).
    bool keepGoing(double done) const {
        return !m_callback || m_callback(static_cast<std::size_t>(std::clamp(done, 0.0, 1000.0)), 1000);
    }

private:
    const ProgressCallback& m_callback;
};

std::string labelName(std::uint8_t label) { return "label " + std::to_string(label); }

/// Smallest box (inclusive voxel indices) holding `label`; lo > hi on an axis when it has no voxel.
std::array<std::array<int, 3>, 2> labelBox(const LabelMap& labels, std::uint8_t label, const Thousandths& progress) {
    const Geometry& g = labels.geometry();
    std::array<int, 3> lo{g.dims[0], g.dims[1], g.dims[2]}, hi{-1, -1, -1};
    for (int k = 0; k < g.dims[2]; ++k) {
        for (int j = 0; j < g.dims[1]; ++j) {
            const std::uint8_t* row = labels.data() + g.index(0, j, k);
            const std::uint8_t* first = std::find(row, row + g.dims[0], label);
            if (first == row + g.dims[0]) continue;
            const auto last =
                std::find(std::make_reverse_iterator(row + g.dims[0]), std::make_reverse_iterator(row), label);
            lo = {std::min<int>(lo[0], int(first - row)), std::min(lo[1], j), std::min(lo[2], k)};
            hi = {std::max<int>(hi[0], int(&*last - row)), std::max(hi[1], j), std::max(hi[2], k)};
        }
        progress.report(100.0 * (k + 1) / g.dims[2]);
    }
    return {lo, hi};
}

/// The label inside its box grown by one voxel of background on every side.
detail::BinaryCrop cropLabel(const LabelMap& labels, std::uint8_t label, const std::array<int, 3>& lo,
                             const std::array<int, 3>& hi) {
    const Geometry& g = labels.geometry();
    detail::BinaryCrop crop;
    crop.spacing = g.spacing;
    for (int a = 0; a < 3; ++a) crop.dims[a] = hi[a] - lo[a] + 3;
    crop.mask.assign(static_cast<std::size_t>(crop.dims[0]) * crop.dims[1] * crop.dims[2], 0);
    for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j) {
            const std::uint8_t* row = labels.data() + g.index(0, j, k);
            std::uint8_t* out =
                crop.mask.data() +
                ((static_cast<std::size_t>(k - lo[2] + 1) * crop.dims[1] + (j - lo[1] + 1)) * crop.dims[0]) + 1;
            for (int i = lo[0]; i <= hi[0]; ++i) out[i - lo[0]] = row[i] == label ? 1 : 0;
        }
    return crop;
}

/// Outward area-weighted unit normal per point of a closed, outward-wound mesh.
std::vector<float> pointNormals(const std::vector<double>& p, const std::vector<std::uint32_t>& tri) {
    std::vector<double> sum(p.size(), 0.0);
    for (std::size_t t = 0; t < tri.size(); t += 3) {
        const Vec3 a{p[3 * tri[t]], p[3 * tri[t] + 1], p[3 * tri[t] + 2]};
        const Vec3 b{p[3 * tri[t + 1]], p[3 * tri[t + 1] + 1], p[3 * tri[t + 1] + 2]};
        const Vec3 c{p[3 * tri[t + 2]], p[3 * tri[t + 2] + 1], p[3 * tri[t + 2] + 2]};
        const Vec3 n = cross(b - a, c - a);  // length = twice the area: larger faces weigh more
        for (int v = 0; v < 3; ++v)
            for (int a2 = 0; a2 < 3; ++a2) sum[3 * tri[t + v] + a2] += n[a2];
    }
    std::vector<float> out(p.size());
    for (std::size_t i = 0; i < p.size(); i += 3) {
        const Vec3 n = normalized({sum[i], sum[i + 1], sum[i + 2]});
        for (int a = 0; a < 3; ++a) out[i + a] = static_cast<float>(n[a]);
    }
    return out;
}

}  // namespace

bool surfacesAvailable() { return detail::contourAvailable(); }

SurfaceMesh buildLabelSurface(const LabelMap& labels, std::uint8_t label, const SurfaceOptions& options,
                              const ProgressCallback& progress) {
    detail::requireContour();
    const Thousandths done(progress);
    const Geometry& g = labels.geometry();
    if (label == 0) throw IoError("surface: label 0 is the background and has no surface");
    if (!(g.spacing.x > 0 && g.spacing.y > 0 && g.spacing.z > 0))
        throw IoError("surface of " + labelName(label) + ": the grid's spacing is not positive");
    const auto [lo, hi] = labelBox(labels, label, done);
    if (hi[0] < 0) throw IoError("surface of " + labelName(label) + ": the label has no voxel");
    const detail::BinaryCrop crop = cropLabel(labels, label, lo, hi);
    done.report(150);

    const detail::StageProgress stage = [&](double fraction) { return done.keepGoing(150 + 750 * fraction); };
    detail::RawMesh raw = detail::contourAndSmooth(crop, options.smoothingIterations, options.passBand, stage);
    if (raw.triangles.empty()) throw IoError("surface of " + labelName(label) + ": contouring gave no triangle");

    // Crop point (spacing (.) crop index) -> patient: origin + D * (spacing (.) (crop index + lo - 1)).
    const Vec3 shift{g.spacing.x * (lo[0] - 1), g.spacing.y * (lo[1] - 1), g.spacing.z * (lo[2] - 1)};
    for (std::size_t i = 0; i < raw.points.size(); i += 3) {
        const Vec3 patient =
            g.origin + g.direction * (Vec3{raw.points[i], raw.points[i + 1], raw.points[i + 2]} + shift);
        for (int a = 0; a < 3; ++a) raw.points[i + a] = patient[a];
    }
    // Marching-cubes tables wind every triangle alike, so one sign covers all of them (cavities
    // included); a left-handed direction matrix turns it over, and the enclosed volume says which.
    const Vec3 ref{raw.points[0], raw.points[1], raw.points[2]};
    double signedVolume6 = 0;
    for (std::size_t t = 0; t < raw.triangles.size(); t += 3) {
        auto at = [&](int v) {
            const std::size_t i = 3 * std::size_t(raw.triangles[t + v]);
            return Vec3{raw.points[i], raw.points[i + 1], raw.points[i + 2]} - ref;
        };
        signedVolume6 += dot(at(0), cross(at(1), at(2)));
    }
    if (signedVolume6 < 0)
        for (std::size_t t = 0; t < raw.triangles.size(); t += 3) std::swap(raw.triangles[t + 1], raw.triangles[t + 2]);

    SurfaceMesh mesh;
    mesh.normals = pointNormals(raw.points, raw.triangles);
    mesh.points.assign(raw.points.begin(), raw.points.end());
    mesh.triangles = std::move(raw.triangles);
    done.report(1000);
    return mesh;
}

std::vector<NamedSurface> buildLabelSurfaces(const LabelMap& labels, const LabelTable& table,
                                             const std::vector<std::uint8_t>& which, const SurfaceOptions& options,
                                             const ProgressCallback& progress) {
    detail::requireContour();
    std::vector<std::uint8_t> values = which;
    if (values.empty()) {
        std::array<std::size_t, 256> counts{};
        for (std::size_t i = 0; i < labels.voxelCount(); ++i) ++counts[labels[i]];
        for (int v = 1; v < 256; ++v)
            if (counts[v]) values.push_back(static_cast<std::uint8_t>(v));
    }
    std::vector<NamedSurface> out;
    out.reserve(values.size());
    for (std::size_t n = 0; n < values.size(); ++n) {
        // One progress over all labels: label n owns the n-th equal share of the thousandths.
        ProgressCallback share;
        if (progress)
            share = [&](std::size_t done, std::size_t total) {
                const double base = 1000.0 * n / values.size(), span = 1000.0 / values.size();
                return progress(static_cast<std::size_t>(base + span * done / std::max<std::size_t>(total, 1)), 1000);
            };
        out.push_back({table.nameOf(values[n]), values[n], buildLabelSurface(labels, values[n], options, share)});
    }
    return out;
}

}  // namespace lucent::io
