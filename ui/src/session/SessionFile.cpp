/// @brief Session file: JSON layout, relative data paths, run-length label voxels, atomic write.
#include "lucent/ui/SessionFile.h"

#include "lucent/core/Errors.h"
#include "lucent/core/Version.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ReadLimits.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

namespace lucent::ui {

namespace {

constexpr const char* kFormatName = "lucent-session";

/// Reads one file's fields; every problem becomes an IoError naming the file and the field.
class Reader {
public:
    explicit Reader(QString source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const QString& problem) const { throw IoError((m_source + ": " + problem).toStdString()); }
    QJsonObject object(const QJsonObject& o, const char* key, bool required = false) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() && !required) return {};
        if (!v.isObject()) fail(QString("'%1' is missing or not an object").arg(key));
        return v.toObject();
    }
    QJsonArray array(const QJsonObject& o, const char* key) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return {};
        if (!v.isArray()) fail(QString("'%1' is not a list").arg(key));
        return v.toArray();
    }
    double number(const QJsonObject& o, const char* key, double fallback) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isDouble() || !std::isfinite(v.toDouble())) fail(QString("'%1' is not a number").arg(key));
        return v.toDouble();
    }
    int integer(const QJsonObject& o, const char* key, int fallback, int lo, int hi) const {
        const double d = number(o, key, fallback);
        if (d != std::floor(d) || d < lo || d > hi)
            fail(QString("'%1' must be a whole number from %2 to %3").arg(key).arg(lo).arg(hi));
        return int(d);
    }
    /// The limit's default when the key is missing.
    int integer(const QJsonObject& o, const char* key, const Limit<int>& limit) const {
        return integer(o, key, limit.byDefault, limit.min, limit.max);
    }
    /// A number within `limit` (its default when the key is missing).
    double bounded(const QJsonObject& o, const char* key, const Limit<double>& limit) const {
        const double d = number(o, key, limit.byDefault);
        if (!limit.allows(d))
            fail(QString("'%1' must be %2 %3").arg(key, limit.minOpen ? "greater than" : "at least").arg(limit.min) +
                 (std::isinf(limit.max) ? QString() : QString(" and at most %1").arg(limit.max)));
        return d;
    }
    bool boolean(const QJsonObject& o, const char* key, bool fallback) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isBool()) fail(QString("'%1' is not true or false").arg(key));
        return v.toBool();
    }
    QString text(const QJsonObject& o, const char* key, const QString& fallback = {}) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isString()) fail(QString("'%1' is not a string").arg(key));
        return v.toString();
    }
    std::optional<double> optionalNumber(const QJsonObject& o, const char* key) const {
        if (o.value(key).isUndefined() || o.value(key).isNull()) return std::nullopt;
        return number(o, key, 0);
    }
    Vec3 vec3(const QJsonValue& v, const QString& what) const {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != 3) fail(what + " must be a list of 3 numbers");
        Vec3 out;
        for (int i = 0; i < 3; ++i) {
            if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) fail(what + " must be a list of 3 numbers");
            out[i] = a[i].toDouble();
        }
        return out;
    }
    const QString& source() const { return m_source; }

private:
    QString m_source;
};

QJsonArray vec3Json(Vec3 v) { return {v.x, v.y, v.z}; }

/// A float as the double of its shortest decimal form ("0.8", not 0.800000011920929), which reads
/// back as the same float.
double floatJson(float f) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, f).ptr;
    double d = f;
    std::from_chars(text, end, d);
    return d;
}

QJsonObject gridJson(const Geometry& g) {
    return {{"dims", QJsonArray{g.dims[0], g.dims[1], g.dims[2]}},
            {"spacing", vec3Json(g.spacing)},
            {"origin", vec3Json(g.origin)},
            {"directionColumns",
             QJsonArray{vec3Json(g.direction.col[0]), vec3Json(g.direction.col[1]), vec3Json(g.direction.col[2])}}};
}

