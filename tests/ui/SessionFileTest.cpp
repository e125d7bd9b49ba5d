/// @brief The session file format without a window: every field through JSON and back exactly, the
/// label voxels' run-length coding (size and damage), relative and absolute data paths, the
/// version check, corrupt files, and the atomic write that keeps the old file.
#include "TempDir.h"
#include "lucent/core/Errors.h"
#include "lucent/ui/SessionFile.h"

#include <gtest/gtest.h>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace lucent;
using namespace lucent::ui;

namespace {

Geometry obliqueGrid() {
    Geometry g;
    g.dims = {37, 23, 11};
    g.spacing = {0.7, 1.3, 2.5};
    g.origin = {-101.25, 33.125, -7.0625};
    const double c = std::cos(0.2), s = std::sin(0.2);
    g.direction = Mat3::fromColumns({c, s, 0}, {-s, c, 0}, {0, 0, 1});
    return g;
}

/// A layer with a box of label 2, a ball of label 7 and a scattered voxel of 255.
LabelMap regions(const Geometry& g) {
    LabelMap m(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (i >= 3 && i < 12 && j >= 4 && j < 9 && k >= 2 && k < 6) m.at(i, j, k) = 2;
                if ((i - 25) * (i - 25) + (j - 12) * (j - 12) + 4 * (k - 5) * (k - 5) <= 30) m.at(i, j, k) = 7;
            }
    m.at(36, 22, 10) = 255;
    return m;
}

/// Every field away from its default, with numbers that a lossy writer would round.
SavedSession fullSession(const QString& dataPath) {
    SavedSession s;
    s.dataPath = dataPath;
    s.seriesId = "1.2.840.113619.2.55.3#2";
    s.grid = obliqueGrid();
    s.frame = 3;
    s.window = {41.123456789012345, 87.0000000001};
    s.preset = "brain";
    s.layout = "1+3";
    s.activeView = "sagittal";
    s.maximised = true;
    s.linearInterpolation = true;
    s.hud = false;
    s.anatomicalPlanes = true;
    s.overlayOpacity = 0.37f;
    s.cursorPatient = {-12.345678901234, 0.1, 1e-7};
    s.views[0] = {1.7320508075688772, {13.25, -7.5}, std::nullopt};
    s.views[2] = {0.5, {-1.0 / 3.0, 2.0 / 3.0}, std::nullopt};
    s.panels = QByteArray("\x00\x01\xff state", 10);
    s.labels = regions(s.grid);
    LabelTable table;
    table.set({2, "Liver, \"left\" lobe", {10, 200, 30}, 0.6f, true, false});
    table.set({7, "Läsion", {255, 0, 128}, 1.0f, false, true});
    table.set({255, "", {0, 0, 0}, 0.0f, true, false});
    s.labelTable = table;
    s.activeLabel = 7;
    s.segmentation.mode = Method::FuzzyConnectedness;
    s.segmentation.backend = "cpu";
    s.segmentation.stepsPerFrame = 17;
    auto& q = s.segmentation.request;
    q.seeds = {{1, 2, 3}, {30, 20, 10}};
    q.regionGrowing = {-120.5, 340.25, 26};
    q.fuzzyConnectedness.threshold = 0.731;
    q.fuzzyConnectedness.objectMean = 42.5;
    q.fuzzyConnectedness.diffSigma = 3.25;
    q.fuzzyConnectedness.estimateRadius = 4;
    q.fuzzyCMeans = {5, 1.75, 0.0125, 77, true};
    q.snake.slice = 6;
    q.snake.rect = {2, 3, 20, 19};
    q.snake.stepMax = 16;
    q.snake.minSegment = 5;
    q.snake.propagate = true;
    Measurement ruler;
    ruler.kind = MeasurementKind::Ruler;
    ruler.axis = 2;
    ruler.slice = 4;
    ruler.view = "axial";
    ruler.points = {{1.5, -2.25, 3.0}, {10.0 / 3.0, 4, 5}};
    Measurement angle = ruler;
    angle.kind = MeasurementKind::Angle;
    angle.axis = 0;
    angle.slice = 36;
    angle.view = "sagittal";
    angle.points = {{0, 0, 0}, {1, 1, 1}, {2, 0, 1}};
    Measurement ellipse = ruler;
    ellipse.kind = MeasurementKind::Ellipse;
    ellipse.axis = 1;
    ellipse.slice = 0;
    s.measurements = {ruler, angle, ellipse};
    return s;
}

void expectSameGrid(const Geometry& a, const Geometry& b) {
    EXPECT_EQ(a.dims, b.dims);
    EXPECT_EQ(a.spacing, b.spacing);
    EXPECT_EQ(a.origin, b.origin);
    EXPECT_EQ(a.direction, b.direction);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return f.readAll();
}

void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

/// The file with one field of its JSON replaced.
QByteArray withField(const QByteArray& json, const QString& object, const QString& key, const QJsonValue& value) {
    QJsonObject root = QJsonDocument::fromJson(json).object();
    if (object.isEmpty()) {
        root.insert(key, value);
    } else {
        QJsonObject o = root.value(object).toObject();
        o.insert(key, value);
        root.insert(object, o);
    }
    return QJsonDocument(root).toJson();
}

std::string readError(const QString& path) {
    SavedSession s;
    s.frame = 99;
    QString error;
    EXPECT_FALSE(SessionFile::read(path, s, &error));
    EXPECT_EQ(s.frame, 99) << "a failed read leaves the state alone";
    EXPECT_TRUE(error.contains(path)) << "the message names the file: " << error.toStdString();
    return error.toStdString();
}

}  // namespace

