/// @brief Writes every displayed frame of a live run: an MP4 through the ffmpeg program (raw RGB
/// frames on its standard input) when the path ends in .mp4 and ffmpeg is installed, else numbered
/// PNGs in a folder. This is how demos of the snake's evolution are made.
#pragma once

#include <QImage>
#include <QProcess>
#include <QString>

#include <memory>

namespace lucent::app {

class FrameRecorder {
public:
    /// `path`: OUT.mp4 or a folder (made when missing). Throws std::runtime_error naming the
    /// problem (folder not writable, ffmpeg failing to start).
    explicit FrameRecorder(const QString& path);
    ~FrameRecorder();
    void add(const QImage& frame);
    /// Ends the file (ffmpeg finishes the MP4); throws when ffmpeg failed. Returns frames written.
    int finish();
    /// Where the frames went (the MP4, or the folder when ffmpeg is missing).
    QString target() const { return m_target; }

private:
    QString m_target;
    bool m_mp4 = false;
    std::unique_ptr<QProcess> m_ffmpeg;
    int m_frames = 0;
    QSize m_size;
};

}  // namespace lucent::app
