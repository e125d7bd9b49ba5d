/// @brief Session file: JSON layout, relative data paths, run-length label voxels, atomic write.
#include "lucent/ui/SessionFile.h"

#include "SessionReader.h"
#include "SessionRecords.h"
#include "SessionSegmentation.h"

#include "lucent/core/Errors.h"
#include "lucent/core/Version.h"
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

using namespace session;

namespace {

constexpr const char* kFormatName = "lucent-session";

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