TEST(SessionFile, EveryFieldRoundTripsExactly) {
    lucent::testing::TempDir dir;
    const QString session = QString::fromStdString(dir.file("case.lucent"));
    const SavedSession a = fullSession(QString::fromStdString(dir.file("data/head.nii.gz")));
    QString error;
    ASSERT_TRUE(SessionFile::write(session, a, &error)) << error.toStdString();
    SavedSession b;
    ASSERT_TRUE(SessionFile::read(session, b, &error)) << error.toStdString();

    EXPECT_EQ(b.dataPath, a.dataPath);
    EXPECT_EQ(b.seriesId, a.seriesId);
    expectSameGrid(b.grid, a.grid);
    EXPECT_EQ(b.frame, 3);
    EXPECT_EQ(b.window.level, a.window.level);  // exactly: the shortest round-trip form
    EXPECT_EQ(b.window.width, a.window.width);
    EXPECT_EQ(b.preset, "brain");
    EXPECT_EQ(b.layout, "1+3");
    EXPECT_EQ(b.activeView, "sagittal");
    EXPECT_TRUE(b.maximised);
    EXPECT_TRUE(b.linearInterpolation);
    EXPECT_FALSE(b.hud);
    ASSERT_TRUE(b.anatomicalPlanes.has_value());
    EXPECT_TRUE(*b.anatomicalPlanes);
    EXPECT_EQ(b.overlayOpacity, a.overlayOpacity);
    EXPECT_TRUE(readAll(session).contains("\"overlayOpacity\": 0.37,")) << "floats in their short form";
    EXPECT_EQ(b.cursorPatient, a.cursorPatient);
    for (std::size_t v = 0; v < 3; ++v) {
        EXPECT_EQ(b.views[v].zoom, a.views[v].zoom);
        EXPECT_EQ(b.views[v].panMm, a.views[v].panMm);
        EXPECT_FALSE(b.views[v].panPixels);
    }
    EXPECT_EQ(b.panels, a.panels);

    ASSERT_TRUE(b.labels.has_value());
    expectSameGrid(b.labels->geometry(), a.grid);
    ASSERT_EQ(b.labels->voxelCount(), a.labels->voxelCount());
    EXPECT_EQ(std::memcmp(b.labels->data(), a.labels->data(), a.labels->voxelCount()), 0) << "voxel for voxel";
    ASSERT_EQ(b.labelTable.labels().size(), 3u);
    for (const LabelInfo& l : a.labelTable.labels()) {
        const LabelInfo* r = b.labelTable.find(l.value);
        ASSERT_NE(r, nullptr) << int(l.value);
        EXPECT_EQ(r->name, l.name);
        EXPECT_EQ(r->rgb, l.rgb);
        EXPECT_EQ(r->opacity, l.opacity);
        EXPECT_EQ(r->visible, l.visible);
        EXPECT_EQ(r->locked, l.locked);
    }
    EXPECT_EQ(b.activeLabel, 7);

    const SegmentSettings& sa = a.segmentation;
    const SegmentSettings& sb = b.segmentation;
    EXPECT_EQ(sb.mode, sa.mode);
    EXPECT_EQ(sb.backend, "cpu");
    EXPECT_EQ(sb.stepsPerFrame, 17);
    EXPECT_EQ(sb.request.seeds, sa.request.seeds);
    EXPECT_EQ(sb.request.regionGrowing.lower, -120.5);
    EXPECT_EQ(sb.request.regionGrowing.upper, 340.25);
    EXPECT_EQ(sb.request.regionGrowing.connectivity, 26);
    const auto& fa = sa.request.fuzzyConnectedness;
    const auto& fb = sb.request.fuzzyConnectedness;
    EXPECT_EQ(fb.threshold, fa.threshold);
    EXPECT_EQ(fb.objectMean, fa.objectMean);
    EXPECT_FALSE(fb.objectSigma.has_value()) << "an estimate left to the seeds stays absent";
    EXPECT_EQ(fb.diffSigma, fa.diffSigma);
    EXPECT_EQ(fb.estimateRadius, 4);
    const auto& ca = sa.request.fuzzyCMeans;
    const auto& cb = sb.request.fuzzyCMeans;
    EXPECT_EQ(cb.clusters, ca.clusters);
    EXPECT_EQ(cb.fuzziness, ca.fuzziness);
    EXPECT_EQ(cb.epsilon, ca.epsilon);
    EXPECT_EQ(cb.maxIterations, ca.maxIterations);
    EXPECT_EQ(cb.perVoxel, ca.perVoxel);
    EXPECT_EQ(sb.request.snake.slice, 6);
    EXPECT_EQ(sb.request.snake.rect, sa.request.snake.rect);
    EXPECT_EQ(sb.request.snake.stepMax, 16);
    EXPECT_EQ(sb.request.snake.minSegment, 5);
    EXPECT_TRUE(sb.request.snake.propagate);

    ASSERT_EQ(b.measurements.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(b.measurements[i].kind, a.measurements[i].kind);
        EXPECT_EQ(b.measurements[i].axis, a.measurements[i].axis);
        EXPECT_EQ(b.measurements[i].slice, a.measurements[i].slice);
        EXPECT_EQ(b.measurements[i].view, a.measurements[i].view);
        EXPECT_EQ(b.measurements[i].points, a.measurements[i].points);
    }
}

