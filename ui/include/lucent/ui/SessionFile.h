/// @brief The session file (.lucent): one small JSON file next to the data holding a SavedSession,
/// with the label voxels run-length coded and deflated; written atomically, read with a message
/// naming the file and the problem for anything it cannot use.
#pragma once

#include "lucent/ui/SavedSession.h"

#include <QByteArray>
#include <QString>

namespace lucent::ui {

class SessionFile {
public:
    /// The file name suffix of sessions.
    static constexpr const char* kSuffix = ".lucent";
    static bool isSessionPath(const QString& path);

    /// Writes `state` to `path` through a temporary beside it and a rename: no partial file on
    /// failure, and the old session stays until the new one is complete. False with `error`
    /// ("PATH: problem") on failure.
    static bool write(const QString& path, const SavedSession& state, QString* error = nullptr);
    /// The same with the label voxels of `labels` (none when null) instead of state.labels: a layer
    /// shared with its owner, not copied into the session.
    static bool write(const QString& path, const SavedSession& state, const LabelMap* labels, QString* error);
    /// Reads `path`; false with `error` naming the file and the problem (missing, not JSON, not a
    /// session, a newer format, a damaged label layer); `state` is untouched then.
    static bool read(const QString& path, SavedSession& state, QString* error = nullptr);

    /// The JSON text of `state` as saved at `sessionPath` (its data path made relative to it).
    static QByteArray toJson(const SavedSession& state, const QString& sessionPath);
    /// The same with the label voxels of `labels` (none when null) instead of state.labels.
    static QByteArray toJson(const SavedSession& state, const QString& sessionPath, const LabelMap* labels);
    /// Parses the JSON of a session saved at `sessionPath`; throws IoError naming it.
    static SavedSession fromJson(const QByteArray& json, const QString& sessionPath);

    /// The data path as stored: relative to the session's folder when the data lies in that
    /// folder or below it, absolute otherwise.
    static QString storedDataPath(const QString& dataPath, const QString& sessionPath);
    /// The absolute data path of a stored one (relative ones are taken from the session's folder).
    static QString resolveDataPath(const QString& stored, const QString& sessionPath);

    /// Label voxels as runs (value byte, LEB128 length), deflated, in base64: a few regions on a
    /// large grid take a few kilobytes.
    static QByteArray encodeLabels(const LabelMap& labels);
    /// The inverse on `grid`; throws IoError naming `source` when the text is damaged or does not
    /// hold exactly the grid's voxel count.
    static LabelMap decodeLabels(const QByteArray& text, const Geometry& grid, const QString& source);
};

}  // namespace lucent::ui