Geometry readGrid(const Reader& r, const QJsonObject& o) {
    Geometry g;
    const QJsonArray dims = r.array(o, "dims");
    if (dims.size() != 3) r.fail("the grid's 'dims' must be 3 whole numbers");
    for (int a = 0; a < 3; ++a) {
        const double d = dims[a].toDouble(-1);
        if (d != std::floor(d) || d < 1 || d > 1e6) r.fail("the grid's 'dims' must be 3 whole numbers");
        g.dims[std::size_t(a)] = int(d);
    }
    g.spacing = r.vec3(o.value("spacing"), "the grid's 'spacing'");
    if (g.spacing.x <= 0 || g.spacing.y <= 0 || g.spacing.z <= 0) r.fail("the grid's spacing must be positive");
    g.origin = r.vec3(o.value("origin"), "the grid's 'origin'");
    const QJsonArray cols = r.array(o, "directionColumns");
    if (cols.size() != 3) r.fail("the grid's 'directionColumns' must be 3 vectors");
    for (int c = 0; c < 3; ++c) g.direction.col[std::size_t(c)] = r.vec3(cols[c], "a direction column");
    return g;
}

QString colourText(const std::array<std::uint8_t, 3>& rgb) {
    return QString("#%1%2%3")
        .arg(rgb[0], 2, 16, QChar('0'))
        .arg(rgb[1], 2, 16, QChar('0'))
        .arg(rgb[2], 2, 16, QChar('0'));
}

QJsonObject labelTableEntry(const LabelInfo& l) {
    return {{"value", l.value},
            {"name", QString::fromStdString(l.name)},
            {"colour", colourText(l.rgb)},
            {"opacity", floatJson(l.opacity)},
            {"visible", l.visible},
            {"locked", l.locked}};
}

LabelInfo readLabelInfo(const Reader& r, const QJsonValue& v) {
    if (!v.isObject()) r.fail("a label table entry is not an object");
    const QJsonObject o = v.toObject();
    LabelInfo l;
    l.value = std::uint8_t(r.integer(o, "value", -1, 1, 255));
    l.name = r.text(o, "name", QString::fromStdString(LabelTable::defaultName(l.value))).toStdString();
    const QString colour = r.text(o, "colour", colourText(LabelTable::defaultColour(l.value)));
    bool ok = false;
    const uint rgb = colour.mid(1).toUInt(&ok, 16);
    if (!ok || colour.size() != 7 || !colour.startsWith('#') || colour.contains('+') || colour.contains('-'))
        r.fail(QString("label %1: colour '%2' is not #rrggbb").arg(l.value).arg(colour));
    l.rgb = {std::uint8_t(rgb >> 16), std::uint8_t(rgb >> 8), std::uint8_t(rgb)};
    l.opacity = float(r.number(o, "opacity", 1.0));
    if (l.opacity < 0 || l.opacity > 1) r.fail(QString("label %1: opacity must be from 0 to 1").arg(l.value));
    l.visible = r.boolean(o, "visible", true);
    l.locked = r.boolean(o, "locked", false);
    return l;
}

// --- the 3D snake's block: its box, bubbles (centre and radius), domain margin, iterations, smoothing,
// and the depth of the next box and radius of the next bubble.
QJsonObject snake3dJson(const SegmentSettings& s) {
    const Snake3dParams& p = s.request.snake3d;
    QJsonArray bubbles;
    for (std::size_t n = 0; n < s.snake3dSeeds.size(); ++n) {
        const VoxelIndex& c = s.snake3dSeeds[n];
        bubbles.append(QJsonArray{c.i, c.j, c.k, snake3dRadius(p, n)});
    }
    QJsonObject o{{"bubbles", bubbles},
                  {"marginMm", p.marginMm ? QJsonValue(*p.marginMm) : QJsonValue(QJsonValue::Null)},
                  {"iterations", p.iterations},
                  {"smoothing", p.smoothing},
                  {"depth", s.snake3dDepth},
                  {"radiusMm", s.snake3dRadius}};
    if (const auto& b = p.box) o["box"] = QJsonArray{b->lo[0], b->lo[1], b->lo[2], b->hi[0], b->hi[1], b->hi[2]};
    return o;
}