TEST(SessionFile, DefaultsRoundTripAndNoLabelsMeansNone) {
    lucent::testing::TempDir dir;
    const QString session = QString::fromStdString(dir.file("plain.lucent"));
    SavedSession a;
    a.dataPath = QString::fromStdString(dir.file("x.mha"));
    a.grid = obliqueGrid();
    ASSERT_TRUE(SessionFile::write(session, a));
    SavedSession b;
    ASSERT_TRUE(SessionFile::read(session, b));
    EXPECT_FALSE(b.labels.has_value());
    EXPECT_FALSE(b.segmentation.mode.has_value());
    EXPECT_FALSE(b.anatomicalPlanes.has_value());
    EXPECT_TRUE(b.measurements.empty());
    EXPECT_EQ(b.layout, "2x2");
    EXPECT_TRUE(b.hud);
}

TEST(SessionFile, LabelsRunLengthCodedStaySmall) {
    // 256 x 256 x 108 (the real CT head's grid): 7 MB of voxels, two regions.
    Geometry g;
    g.dims = {256, 256, 108};
    LabelMap m(g);
    for (int k = 20; k < 80; ++k)
        for (int j = 0; j < 256; ++j)
            for (int i = 0; i < 256; ++i) {
                if ((i - 100) * (i - 100) + (j - 120) * (j - 120) + (k - 50) * (k - 50) < 900) m.at(i, j, k) = 1;
                if (i > 180 && i < 220 && j > 30 && j < 90) m.at(i, j, k) = 3;
            }
    const QByteArray text = SessionFile::encodeLabels(m);
    EXPECT_LT(text.size(), 20000) << "one small file: " << text.size() << " bytes";
    const LabelMap back = SessionFile::decodeLabels(text, g, "x.lucent");
    EXPECT_EQ(std::memcmp(back.data(), m.data(), m.voxelCount()), 0);

    // The worst case, every voxel its own run (values 0..255 cycling), also comes back.
    Geometry small;
    small.dims = {31, 17, 5};
    LabelMap noisy(small);
    for (std::size_t i = 0; i < noisy.voxelCount(); ++i) noisy[i] = std::uint8_t((i * 7919) % 256);
    const LabelMap noisyBack = SessionFile::decodeLabels(SessionFile::encodeLabels(noisy), small, "x.lucent");
    EXPECT_EQ(std::memcmp(noisyBack.data(), noisy.data(), noisy.voxelCount()), 0);

    // Runs longer than 2^21 voxels need a 4-byte length: an empty 512 x 512 x 40 layer.
    Geometry big;
    big.dims = {512, 512, 40};
    LabelMap empty(big);
    empty[empty.voxelCount() - 1] = 9;
    const LabelMap emptyBack = SessionFile::decodeLabels(SessionFile::encodeLabels(empty), big, "x.lucent");
    EXPECT_EQ(emptyBack.count(0), empty.voxelCount() - 1);
    EXPECT_EQ(emptyBack[empty.voxelCount() - 1], 9);
}

