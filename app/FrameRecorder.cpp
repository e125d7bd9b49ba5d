/// @brief ffmpeg pipe or numbered PNGs.
#include "FrameRecorder.h"

#include <QDir>
#include <QStandardPaths>

#include <iostream>
#include <stdexcept>

namespace lucent::app {

FrameRecorder::FrameRecorder(const QString& path) : m_target(path) {
    if (path.endsWith(".mp4", Qt::CaseInsensitive)) {
        if (!QStandardPaths::findExecutable("ffmpeg").isEmpty()) {
            m_mp4 = true;
            return;  // ffmpeg starts with the first frame, when the size is known
        }
        m_target = path.left(path.size() - 4);
        std::cerr << "lucent: warning: ffmpeg is not installed; writing numbered PNGs to " << m_target.toStdString()
                  << "/ instead of " << path.toStdString() << "\n";
    }
    if (!QDir().mkpath(m_target)) throw std::runtime_error("cannot make the folder " + m_target.toStdString());
}

FrameRecorder::~FrameRecorder() {
    if (m_ffmpeg && m_ffmpeg->state() != QProcess::NotRunning) {
        m_ffmpeg->kill();
        m_ffmpeg->waitForFinished(2000);
    }
}

void FrameRecorder::add(const QImage& frame) {
    if (!m_mp4) {
        const QString name = QDir(m_target).filePath(QString("frame-%1.png").arg(m_frames, 5, 10, QChar('0')));
        if (!frame.save(name)) throw std::runtime_error("cannot write " + name.toStdString());
        ++m_frames;
        return;
    }
    // yuv420p needs even sizes; every frame is scaled to the first one's.
    QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    if (!m_ffmpeg) {
        m_size = QSize(rgb.width() & ~1, rgb.height() & ~1);
        m_ffmpeg = std::make_unique<QProcess>();
        m_ffmpeg->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_ffmpeg->start("ffmpeg", {"-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s",
                                   QString("%1x%2").arg(m_size.width()).arg(m_size.height()), "-framerate", "30", "-i", "-",
                                   "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", m_target});
        if (!m_ffmpeg->waitForStarted(5000)) throw std::runtime_error("ffmpeg did not start");
    }
    if (rgb.size() != m_size) rgb = rgb.copy(0, 0, m_size.width(), m_size.height());
    for (int y = 0; y < rgb.height(); ++y) {
        const char* row = reinterpret_cast<const char*>(rgb.constScanLine(y));
        m_ffmpeg->write(row, qint64(rgb.width()) * 3);
    }
    m_ffmpeg->waitForBytesWritten(-1);
    ++m_frames;
}

int FrameRecorder::finish() {
    if (m_ffmpeg) {
        m_ffmpeg->closeWriteChannel();
        if (!m_ffmpeg->waitForFinished(120000) || m_ffmpeg->exitStatus() != QProcess::NormalExit || m_ffmpeg->exitCode() != 0)
            throw std::runtime_error("ffmpeg failed to write " + m_target.toStdString());
    }
    return m_frames;
}

}  // namespace lucent::app