/// Whole numbers of a JSON array: `count` of them or none; `what` names it in the message.
std::vector<int> wholeNumbers(const Reader& r, const QJsonArray& a, int count, const QString& what) {
    std::vector<int> out;
    if (!a.isEmpty() && a.size() != count) r.fail(QString("%1 must be %2 whole numbers").arg(what).arg(count));
    for (const QJsonValue& v : a) {
        const double d = v.toDouble(0.5);
        if (d != std::floor(d) || std::abs(d) > kNoIntLimit) r.fail(QString("%1 must be %2 whole numbers").arg(what).arg(count));
        out.push_back(int(d));
    }
    return out;
}

void readSnake3d(const Reader& r, const QJsonObject& o, SegmentSettings& s) {
    Snake3dParams& p = s.request.snake3d;
    if (const auto b = wholeNumbers(r, r.array(o, "box"), 6, "the 3D snake's 'box'"); !b.empty())
        p.box = VoxelBox{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
    for (const QJsonValue& v : r.array(o, "bubbles")) {
        const QJsonArray a = v.toArray();
        if (a.size() != 4) r.fail("a 3D snake bubble must be i, j, k and a radius in mm");
        const auto c = wholeNumbers(r, QJsonArray{a[0], a[1], a[2]}, 3, "a 3D snake bubble's centre");
        const double radius = a[3].toDouble(-1);
        if (!kSnake3dLimits.radiusMm.allows(radius)) r.fail("a 3D snake bubble's radius must be more than 0 mm");
        s.snake3dSeeds.push_back({c[0], c[1], c[2]});
        p.radiiMm.push_back(radius);
    }
    p.marginMm = r.optionalNumber(o, "marginMm");
    if (p.marginMm && !kSnake3dLimits.marginMm.allows(*p.marginMm)) r.fail("the 3D snake's 'marginMm' must be 0 or more");
    p.iterations = r.integer(o, "iterations", kSnake3dLimits.iterations);
    p.smoothing = r.integer(o, "smoothing", kSnake3dLimits.smoothing);
    s.snake3dDepth = r.integer(o, "depth", kSnake3dDepth);
    s.snake3dRadius = r.bounded(o, "radiusMm", kSnake3dLimits.radiusMm);
}

QJsonObject segmentationJson(const SegmentSettings& s) {
    const SegmentationRequest& q = s.request;
    QJsonArray seeds;
    for (const VoxelIndex& v : q.seeds) seeds.append(QJsonArray{v.i, v.j, v.k});
    const auto optional = [](const std::optional<double>& v) {
        return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
    };
    const auto& fc = q.fuzzyConnectedness;
    const auto& fcm = q.fuzzyCMeans;
    const auto& sn = q.snake;
    return {{"mode", s.mode ? QString(methodName(*s.mode)) : QString()},
            {"backend", s.backend},
            {"stepsPerFrame", s.stepsPerFrame},
            {"seeds", seeds},
            {"regionGrowing", QJsonObject{{"lower", q.regionGrowing.lower},
                                          {"upper", q.regionGrowing.upper},
                                          {"connectivity", q.regionGrowing.connectivity}}},
            {"fuzzyConnectedness", QJsonObject{{"threshold", fc.threshold},
                                               {"objectMean", optional(fc.objectMean)},
                                               {"objectSigma", optional(fc.objectSigma)},
                                               {"diffSigma", optional(fc.diffSigma)},
                                               {"estimateRadius", fc.estimateRadius}}},
            {"fuzzyCMeans", QJsonObject{{"clusters", fcm.clusters},
                                        {"fuzziness", fcm.fuzziness},
                                        {"epsilon", fcm.epsilon},
                                        {"maxIterations", fcm.maxIterations},
                                        {"perVoxel", fcm.perVoxel}}},
            {"snake", QJsonObject{{"slice", sn.slice},
                                  {"rect", QJsonArray{sn.rect[0], sn.rect[1], sn.rect[2], sn.rect[3]}},
                                  {"stepMax", sn.stepMax},
                                  {"minSegment", sn.minSegment},
                                  {"propagate", sn.propagate},
                                  {"domainMarginPercent", s.snakeDomainMargin}}},
            {"snake3d", snake3dJson(s)}};
}

SegmentSettings readSegmentation(const Reader& r, const QJsonObject& o) {
    SegmentSettings s;
    const QString mode = r.text(o, "mode");
    if (!mode.isEmpty()) {
        s.mode = methodFromKey(mode.toStdString());
        if (!s.mode)
            r.fail(QString("unknown segmentation method '%1' (%2)").arg(mode, QString::fromStdString(methodKeyList())));
        // Issue 46's live part (strokes as seeds) is not in the viewer yet: refuse rather than enter a mode without a page.
        else if (*s.mode == Method::GrowCut)
            r.fail("segmentation method 'growcut' has no viewer run yet (lucent segment --method growcut)");
    }
    s.backend = r.text(o, "backend", s.backend);
    if (!backendFromKey(s.backend.toStdString())) r.fail(QString("unknown backend '%1'").arg(s.backend));
    s.stepsPerFrame = r.integer(o, "stepsPerFrame", kStepsPerFrame);
    SegmentationRequest& q = s.request;
    constexpr int kBig = kNoIntLimit;
    for (const QJsonValue& v : r.array(o, "seeds")) {
        const Vec3 p = r.vec3(v, "a seed");
        if (p.x != std::floor(p.x) || p.y != std::floor(p.y) || p.z != std::floor(p.z) || std::abs(p.x) > kBig ||
            std::abs(p.y) > kBig || std::abs(p.z) > kBig)
            r.fail("a seed must be 3 whole voxel indices");
        q.seeds.push_back({int(p.x), int(p.y), int(p.z)});
    }
    // A missing key keeps the request's default (ParameterLimits.h); a present one must be within its limit.
    const QJsonObject rg = r.object(o, "regionGrowing");
    q.regionGrowing.lower = r.number(rg, "lower", q.regionGrowing.lower);
    q.regionGrowing.upper = r.number(rg, "upper", q.regionGrowing.upper);
    q.regionGrowing.connectivity = r.integer(rg, "connectivity", Limit<int>{q.regionGrowing.connectivity, 6, 26});
    if (!RegionGrowingLimits::allowsConnectivity(q.regionGrowing.connectivity)) r.fail("connectivity must be 6 or 26");
    const QJsonObject fc = r.object(o, "fuzzyConnectedness");
    auto& f = q.fuzzyConnectedness;
    f.threshold = r.number(fc, "threshold", f.threshold);
    if (!kFuzzyConnectednessLimits.threshold.allows(f.threshold))
        r.fail("the fuzzy connectedness threshold must be from 0 to 1");
    f.objectMean = r.optionalNumber(fc, "objectMean");
    f.objectSigma = r.optionalNumber(fc, "objectSigma");
    f.diffSigma = r.optionalNumber(fc, "diffSigma");
    f.estimateRadius = r.integer(fc, "estimateRadius", kFuzzyConnectednessLimits.estimateRadius);
    const QJsonObject fcm = r.object(o, "fuzzyCMeans");
    auto& c = q.fuzzyCMeans;
    c.clusters = r.integer(fcm, "clusters", kFuzzyCMeansLimits.clusters);
    c.fuzziness = r.bounded(fcm, "fuzziness", kFuzzyCMeansLimits.fuzziness);
    c.epsilon = r.bounded(fcm, "epsilon", kFuzzyCMeansLimits.epsilon);
    c.maxIterations = r.integer(fcm, "maxIterations", kFuzzyCMeansLimits.maxIterations);
    c.perVoxel = r.boolean(fcm, "perVoxel", c.perVoxel);
    const QJsonObject sn = r.object(o, "snake");
    q.snake.slice = r.integer(sn, "slice", Limit<int>{0, 0, kBig});
    const QJsonArray rect = r.array(sn, "rect");
    if (!rect.isEmpty() && rect.size() != 4) r.fail("the snake's 'rect' must be 4 whole numbers");
    for (int i = 0; i < int(rect.size()); ++i) {
        const double d = rect[i].toDouble(0.5);
        if (d != std::floor(d) || std::abs(d) > kBig) r.fail("the snake's 'rect' must be 4 whole numbers");
        q.snake.rect[std::size_t(i)] = int(d);
    }
    q.snake.stepMax = r.integer(sn, "stepMax", kSnakeLimits.stepMax);
    q.snake.minSegment = r.integer(sn, "minSegment", kSnakeLimits.minSegment);
    q.snake.propagate = r.boolean(sn, "propagate", q.snake.propagate);
    s.snakeDomainMargin = r.integer(sn, "domainMarginPercent", kSnakeDomainMargin);
    readSnake3d(r, r.object(o, "snake3d"), s);
    return s;
}

QJsonObject measurementJson(const Measurement& m) {
    QJsonArray points;
    for (const Vec3& p : m.points) points.append(vec3Json(p));
    // The value is for a reader of the file; loading recomputes it from the points and voxels.
    return {{"kind", measurementKindName(m.kind)},    {"axis", m.axis},   {"slice", m.slice},
            {"view", QString::fromStdString(m.view)}, {"points", points}, {"value", m.value}};
}

Measurement readMeasurement(const Reader& r, const QJsonValue& v, const Geometry& grid) {
    if (!v.isObject()) r.fail("a measurement is not an object");
    const QJsonObject o = v.toObject();
    Measurement m;
    const QString kind = r.text(o, "kind");
    bool known = false;
    for (MeasurementKind k :
         {MeasurementKind::Ruler, MeasurementKind::Angle, MeasurementKind::Ellipse, MeasurementKind::Rectangle})
        if (kind == measurementKindName(k)) m.kind = k, known = true;
    if (!known) r.fail(QString("unknown measurement kind '%1' (ruler, angle, ellipse, rectangle)").arg(kind));
    m.axis = r.integer(o, "axis", 2, 0, 2);
    m.slice = r.integer(o, "slice", 0, 0, grid.dims[std::size_t(m.axis)] - 1);
    m.view = r.text(o, "view").toStdString();
    const QJsonArray points = r.array(o, "points");
    if (int(points.size()) != measurementPointCount(m.kind))
        r.fail(QString("a %1 needs %2 points, the file gives %3")
                   .arg(kind)
                   .arg(measurementPointCount(m.kind))
                   .arg(points.size()));
    for (const QJsonValue& p : points) m.points.push_back(r.vec3(p, "a measurement point"));
    return m;
}

void appendLength(QByteArray& out, std::size_t n) {
    do {
        const auto low = std::uint8_t(n & 0x7f);
        n >>= 7;
        out.append(char(n ? (low | 0x80) : low));
    } while (n);
}

}  // namespace

