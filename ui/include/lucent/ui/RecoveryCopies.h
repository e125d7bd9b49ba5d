/// @brief The recovery copies a Lucent process left when it did not close normally: found in the
/// state folder by their free lock, described (what, when, which data) and removed.
#pragma once

#include <QDateTime>
#include <QString>

#include <cstddef>
#include <memory>
#include <vector>

class QLockFile;

namespace lucent::ui {

struct RecoveryCopy {
    QString path;
    QDateTime written;
    QString dataPath;
    std::size_t labelledVoxels = 0;
    std::size_t labels = 0;
    std::size_t measurements = 0;
    /// Held by this process: no other starting process offers the same copy.
    std::shared_ptr<QLockFile> lock;

    /// "Labels (3 labels, 41 210 voxels) and 2 measurements on /data/head.nii.gz, saved 2026-11-26 14:02".
    QString describe() const;
    /// Whether restoring it brings back anything a user made: a labelled voxel or a measurement.
    /// A copy of nothing (a crash mid-run before any accept, labels all erased again) does not; a
    /// damaged copy does, so that the user hears of it.
    bool holdsWork() const;
};

class RecoveryCopies {
public:
    /// The copies in `folder` whose writer is gone (its lock is free or stale), newest first, each
    /// locked for this process. A copy that cannot be read is listed with an empty dataPath. Copies
    /// that hold no work (RecoveryCopy::holdsWork) are removed, not listed.
    static std::vector<RecoveryCopy> orphaned(const QString& folder);
    /// Removes the copy `path` and any temporary its writer left beside it (a kill mid-write);
    /// the lock stays with whoever holds it.
    static void remove(const QString& path);
};

}  // namespace lucent::ui
