/// @brief Writes the frames of a live run: an MP4 through the ffmpeg program (raw RGB frames on its
/// standard input, at a chosen frame rate) when the path ends in .mp4 and ffmpeg is installed, else
/// numbered PNGs in a folder with frames.json beside them (each frame's step, iteration and snake
/// polygon). This is how demos of the snake's evolution are made.
#pragma once

#include <QImage>
#include <QProcess>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace lucent::app {

class FrameRecorder {
public:
    /// The frame rate of an MP4 when none is asked for, and the range accepted.
    static constexpr int kDefaultFps = 30, kMinFps = 1, kMaxFps = 240;

    /// `path`: OUT.mp4 or a folder (made when missing). Throws std::runtime_error naming the
    /// problem (folder not writable, ffmpeg failing to start).
    explicit FrameRecorder(const QString& path, int fps = kDefaultFps);
    /// A recording that did not finish leaves no MP4 behind (ffmpeg writes a temporary beside it).
    ~FrameRecorder();
    /// Adds a frame; `note` is a JSON object describing it (frames.json of a folder).
    void add(const QImage& frame, const std::string& note = {});
    /// Ends the file (ffmpeg finishes the MP4, renamed into place; frames.json is written); throws
    /// when that failed. Returns frames written.
    int finish();
    /// Where the frames go (the MP4, or the folder when ffmpeg is missing).
    QString target() const { return m_target; }
    bool toMp4() const { return m_mp4; }
    int frames() const { return m_frames; }

private:
    void startFfmpeg(QSize size);

    QString m_target;
    QString m_partial;  // the MP4 while ffmpeg writes it
    int m_fps = kDefaultFps;
    bool m_mp4 = false;
    std::unique_ptr<QProcess> m_ffmpeg;
    int m_frames = 0;
    QSize m_size;
    std::vector<std::string> m_notes;
};

}  // namespace lucent::app