bool SessionFile::isSessionPath(const QString& path) { return path.endsWith(kSuffix, Qt::CaseInsensitive); }

QString SessionFile::storedDataPath(const QString& dataPath, const QString& sessionPath) {
    const QDir folder = QFileInfo(sessionPath).absoluteDir();
    const QString absolute = QDir::cleanPath(QFileInfo(dataPath).absoluteFilePath());
    const QString relative = folder.relativeFilePath(absolute);
    if (relative.isEmpty()) return ".";
    if (relative == ".." || relative.startsWith("../") || QDir::isAbsolutePath(relative)) return absolute;
    return relative;
}

QString SessionFile::resolveDataPath(const QString& stored, const QString& sessionPath) {
    if (QDir::isAbsolutePath(stored)) return QDir::cleanPath(stored);
    return QDir::cleanPath(QFileInfo(sessionPath).absoluteDir().absoluteFilePath(stored));
}

QByteArray SessionFile::encodeLabels(const LabelMap& labels) {
    QByteArray runs;
    const std::uint8_t* v = labels.data();
    const std::size_t n = labels.voxelCount();
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && v[j] == v[i]) ++j;
        runs.append(char(v[i]));
        appendLength(runs, j - i);
        i = j;
    }
    const std::vector<char> packed = io::gzipBuffer({std::string_view(runs.constData(), std::size_t(runs.size()))});
    return QByteArray(packed.data(), qsizetype(packed.size())).toBase64();
}