TEST(SessionFile, DamagedLabelsAreRefusedNamingTheFile) {
    const Geometry g = obliqueGrid();
    const QByteArray text = SessionFile::encodeLabels(regions(g));
    Geometry other = g;
    other.dims[2] = 10;
    const auto refused = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const IoError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(refused([&] { SessionFile::decodeLabels(text, other, "s.lucent"); }).find("s.lucent"), std::string::npos)
        << "a layer of another voxel count";
    Geometry larger = g;
    larger.dims[0] = 38;
    EXPECT_NE(refused([&] { SessionFile::decodeLabels(text, larger, "s.lucent"); }).find("voxels"), std::string::npos);
    EXPECT_NE(refused([&] { SessionFile::decodeLabels("not base64 !!", g, "s.lucent"); }).find("base64"),
              std::string::npos);
    EXPECT_NE(
        refused([&] { SessionFile::decodeLabels(QByteArray("garbage!").toBase64(), g, "s.lucent"); }).find("damaged"),
        std::string::npos);
    const QByteArray cut = QByteArray::fromBase64(text).left(QByteArray::fromBase64(text).size() / 2).toBase64();
    EXPECT_FALSE(refused([&] { SessionFile::decodeLabels(cut, g, "s.lucent"); }).empty()) << "a stream cut in half";
}

