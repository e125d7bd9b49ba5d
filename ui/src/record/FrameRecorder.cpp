/// @brief ffmpeg pipe into a temporary MP4 renamed at the end, or numbered PNGs and frames.json.
#include "lucent/ui/FrameRecorder.h"

#include "lucent/io/FileUtil.h"

#include <QDir>
#include <QFile>

#include <stdexcept>

namespace lucent::ui {

FrameRecorder::FrameRecorder(RecordingPlan plan) : m_plan(std::move(plan)) {
    // An MP4's ffmpeg starts with the first frame, when the size is known.
    if (!m_plan.toMp4() && !QDir().mkpath(m_plan.target()))
        throw std::runtime_error("cannot make the folder " + m_plan.target().toStdString());
}

FrameRecorder::~FrameRecorder() {
    if (m_ffmpeg && m_ffmpeg->state() != QProcess::NotRunning) {
        m_ffmpeg->kill();
        m_ffmpeg->waitForFinished(2000);
    }
    if (m_partialLeft) QFile::remove(m_plan.partial());
}

void FrameRecorder::startFfmpeg(QSize size) {
    m_size = RecordingPlan::encodedSize(size);
    m_ffmpeg = std::make_unique<QProcess>();
    m_ffmpeg->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_partialLeft = true;
    m_ffmpeg->start("ffmpeg", m_plan.ffmpegArguments(size));
    if (!m_ffmpeg->waitForStarted(5000)) throw std::runtime_error("ffmpeg did not start");
}

void FrameRecorder::add(const QImage& frame, const std::string& note) {
    if (!note.empty()) m_notes.push_back(note);
    if (!m_plan.toMp4()) {
        const QString name = m_plan.framePath(m_frames);
        if (!frame.save(name)) throw std::runtime_error("cannot write " + name.toStdString());
        ++m_frames;
        return;
    }
    // Every frame is cut to the first one's (even) size.
    QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    if (!m_ffmpeg) startFfmpeg(rgb.size());
    if (rgb.size() != m_size) rgb = rgb.copy(0, 0, m_size.width(), m_size.height());
    for (int y = 0; y < rgb.height(); ++y) {
        const char* row = reinterpret_cast<const char*>(rgb.constScanLine(y));
        m_ffmpeg->write(row, qint64(rgb.width()) * 3);
    }
    if (!m_ffmpeg->waitForBytesWritten(-1) && m_ffmpeg->bytesToWrite() > 0)
        throw std::runtime_error("ffmpeg stopped taking frames for " + m_plan.target().toStdString());
    ++m_frames;
}

int FrameRecorder::finish() {
    if (m_ffmpeg) {
        m_ffmpeg->closeWriteChannel();
        if (!m_ffmpeg->waitForFinished(120000) || m_ffmpeg->exitStatus() != QProcess::NormalExit || m_ffmpeg->exitCode() != 0)
            throw std::runtime_error("ffmpeg failed to write " + m_plan.target().toStdString());
        QFile::remove(m_plan.target());
        if (!QFile::rename(m_plan.partial(), m_plan.target()))
            throw std::runtime_error("cannot write " + m_plan.target().toStdString());
        m_partialLeft = false;
    }
    if (!m_plan.toMp4() && !m_notes.empty()) {
        std::string json = "{\"frames\": [\n";
        for (std::size_t i = 0; i < m_notes.size(); ++i) json += "  " + m_notes[i] + (i + 1 < m_notes.size() ? ",\n" : "\n");
        json += "]}\n";
        io::writeFileAtomically(m_plan.notesPath().toStdString(), {json});
    }
    return m_frames;
}

}  // namespace lucent::ui