LabelMap SessionFile::decodeLabels(const QByteArray& text, const Geometry& grid, const QString& source) {
    const Reader r(source);
    const auto decoded = QByteArray::fromBase64Encoding(text, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded) r.fail("the label voxels are not valid base64");
    LabelMap labels(grid);
    const std::size_t n = labels.voxelCount();
    // Each run takes at least two bytes: more than that cannot be a layer of this grid.
    std::vector<char> runs;
    try {
        runs = io::inflateBuffer(std::string_view(decoded.decoded.constData(), std::size_t(decoded.decoded.size())),
                                 source.toStdString(), 2 * n + 16);
    } catch (const std::exception& e) {
        r.fail(QString("the label voxels are damaged (%1)").arg(e.what()));
    }
    std::uint8_t* out = labels.data();
    std::size_t at = 0, pos = 0;
    while (pos < runs.size()) {
        const auto value = std::uint8_t(runs[pos++]);
        std::size_t length = 0;
        int shift = 0;
        for (;;) {
            if (pos >= runs.size() || shift > 56) r.fail("the label voxels are damaged (a run is cut off)");
            const auto byte = std::uint8_t(runs[pos++]);
            length |= std::size_t(byte & 0x7f) << shift;
            shift += 7;
            if (!(byte & 0x80)) break;
        }
        if (length == 0 || length > n - at)
            r.fail(QString("the label voxels do not fit the grid of %1 voxels").arg(qulonglong(n)));
        std::fill(out + at, out + at + length, value);
        at += length;
    }
    if (at != n) r.fail(QString("the label layer holds %1 voxels, the grid %2").arg(qulonglong(at)).arg(qulonglong(n)));
    return labels;
}