TEST(SessionFile, DataPathsRelativeUnderTheSessionFolderElseAbsolute) {
    EXPECT_EQ(SessionFile::storedDataPath("/a/b/c/d.nii", "/a/b/s.lucent"), "c/d.nii");
    EXPECT_EQ(SessionFile::storedDataPath("/a/b/brain", "/a/b/brain.lucent"), "brain");
    EXPECT_EQ(SessionFile::storedDataPath("/a/b", "/a/b/s.lucent"), ".");
    EXPECT_EQ(SessionFile::storedDataPath("/a/x.nii", "/a/b/s.lucent"), "/a/x.nii");
    EXPECT_EQ(SessionFile::storedDataPath("/elsewhere/y", "/a/b/s.lucent"), "/elsewhere/y");
    EXPECT_EQ(SessionFile::storedDataPath("/a/bc/y", "/a/b/s.lucent"), "/a/bc/y") << "a sibling with a common prefix";
    EXPECT_EQ(SessionFile::resolveDataPath("c/d.nii", "/a/b/s.lucent"), "/a/b/c/d.nii");
    EXPECT_EQ(SessionFile::resolveDataPath(".", "/a/b/s.lucent"), "/a/b");
    EXPECT_EQ(SessionFile::resolveDataPath("/a/x.nii", "/q/s.lucent"), "/a/x.nii");

    // In the file: relative, so the folder may move as a whole; the data outside stays absolute.
    lucent::testing::TempDir dir;
    const QString session = QString::fromStdString(dir.file("s.lucent"));
    SavedSession s;
    s.grid = obliqueGrid();
    s.dataPath = QString::fromStdString(dir.file("data/ct.nii.gz"));
    ASSERT_TRUE(SessionFile::write(session, s));
    EXPECT_EQ(QJsonDocument::fromJson(readAll(session)).object().value("data").toObject().value("path").toString(),
              "data/ct.nii.gz");
    const QString moved = QString::fromStdString(dir.file("moved"));
    QDir().mkpath(moved);
    ASSERT_TRUE(QFile::copy(session, moved + "/s.lucent"));
    SavedSession back;
    ASSERT_TRUE(SessionFile::read(moved + "/s.lucent", back));
    EXPECT_EQ(back.dataPath, moved + "/data/ct.nii.gz");
    s.dataPath = "/srv/pacs/series-7";
    ASSERT_TRUE(SessionFile::write(session, s));
    ASSERT_TRUE(SessionFile::read(session, back));
    EXPECT_EQ(back.dataPath, "/srv/pacs/series-7");
}

TEST(SessionFile, AnEarlierBuildsPanInPixelsIsReadAsSuch) {
    // Sessions written before the pan was kept in mm hold "pan" in device pixels: read as pixels.
    lucent::testing::TempDir dir;
    const QString path = QString::fromStdString(dir.file("old.lucent"));
    ASSERT_TRUE(SessionFile::write(path, fullSession(QString::fromStdString(dir.file("d.nii")))));
    QJsonObject root = QJsonDocument::fromJson(readAll(path)).object();
    QJsonObject display = root.value("display").toObject();
    QJsonArray views = display.value("views").toArray();
    QJsonObject axial = views[0].toObject();
    ASSERT_TRUE(axial.contains("pan_mm"));
    axial.remove("pan_mm");
    axial.insert("pan", QJsonArray{40, -12.5});
    views[0] = axial;
    display.insert("views", views);
    root.insert("display", display);
    writeAll(path, QJsonDocument(root).toJson());
    SavedSession s;
    QString error;
    ASSERT_TRUE(SessionFile::read(path, s, &error)) << error.toStdString();
    ASSERT_TRUE(s.views[0].panPixels);
    EXPECT_EQ(*s.views[0].panPixels, (std::array<double, 2>{40, -12.5}));
    EXPECT_FALSE(s.views[2].panPixels);
    EXPECT_EQ(s.views[2].panMm, (std::array<double, 2>{-1.0 / 3.0, 2.0 / 3.0}));
    axial.insert("pan", QJsonArray{"left", 3});
    views[0] = axial;
    display.insert("views", views);
    root.insert("display", display);
    writeAll(path, QJsonDocument(root).toJson());
    EXPECT_NE(readError(path).find("'pan' must be 2 numbers"), std::string::npos);
}

