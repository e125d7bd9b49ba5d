/// @brief ffmpeg pipe into a temporary MP4 renamed at the end, or numbered PNGs and frames.json.
#include "FrameRecorder.h"

#include "lucent/io/FileUtil.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include <iostream>
#include <stdexcept>

namespace lucent::app {

FrameRecorder::FrameRecorder(const QString& path, int fps) : m_target(path), m_fps(fps) {
    if (fps < kMinFps || fps > kMaxFps)
        throw std::runtime_error("the frame rate must be " + std::to_string(kMinFps) + ".." + std::to_string(kMaxFps));
    if (path.endsWith(".mp4", Qt::CaseInsensitive)) {
        if (!QStandardPaths::findExecutable("ffmpeg").isEmpty()) {
            m_mp4 = true;
            m_partial = path + ".part";
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
    if (!m_partial.isEmpty()) QFile::remove(m_partial);
}

void FrameRecorder::startFfmpeg(QSize size) {
    m_size = size;
    m_ffmpeg = std::make_unique<QProcess>();
    m_ffmpeg->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // -f mp4: the temporary's name does not end in .mp4.
    m_ffmpeg->start("ffmpeg", {"-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s",
                               QString("%1x%2").arg(m_size.width()).arg(m_size.height()), "-framerate",
                               QString::number(m_fps), "-i", "-", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags",
                               "+faststart", "-f", "mp4", m_partial});
    if (!m_ffmpeg->waitForStarted(5000)) throw std::runtime_error("ffmpeg did not start");
}

void FrameRecorder::add(const QImage& frame, const std::string& note) {
    if (!note.empty()) m_notes.push_back(note);
    if (!m_mp4) {
        const QString name = QDir(m_target).filePath(QString("frame-%1.png").arg(m_frames, 5, 10, QChar('0')));
        if (!frame.save(name)) throw std::runtime_error("cannot write " + name.toStdString());
        ++m_frames;
        return;
    }
    // yuv420p needs even sizes; every frame is cut to the first one's.
    QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    if (!m_ffmpeg) startFfmpeg(QSize(rgb.width() & ~1, rgb.height() & ~1));
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
        QFile::remove(m_target);
        if (!QFile::rename(m_partial, m_target)) throw std::runtime_error("cannot write " + m_target.toStdString());
        m_partial.clear();
    }
    if (!m_mp4 && !m_notes.empty()) {
        std::string json = "{\"frames\": [\n";
        for (std::size_t i = 0; i < m_notes.size(); ++i) json += "  " + m_notes[i] + (i + 1 < m_notes.size() ? ",\n" : "\n");
        json += "]}\n";
        io::writeFileAtomically(QDir(m_target).filePath("frames.json").toStdString(), {json});
    }
    return m_frames;
}

}  // namespace lucent::app
