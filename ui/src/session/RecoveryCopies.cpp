/// @brief Finding, describing and removing the recovery copies of processes that are gone.
#include "lucent/ui/RecoveryCopies.h"

#include "lucent/ui/SessionFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QLockFile>

#include <algorithm>

namespace lucent::ui {

QString RecoveryCopy::describe() const {
    if (dataPath.isEmpty()) return QString("A damaged recovery copy %1, saved %2").arg(path, written.toString("yyyy-MM-dd HH:mm"));
    const QLocale c = QLocale::c();
    return QString("Labels (%1 label(s), %2 voxels) and %3 measurement(s) on %4, saved %5")
        .arg(labels)
        .arg(c.toString(qulonglong(labelledVoxels)))
        .arg(measurements)
        .arg(dataPath, written.toString("yyyy-MM-dd HH:mm:ss"));
}

bool RecoveryCopy::holdsWork() const { return dataPath.isEmpty() || labelledVoxels > 0 || measurements > 0; }

std::vector<RecoveryCopy> RecoveryCopies::orphaned(const QString& folder) {
    std::vector<RecoveryCopy> out;
    const QDir dir(folder);
    for (const QFileInfo& file : dir.entryInfoList({QString("lucent-*") + SessionFile::kSuffix}, QDir::Files)) {
        auto lock = std::make_shared<QLockFile>(file.absoluteFilePath() + ".lock");
        lock->setStaleLockTime(0);  // its owner is alive however long it has run
        if (!lock->tryLock(0)) continue;  // a live process (this one included) writes it
        RecoveryCopy copy;
        copy.path = file.absoluteFilePath();
        copy.written = file.lastModified();
        copy.lock = std::move(lock);
        SavedSession state;
        if (SessionFile::read(copy.path, state)) {
            copy.dataPath = state.dataPath;
            copy.measurements = state.measurements.size();
            copy.labels = state.labelTable.labels().size();
            if (state.labels)
                copy.labelledVoxels = std::size_t(std::count_if(state.labels->data(), state.labels->data() + state.labels->voxelCount(),
                                                                [](std::uint8_t v) { return v != 0; }));
        }
        // Its writer was modified while nothing of the user's was in it (a run not yet accepted,
        // seeds): the copy is dropped here, so that every later start need not ask about it.
        if (!copy.holdsWork()) {
            remove(copy.path);
            continue;  // the lock goes with `copy`, and its file with it
        }
        out.push_back(std::move(copy));
    }
    std::sort(out.begin(), out.end(), [](const RecoveryCopy& a, const RecoveryCopy& b) { return a.written > b.written; });
    return out;
}

void RecoveryCopies::remove(const QString& path) {
    const QFileInfo file(path);
    for (const QString& partial : file.dir().entryList({file.fileName() + ".partial-*"}, QDir::Files))
        QFile::remove(file.dir().filePath(partial));
    QFile::remove(path);
}

}  // namespace lucent::ui