TEST(SessionFile, NewerVersionsAndCorruptFilesAreRefused) {
    lucent::testing::TempDir dir;
    const QString path = QString::fromStdString(dir.file("s.lucent"));
    ASSERT_TRUE(SessionFile::write(path, fullSession(QString::fromStdString(dir.file("d.nii")))));
    const QByteArray good = readAll(path);
    EXPECT_EQ(QJsonDocument::fromJson(good).object().value("version").toInt(), SavedSession::kFormatVersion);

    writeAll(path, withField(good, {}, "version", SavedSession::kFormatVersion + 1));
    const std::string newer = readError(path);
    EXPECT_NE(newer.find("newer Lucent"), std::string::npos) << newer;
    writeAll(path, withField(good, {}, "version", "one"));
    EXPECT_NE(readError(path).find("version"), std::string::npos);
    writeAll(path, withField(good, {}, "format", "something-else"));
    EXPECT_NE(readError(path).find("not a Lucent session"), std::string::npos);
    writeAll(path, good.left(good.size() / 2));
    EXPECT_NE(readError(path).find("JSON error"), std::string::npos) << "a file cut in half";
    writeAll(path, QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11));
    EXPECT_NE(readError(path).find("JSON error"), std::string::npos);
    writeAll(path, withField(good, "display", "layout", "3x3"));
    EXPECT_NE(readError(path).find("layout"), std::string::npos);
    writeAll(path, withField(good, "labels", "voxels", "AAAA"));
    EXPECT_NE(readError(path).find("damaged"), std::string::npos);
    writeAll(path, withField(good, "data", "path", ""));
    EXPECT_NE(readError(path).find("no data path"), std::string::npos);

    // A measurement with the wrong number of points for its kind.
    QJsonObject root = QJsonDocument::fromJson(good).object();
    QJsonArray ms = root.value("measurements").toArray();
    QJsonObject m = ms[0].toObject();
    m.insert("points", QJsonArray{QJsonArray{1, 2, 3}});
    ms[0] = m;
    root.insert("measurements", ms);
    writeAll(path, QJsonDocument(root).toJson());
    EXPECT_NE(readError(path).find("needs 2 points"), std::string::npos);

    std::filesystem::remove(path.toStdString());
    EXPECT_NE(readError(path).find("no such file"), std::string::npos);
}

TEST(SessionFile, AFailedWriteKeepsTheOldFileAndLeavesNothing) {
    lucent::testing::TempDir dir;
    const SavedSession s = fullSession(QString::fromStdString(dir.file("d.nii")));
    QString error;
    EXPECT_FALSE(SessionFile::write(QString::fromStdString(dir.file("no/such/folder/s.lucent")), s, &error));
    EXPECT_TRUE(error.contains("s.lucent")) << error.toStdString();

    // The target is a folder holding a file: the rename fails and the folder and its file stay.
    const std::string blocked = dir.file("blocked.lucent");
    std::filesystem::create_directories(blocked);
    std::ofstream(blocked + "/keep.txt") << "kept";
    EXPECT_FALSE(SessionFile::write(QString::fromStdString(blocked), s, &error));
    EXPECT_TRUE(std::filesystem::exists(blocked + "/keep.txt"));
    std::size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        entries += e.path().filename() != "blocked.lucent";
    EXPECT_EQ(entries, 0u) << "no temporary left beside it";

    // A good write replaces the old session whole.
    const QString path = QString::fromStdString(dir.file("s.lucent"));
    writeAll(path, "old");
    ASSERT_TRUE(SessionFile::write(path, s, &error)) << error.toStdString();
    SavedSession back;
    EXPECT_TRUE(SessionFile::read(path, back));
}

