/// @brief The recording's target, names, ffmpeg arguments and frame steps, as plain rules.
#include "lucent/ui/RecordingPlan.h"

#include <QDir>
#include <QStandardPaths>

#include <algorithm>
#include <stdexcept>

namespace lucent::ui {

RecordingPlan::RecordingPlan(const QString& path, int fps, bool ffmpegFound) : m_target(path), m_fps(fps) {
    if (path.isEmpty()) throw std::invalid_argument("the recording needs a file (.mp4) or a folder");
    if (fps < kMinFps || fps > kMaxFps)
        throw std::invalid_argument("the frame rate must be " + fpsRange().toStdString());
    if (!path.endsWith(".mp4", Qt::CaseInsensitive)) return;
    if (ffmpegFound) {
        m_mp4 = true;
        return;
    }
    m_target = path.left(path.size() - 4);
    m_notice = QString("ffmpeg is not installed; writing numbered PNGs to %1/ instead of %2").arg(m_target, path);
}

bool RecordingPlan::ffmpegInstalled() {
    return !QStandardPaths::findExecutable("ffmpeg").isEmpty();
}

QString RecordingPlan::fpsRange() {
    return QString("%1..%2").arg(kMinFps).arg(kMaxFps);
}

QString RecordingPlan::framePath(int index) const {
    return QDir(m_target).filePath(QString("frame-%1.png").arg(index, 5, 10, QChar('0')));
}

QString RecordingPlan::notesPath() const {
    return QDir(m_target).filePath("frames.json");
}

QSize RecordingPlan::encodedSize(QSize size) {
    return QSize(size.width() & ~1, size.height() & ~1);
}

QStringList RecordingPlan::ffmpegArguments(QSize size) const {
    const QSize s = encodedSize(size);
    // -f mp4: the temporary's name does not end in .mp4.
    return {"-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s",
            QString("%1x%2").arg(s.width()).arg(s.height()), "-framerate", QString::number(m_fps), "-i", "-",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", partial()};
}

int RecordingPlan::stepsToNextFrame(int step, int every, int maxSteps) {
    every = std::max(1, every);
    return maxSteps < 0 ? every : std::max(0, std::min(every, maxSteps - step));
}

QString RecordingPlan::endMessage(int frames) const {
    return QString("recorded %1 frames to %2").arg(frames).arg(m_target);
}

}  // namespace lucent::ui
