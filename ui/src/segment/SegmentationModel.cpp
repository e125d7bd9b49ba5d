/// @brief The Segment panel's state and rules (SegmentationModel.h).
#include "lucent/ui/SegmentationModel.h"

#include "lucent/core/ValuePrecision.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <tuple>
#include <cmath>

namespace lucent::ui {

SegmentationModel::SegmentationModel(ViewerModel* viewer, SegmentationRunner* runner, QObject* parent)
    : QObject(parent), m_viewer(viewer), m_runner(runner) {
    m_seedTool.changed = [this] { seedsEdited(); };
    m_seedTool.dragged = [this](double dx, double dy, bool started) { dragInterval(dx, dy, started); };
    m_rectTool.finished = [this](int slice, std::array<int, 4> rect) { startSnake(slice, rect); };
    m_rectTool.refused = [this](const std::string& why) { fail(QString::fromStdString(why)); };
    m_snake3dTool.changed = [this] { restartSnake3d(); };
    m_snake3dTool.placed = [this](const Vec3& at) { m_viewer->setCursor(at); };  // every view shows the start grow
    m_snake3dTool.refused = [this](const std::string& why) { fail(QString::fromStdString(why)); };
    m_snake3dTool.setDepth(kSnake3dDepth.byDefault);
    m_snake3dTool.setRadius(kSnake3dLimits.radiusMm.byDefault);
    // The 3D snake's page says which window the next start takes as its clip.
    connect(viewer, &ViewerModel::windowChanged, this, [this] {
        if (m_mode == Method::Snake3d) emit parametersChanged();
    });
    connect(viewer, &ViewerModel::volumeChanged, this, [this] {
        m_seedTool.clear();
        m_snake3dTool.clear();  // its voxels are the last volume's
        m_range.reset();  // computed when region growing first needs it, not on every load
        m_histogram.reset();
        emit seedsChanged();
    });
}

void SegmentationModel::enterMode(Method method) {
    if (m_runner->active() && m_runner->method() != method) m_runner->cancel();
    const bool changed = m_mode != method;
    const bool armed = m_armed;
    m_mode = method;
    m_armed = true;
    if (method == Method::RegionGrowing) dataRange();
    if (changed) emit modeChanged();
    else if (!armed) emit toolChanged();
}

ViewTool* SegmentationModel::tool() {
    // Grow from seeds' seeds are brush strokes: the label panel's brush is its tool, not one of ours.
    if (!m_mode || !m_armed || *m_mode == Method::FuzzyCMeans || *m_mode == Method::GrowCut) return nullptr;
    if (*m_mode == Method::Snake) return &m_rectTool;
    if (*m_mode == Method::Snake3d) return &m_snake3dTool;
    return &m_seedTool;
}

void SegmentationModel::clearSeeds() {
    m_seedTool.clear();
    m_runner->cancel();
    emit seedsChanged();
}

void SegmentationModel::removeSeed(int index) {
    auto seeds = m_seedTool.seeds();
    if (index < 0 || index >= int(seeds.size())) return;
    seeds.erase(seeds.begin() + index);
    m_seedTool.setSeeds(std::move(seeds));
    if (m_runner->active() && m_runner->method() == m_mode && m_seedTool.seeds().empty()) m_runner->cancel();
    seedsEdited();
}

void SegmentationModel::goToSeed(int index) {
    if (index < 0 || index >= int(seeds().size()) || !m_viewer->hasVolume()) return;
    const VoxelIndex& s = seeds()[std::size_t(index)];
    m_viewer->setCursor({double(s.i), double(s.j), double(s.k)});
}

QString SegmentationModel::seedText(const VoxelIndex& seed) {
    return QString("%1, %2, %3 (slice %4)").arg(seed.i).arg(seed.j).arg(seed.k).arg(seed.k + 1);
}

// --- parameters

void SegmentationModel::setInterval(double lower, double upper) {
    // The data's precision, as the interval's boxes show it: whole stored units (HU for CT), or
    // decimals rounded outward for float data (an MR's seed of 116.75 stays inside its interval).
    const int decimals = intervalDecimals();
    const auto [lo, hi] = m_viewer->hasVolume() ? shownInterval(lower, upper, m_viewer->volume()->pixelType(), decimals)
                                                : std::pair{lower, upper};
    if (lo == m_regionGrowing.lower && hi == m_regionGrowing.upper) return;
    m_regionGrowing.lower = lo;
    m_regionGrowing.upper = hi;
    emit parametersChanged();
    regrow();
}

void SegmentationModel::setConnectivity(int connectivity) {
    const int c = connectivity == 26 ? 26 : 6;
    if (c == m_regionGrowing.connectivity) return;
    m_regionGrowing.connectivity = c;
    emit parametersChanged();
    regrow();
}

bool SegmentationModel::stepInterval(int steps) {
    const auto& seeds = m_seedTool.seeds();
    if (m_mode != Method::RegionGrowing || seeds.empty() || !m_viewer->hasVolume()) return false;
    const Volume& v = *m_viewer->volume();
    const double seed = v.value(seeds[0].i, seeds[0].j, seeds[0].k);
    const double unit = v.pixelType() == PixelType::Int16 ? 1.0 : std::pow(10.0, -intervalDecimals());
    const auto p = lucent::stepInterval(m_regionGrowing, seed, steps, dataRange(), unit);
    setInterval(p.lower, p.upper);
    return true;
}

int SegmentationModel::intervalDecimals() {
    if (!m_viewer->hasVolume()) return 0;
    const auto [lo, hi] = dataRange();
    return valueDecimals(*m_viewer->volume(), lo, hi);
}

std::pair<double, double> SegmentationModel::dataRange() {
    if (!m_range && m_viewer->hasVolume()) m_range = m_viewer->volume()->range();  // a pass over the voxels
    return m_range.value_or(std::pair<double, double>{0.0, 1.0});
}

std::optional<std::pair<double, double>> SegmentationModel::intervalLimits() const {
    if (!m_range) return std::nullopt;
    const auto [lo, hi] = *m_range;
    const double w = hi - lo;
    return std::pair{std::max(-1e9, std::floor(lo - w)), std::min(1e9, std::ceil(hi + w))};
}

const ValueHistogram* SegmentationModel::valueHistogram() {
    if (!m_range || !m_viewer->hasVolume()) return nullptr;
    if (!m_histogram) m_histogram = intervalHistogram(*m_viewer->volume(), m_range->first, m_range->second);
    return &*m_histogram;
}

void SegmentationModel::dragInterval(double dx, double dy, bool started) {
    if (m_mode != Method::RegionGrowing || !m_viewer->hasVolume()) return;
    if (started) m_dragFrom = {m_regionGrowing.lower, m_regionGrowing.upper};
    const auto [lo, hi] = dataRange();
    // A pixel moves 0.5 % of the range, and at least one unit the boxes show (1 HU; 0.01 of an MR in floats).
    const double unit = std::max(std::pow(10.0, -intervalDecimals()), 0.005 * (hi - lo));
    // The interval keeps its width but never leaves the data's values: a long drag sideways stops
    // where its lower bound reaches the last value (or its upper the first). Wholly beyond them it
    // would hold no voxel, the seed's included.
    const double half = std::max(0.0, 0.5 * (m_dragFrom[1] - m_dragFrom[0]) + dy * unit);
    const double centre = std::clamp(0.5 * (m_dragFrom[0] + m_dragFrom[1]) + dx * unit, lo - half, hi + half);
    setInterval(centre - half, centre + half);
}

void SegmentationModel::setThreshold(double threshold) {
    const auto& limit = kFuzzyConnectednessLimits.threshold;
    const double t = std::clamp(threshold, limit.min, limit.max);
    if (t == m_fc.threshold) return;
    m_fc.threshold = t;
    emit parametersChanged();
    if (!m_runner->active() || m_runner->method() != Method::FuzzyConnectedness) return;
    SegmentationRequest r = m_runner->request();
    r.fuzzyConnectedness.threshold = t;
    m_runner->update(r);
}

void SegmentationModel::setPropagate(bool propagate) {
    if (propagate == m_snake.propagate) return;
    m_snake.propagate = propagate;
    emit parametersChanged();
}

void SegmentationModel::setSnakeStepMax(int pixels) {
    const int v = std::clamp(pixels, kSnakeLimits.stepMax.min, kSnakeLimits.stepMax.max);
    if (v == m_snake.stepMax) return;
    m_snake.stepMax = v;
    emit parametersChanged();
}

void SegmentationModel::setSnakeMinSegment(int pixels) {
    const int v = std::clamp(pixels, kSnakeLimits.minSegment.min, kSnakeLimits.minSegment.max);
    if (v == m_snake.minSegment) return;
    m_snake.minSegment = v;
    emit parametersChanged();
}

void SegmentationModel::setSnakeDomainMargin(int percent) {
    const int v = std::clamp(percent, kSnakeDomainMargin.min, kSnakeDomainMargin.max);
    if (v == m_snakeMargin) return;
    m_snakeMargin = v;
    emit parametersChanged();
}

std::optional<std::array<int, 4>> SegmentationModel::snakeDomain(const std::array<int, 4>& rect, int percent,
                                                                 int width, int height) {
    if (percent < 0) return std::nullopt;
    const int side = std::max(rect[2] - rect[0], rect[3] - rect[1]) + 1;
    const int m = std::max(kSnakeMinMarginPixels, int(std::lround(side * percent / 100.0)));
    return std::array<int, 4>{std::max(0, rect[0] - m), std::max(0, rect[1] - m), std::min(width - 1, rect[2] + m),
                              std::min(height - 1, rect[3] + m)};
}

void SegmentationModel::setBackend(gpu::Backend backend) {
    m_runner->setBackend(backend);
    if (backend == m_backend) return;
    m_backend = backend;
    emit parametersChanged();
}

void SegmentationModel::setStepsPerFrame(int steps) {
    const int s = std::clamp(steps, kStepsPerFrame.min, kStepsPerFrame.max);
    m_runner->setStepsPerFrame(s);
    if (s == m_stepsPerFrame) return;
    m_stepsPerFrame = s;
    emit parametersChanged();
}

// --- runs

SegmentationRequest SegmentationModel::request() const {
    SegmentationRequest r;
    r.seeds = m_seedTool.seeds();
    r.regionGrowing = m_regionGrowing;
    r.fuzzyConnectedness = m_fc;
    r.fuzzyCMeans = m_fcm;
    r.snake = m_snake;
    r.snake3d = snake3d();
    return r;
}

void SegmentationModel::seedsEdited() {
    if (m_mode == Method::RegionGrowing && m_viewer->hasVolume()) {
        const auto& seeds = m_seedTool.seeds();
        // The first seed sets the interval from the tissue it lies in (SeedInterval.h).
        if (seeds.size() == 1 && !m_runner->active()) {
            const auto p = seedInterval(*m_viewer->volume(), seeds, dataRange());
            m_regionGrowing.lower = p.lower;
            m_regionGrowing.upper = p.upper;
            emit parametersChanged();
        }
        regrow();
    }
    emit seedsChanged();
}

void SegmentationModel::regrow() {
    if (m_mode != Method::RegionGrowing || !m_viewer->hasVolume()) return;
    if (m_seedTool.seeds().empty()) return m_runner->cancel();
    if (m_regionGrowing.lower > m_regionGrowing.upper) return;
    if (const std::string outside = seedsOutsideInterval(*m_viewer->volume(), m_seedTool.seeds(), m_regionGrowing);
        !outside.empty())
        fail(QString::fromStdString(outside));
    // A running or finished run takes the new interval (it grows on when it only widens).
    if (m_runner->active() && m_runner->method() == Method::RegionGrowing) return m_runner->update(request());
    QString error;
    if (!m_runner->start(Method::RegionGrowing, request(), true, &error)) fail(error);
}

void SegmentationModel::startSnake(int slice, std::array<int, 4> rect) {
    m_snake.slice = slice;
    m_snake.rect = rect;
    if (m_viewer->hasVolume()) {
        const auto& dims = m_viewer->volume()->geometry().dims;
        m_snake.domain = snakeDomain(rect, m_snakeMargin, dims[0], dims[1]);
    }
    emit parametersChanged();
    QString error;
    if (!m_runner->start(Method::Snake, request(), true, &error)) fail(error);
}

AffinityParams SegmentationModel::fuzzyConnectednessEstimate() {
    if (!m_viewer->hasVolume() || m_seedTool.seeds().empty()) return {};
    return FuzzyConnectednessCpu::estimate(*m_viewer->volume(), m_seedTool.seeds(), m_fc.estimateRadius, dataRange());
}

bool SegmentationModel::startFuzzyConnectedness(const FuzzyConnectednessParams& params, QString* error) {
    m_fc = params;
    emit parametersChanged();
    return start(Method::FuzzyConnectedness, request(), error);
}

QString SegmentationModel::fuzzyConnectednessBlocker() const {
    if (!m_viewer->hasVolume()) return ViewerModel::noVolumeMessage;
    if (m_seedTool.seeds().empty())
        return "Click one or more seeds inside the object on the views, then choose Fuzzy connectedness again.";
    return {};
}

QString SegmentationModel::fuzzyCMeansBlocker() const {
    return m_viewer->hasVolume() ? QString() : QString(ViewerModel::noVolumeMessage);
}

bool SegmentationModel::layerCanMask() const {
    const auto labels = m_viewer->labels();
    return labels && labels->count(0) < labels->voxelCount();
}

bool SegmentationModel::startFuzzyCMeans(const FuzzyCMeansParams& params, bool maskedByLayer, QString* error) {
    m_fcm = params;
    emit parametersChanged();
    resetClusters();
    SegmentationRequest r = request();
    if (maskedByLayer && layerCanMask()) {
        m_fcmMask = std::make_shared<LabelMap>(*m_viewer->labels());
        r.mask = m_fcmMask.get();
    }
    return start(Method::FuzzyCMeans, r, error);
}

bool SegmentationModel::start(Method method, const SegmentationRequest& request, QString* error) {
    QString why;
    const bool ok = m_runner->start(method, request, true, &why);
    if (!ok) fail(why);
    if (error) *error = why;
    return ok;
}

void SegmentationModel::takeParameters(Method method, const SegmentationRequest& request) {
    if (method == Method::RegionGrowing || method == Method::FuzzyConnectedness) m_seedTool.setSeeds(request.seeds);
    if (method == Method::RegionGrowing) m_regionGrowing = request.regionGrowing;
    if (method == Method::FuzzyConnectedness) m_fc = request.fuzzyConnectedness;
    if (method == Method::FuzzyCMeans) m_fcm = request.fuzzyCMeans;
    if (method == Method::FuzzyCMeans) resetClusters();
    if (method == Method::Snake) m_snake = request.snake;
    if (method == Method::Snake3d) takeSnake3d(request);
    emit parametersChanged();
    emit seedsChanged();
}

bool SegmentationModel::startWith(Method method, const SegmentationRequest& request, bool play, QString* error) {
    enterMode(method);
    takeParameters(method, request);
    // Show where the run works: the snake's slice, or the first seed, in every view.
    if (m_viewer->hasVolume()) {
        Vec3 c = m_viewer->cursor();
        if (method == Method::Snake)
            c.z = request.snake.slice;
        else if (const auto& box = request.snake3d.box; method == Method::Snake3d && box)  // the box's centre
            c = {0.5 * (box->lo[0] + box->hi[0]), 0.5 * (box->lo[1] + box->hi[1]), std::round(0.5 * (box->lo[2] + box->hi[2]))};
        else if (!request.seeds.empty())
            c = {double(request.seeds[0].i), double(request.seeds[0].j), double(request.seeds[0].k)};
        m_viewer->setCursor(c);
    }
    return m_runner->start(method, request, play, error);
}

// --- views

render::ViewOverlay SegmentationModel::overlayFor(const render::SliceViewGeometry& view) const {
    render::ViewOverlay out;
    if (m_mode && *m_mode != Method::Snake && *m_mode != Method::FuzzyCMeans && *m_mode != Method::Snake3d &&
        *m_mode != Method::GrowCut)
        m_seedTool.overlay(view, out);
    if (m_mode == Method::Snake) m_rectTool.overlay(view, out);
    if (m_mode == Method::Snake3d) m_snake3dTool.overlay(view, out);  // the start, on every view it cuts
    if (!m_runner->active() || m_runner->method() != Method::Snake) return out;
    // The latest polygon comes with what the worker published (no wait for an advance); an
    // earlier one (the scrubber) is asked for once and cached for all views.
    const int key = m_runner->shownStep();
    if (key >= 0 && (key != m_polygonCacheKey || m_runner->polygonCount() != m_polygonCacheCount)) {
        m_polygonCache = m_runner->polygon(key);
        m_polygonCacheKey = key;
        m_polygonCacheCount = m_runner->polygonCount();
    }
    const SegmentationRunner::SlicePolygon latest = key < 0 ? m_runner->latestPolygon() : SegmentationRunner::SlicePolygon{};
    const bool useLatest = key < 0 && !latest.points.empty();
    if (key < 0 && latest.points.empty() && m_polygonCacheKey != -1) {  // before the first step: the start
        m_polygonCache = m_runner->polygon(-1);
        m_polygonCacheKey = -1;
    }
    // Each polygon on its own slice: a propagating run's latest lies on the slice it works on,
    // which is not the one its rectangle was drawn on.
    const SegmentationRunner::SlicePolygon& shown = useLatest ? latest : m_polygonCache;
    render::ViewOverlay::Polyline line;
    line.points = slicePolygonOnScreen(view, shown.points, shown.slice);
    line.markNodes = true;
    line.colour = {1.0f, 0.35f, 0.2f, 1.0f};
    if (!line.points.empty()) out.lines.push_back(std::move(line));
    // Where the contour may go: its domain (else its rectangle), which the HUD panel keeps clear of.
    const SnakeParams& run = m_runner->request().snake;
    const std::array<int, 4> r = run.domain.value_or(run.rect);
    const auto box = slicePolygonOnScreen(view, {{double(r[0]), double(r[1])}, {double(r[2]), double(r[1])},
                                                 {double(r[2]), double(r[3])}, {double(r[0]), double(r[3])}}, shown.slice);
    if (!box.empty()) {
        std::array<float, 4> clear{box[0][0], box[0][1], box[0][0], box[0][1]};
        for (const auto& p : box) clear = {std::min(clear[0], p[0]), std::min(clear[1], p[1]), std::max(clear[2], p[0]),
                                           std::max(clear[3], p[1])};
        out.keepClear.push_back(clear);
    }
    return out;
}

void SegmentationModel::fail(const QString& why) { emit message(why); }

}  // namespace lucent::ui