QByteArray SessionFile::toJson(const SavedSession& s, const QString& sessionPath) {
    return toJson(s, sessionPath, s.labels ? &*s.labels : nullptr);
}

QByteArray SessionFile::toJson(const SavedSession& s, const QString& sessionPath, const LabelMap* layer) {
    QJsonArray views;
    for (const SavedView& v : s.views)
        views.append(QJsonObject{{"zoom", v.zoom}, {"pan_mm", QJsonArray{v.panMm[0], v.panMm[1]}}});
    QJsonObject display{{"window", QJsonObject{{"level", s.window.level}, {"width", s.window.width}}},
                        {"preset", s.preset},
                        {"layout", s.layout},
                        {"activeView", s.activeView},
                        {"maximised", s.maximised},
                        {"linearInterpolation", s.linearInterpolation},
                        {"hud", s.hud},
                        {"overlayOpacity", floatJson(s.overlayOpacity)},
                        {"cursorPatient", vec3Json(s.cursorPatient)},
                        {"views", views}};
    if (s.anatomicalPlanes) display.insert("anatomicalPlanes", *s.anatomicalPlanes);
    if (!s.panels.isEmpty()) display.insert("panels", QString::fromLatin1(s.panels.toBase64()));
    QJsonArray table;
    for (const LabelInfo& l : s.labelTable.labels()) table.append(labelTableEntry(l));
    QJsonObject labels{{"table", table}, {"active", s.activeLabel}};
    if (layer) {
        labels.insert("encoding", "rle-gzip-base64");
        labels.insert("voxels", QString::fromLatin1(encodeLabels(*layer)));
    }
    QJsonArray measurements;
    for (const Measurement& m : s.measurements) measurements.append(measurementJson(m));
    const QJsonObject root{{"format", kFormatName},
                           {"version", SavedSession::kFormatVersion},
                           {"writtenBy", QString("Lucent ") + kVersion},
                           {"data", QJsonObject{{"path", storedDataPath(s.dataPath, sessionPath)},
                                                {"series", s.seriesId},
                                                {"frame", s.frame},
                                                {"grid", gridJson(s.grid)}}},
                           {"display", display},
                           {"labels", labels},
                           {"segmentation", segmentationJson(s.segmentation)},
                           {"measurements", measurements}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {

/// The parsed document, once it is a Lucent session of a format version this build reads.
QJsonObject readRoot(const Reader& r, const QByteArray& json) {
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError)
        r.fail(
            QString("not a valid session file (JSON error at byte %1: %2)").arg(parse.offset).arg(parse.errorString()));
    if (!doc.isObject() || doc.object().value("format").toString() != kFormatName) r.fail("not a Lucent session file");
    const QJsonObject root = doc.object();
    const QJsonValue version = root.value("version");
    if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble()) || version.toDouble() < 1)
        r.fail("the session's format version is missing or not a whole number");
    if (version.toDouble() > SavedSession::kFormatVersion)
        r.fail(QString("written by a newer Lucent (session format %1; this Lucent reads format %2 and older)")
                   .arg(version.toDouble())
                   .arg(SavedSession::kFormatVersion));
    return root;
}