namespace {

/// The file with segmentation.<block>.<key> set, or the whole block removed when `value` is undefined.
QByteArray withParameter(const QByteArray& json, const QString& block, const QString& key, const QJsonValue& value) {
    QJsonObject root = QJsonDocument::fromJson(json).object();
    QJsonObject seg = root.value("segmentation").toObject();
    QJsonObject o = seg.value(block).toObject();
    if (value.isUndefined()) {
        seg.remove(block);
    } else {
        o.insert(key, value);
        seg.insert(block, o);
    }
    root.insert("segmentation", seg);
    return QJsonDocument(root).toJson();
}

}  // namespace

TEST(SessionFile, MissingParametersTakeTheDeclaredDefaultsOutOfLimitsAreRefused) {
    lucent::testing::TempDir dir;
    const QString path = QString::fromStdString(dir.file("limits.lucent"));
    ASSERT_TRUE(SessionFile::write(path, fullSession(QString::fromStdString(dir.file("d.nii")))));
    const QByteArray full = readAll(path);
    QByteArray bare = full;
    for (const char* block : {"fuzzyConnectedness", "fuzzyCMeans", "snake"})
        bare = withParameter(bare, block, {}, QJsonValue::Undefined);
    writeAll(path, bare);
    SavedSession s;
    QString error;
    ASSERT_TRUE(SessionFile::read(path, s, &error)) << error.toStdString();
    const SegmentationRequest& q = s.segmentation.request;
    EXPECT_EQ(q.fuzzyConnectedness.threshold, kFuzzyConnectednessLimits.threshold.byDefault);
    EXPECT_EQ(q.fuzzyConnectedness.estimateRadius, kFuzzyConnectednessLimits.estimateRadius.byDefault);
    EXPECT_EQ(q.fuzzyCMeans.clusters, kFuzzyCMeansLimits.clusters.byDefault);
    EXPECT_EQ(q.fuzzyCMeans.fuzziness, kFuzzyCMeansLimits.fuzziness.byDefault);
    EXPECT_EQ(q.fuzzyCMeans.epsilon, kFuzzyCMeansLimits.epsilon.byDefault);
    EXPECT_EQ(q.fuzzyCMeans.maxIterations, kFuzzyCMeansLimits.maxIterations.byDefault);
    EXPECT_EQ(q.snake.stepMax, kSnakeLimits.stepMax.byDefault);
    EXPECT_EQ(q.snake.minSegment, kSnakeLimits.minSegment.byDefault);

    // At a limit: read; just outside: refused, naming the key.
    const auto& fc = kFuzzyConnectednessLimits;
    const auto& fcm = kFuzzyCMeansLimits;
    const struct {
        const char *block, *key;
        double at, outside;
    } cases[] = {{"fuzzyConnectedness", "threshold", fc.threshold.max, std::nextafter(fc.threshold.max, 2.0)},
                 {"fuzzyConnectedness", "estimateRadius", double(fc.estimateRadius.max), fc.estimateRadius.max + 1.0},
                 {"fuzzyCMeans", "clusters", double(fcm.clusters.min), fcm.clusters.min - 1.0},
                 {"fuzzyCMeans", "fuzziness", std::nextafter(fcm.fuzziness.min, 2.0), fcm.fuzziness.min},
                 {"fuzzyCMeans", "epsilon", std::nextafter(fcm.epsilon.min, 1.0), fcm.epsilon.min},
                 {"fuzzyCMeans", "maxIterations", double(fcm.maxIterations.max), fcm.maxIterations.max + 1.0},
                 {"snake", "stepMax", double(kSnakeLimits.stepMax.min), kSnakeLimits.stepMax.min - 1.0},
                 {"snake", "minSegment", double(kSnakeLimits.minSegment.min), kSnakeLimits.minSegment.min - 1.0}};
    for (const auto& c : cases) {
        writeAll(path, withParameter(full, c.block, c.key, c.at));
        EXPECT_TRUE(SessionFile::read(path, s, &error)) << c.key << ": " << error.toStdString();
        writeAll(path, withParameter(full, c.block, c.key, c.outside));
        EXPECT_NE(readError(path).find(c.key), std::string::npos) << c.key;
    }
}