/// "data": the path (resolved against the session's folder), series, frame and grid.
void readData(const Reader& r, const QJsonObject& root, const QString& sessionPath, SavedSession& s) {
    const QJsonObject data = r.object(root, "data", true);
    const QString stored = r.text(data, "path");
    if (stored.isEmpty()) r.fail("the session names no data path");
    s.dataPath = SessionFile::resolveDataPath(stored, sessionPath);
    s.seriesId = r.text(data, "series");
    s.frame = r.integer(data, "frame", 0, 0, 1 << 20);
    s.grid = readGrid(r, r.object(data, "grid", true));
}

/// "display": zoom and pan of the three views (or none: the views' defaults).
void readViews(const Reader& r, const QJsonObject& d, SavedSession& s) {
    const QJsonArray views = r.array(d, "views");
    if (!views.isEmpty() && views.size() != 3) r.fail("'views' must hold the axial, coronal and sagittal views");
    for (int i = 0; i < int(views.size()); ++i) {
        const QJsonObject v = views[i].toObject();
        SavedView& out = s.views[std::size_t(i)];
        out.zoom = r.number(v, "zoom", 1.0);
        if (out.zoom <= 0) r.fail("a view's zoom must be positive");
        // "pan_mm" since the pan is kept in mm; an earlier build's "pan" is in device pixels.
        const char* key = v.contains("pan_mm") || !v.contains("pan") ? "pan_mm" : "pan";
        const QJsonArray pan = r.array(v, key);
        if (pan.size() != 2 || !pan[0].isDouble() || !pan[1].isDouble())
            r.fail(QString("a view's '%1' must be 2 numbers").arg(key));
        const std::array<double, 2> values{pan[0].toDouble(), pan[1].toDouble()};
        if (std::strcmp(key, "pan") == 0)
            out.panPixels = values;
        else
            out.panMm = values;
    }
}

/// "display": window, layout, drawing settings, cursor, panels and views.
void readDisplay(const Reader& r, const QJsonObject& root, SavedSession& s) {
    const QJsonObject d = r.object(root, "display");
    const QJsonObject window = r.object(d, "window");
    s.window.level = r.number(window, "level", s.window.level);
    s.window.width = r.number(window, "width", s.window.width);
    if (s.window.width <= 0) r.fail("the window width must be positive");
    s.preset = r.text(d, "preset");
    s.layout = r.text(d, "layout", s.layout);
    if (s.layout != "1x1" && s.layout != "2x2" && s.layout != "1+3")
        r.fail(QString("unknown layout '%1'").arg(s.layout));
    s.activeView = r.text(d, "activeView", s.activeView);
    if (s.activeView != "axial" && s.activeView != "coronal" && s.activeView != "sagittal")
        r.fail(QString("unknown view '%1'").arg(s.activeView));
    s.maximised = r.boolean(d, "maximised", false);
    s.linearInterpolation = r.boolean(d, "linearInterpolation", SavedSession{}.linearInterpolation);
    s.hud = r.boolean(d, "hud", true);
    if (d.contains("anatomicalPlanes")) s.anatomicalPlanes = r.boolean(d, "anatomicalPlanes", false);
    s.overlayOpacity = float(r.number(d, "overlayOpacity", 0.5));
    if (s.overlayOpacity < 0 || s.overlayOpacity > 1) r.fail("the overlay opacity must be from 0 to 1");
    if (d.contains("cursorPatient"))
        s.cursorPatient = r.vec3(d.value("cursorPatient"), "'cursorPatient'");
    else
        s.cursorPatient =
            s.grid.voxelToPatient({(s.grid.dims[0] - 1) / 2.0, (s.grid.dims[1] - 1) / 2.0, (s.grid.dims[2] - 1) / 2.0});
    if (d.contains("panels")) {
        const auto panels =
            QByteArray::fromBase64Encoding(r.text(d, "panels").toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!panels) r.fail("'panels' is not valid base64");
        s.panels = panels.decoded;
    }
    readViews(r, d, s);
}

/// "labels": the table, the active label and the layer (its size checked before decoding).
void readLabels(const Reader& r, const QJsonObject& root, const QString& sessionPath, SavedSession& s) {
    const QJsonObject labels = r.object(root, "labels");
    LabelTable table;
    for (const QJsonValue& v : r.array(labels, "table")) {
        const LabelInfo info = readLabelInfo(r, v);
        if (table.find(info.value)) r.fail(QString("label %1 appears twice in the table").arg(info.value));
        table.set(info);
    }
    s.labelTable = table;
    s.activeLabel = std::uint8_t(r.integer(labels, "active", 1, 1, 255));
    if (labels.contains("voxels")) {
        // The layer takes a byte per voxel: a damaged grid must not ask for more than a volume may.
        try {
            io::imageBytes({s.grid.dims[0], s.grid.dims[1], s.grid.dims[2]}, 1, sessionPath.toStdString());
        } catch (const std::exception& e) {
            r.fail(QString("the grid cannot hold a label layer (%1)").arg(e.what()));
        }
        const QString encoding = r.text(labels, "encoding");
        if (encoding != "rle-gzip-base64") r.fail(QString("unknown label encoding '%1'").arg(encoding));
        s.labels = SessionFile::decodeLabels(r.text(labels, "voxels").toLatin1(), s.grid, sessionPath);
    }
}

}  // namespace

SavedSession SessionFile::fromJson(const QByteArray& json, const QString& sessionPath) {
    const Reader r(sessionPath);
    const QJsonObject root = readRoot(r, json);
    SavedSession s;
    readData(r, root, sessionPath, s);
    readDisplay(r, root, s);
    readLabels(r, root, sessionPath, s);
    s.segmentation = readSegmentation(r, r.object(root, "segmentation"));
    for (const QJsonValue& v : r.array(root, "measurements")) s.measurements.push_back(readMeasurement(r, v, s.grid));
    return s;
}

bool SessionFile::write(const QString& path, const SavedSession& state, QString* error) {
    return write(path, state, state.labels ? &*state.labels : nullptr, error);
}

bool SessionFile::write(const QString& path, const SavedSession& state, const LabelMap* labels, QString* error) {
    try {
        const QByteArray json = toJson(state, path, labels);
        io::writeFileAtomically(path.toStdString(), {std::string_view(json.constData(), std::size_t(json.size()))});
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool SessionFile::read(const QString& path, SavedSession& state, QString* error) {
    try {
        const std::vector<char> bytes = io::readFile(path.toStdString());
        state = fromJson(QByteArray(bytes.data(), qsizetype(bytes.size())), path);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace lucent::ui
