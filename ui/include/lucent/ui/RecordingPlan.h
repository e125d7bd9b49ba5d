/// @brief What a recording of a live run writes and how, without a display: MP4 or numbered PNGs,
/// the frame rate, the frames' names, ffmpeg's arguments, the steps between frames and the closing
/// line. FrameRecorder writes by it; `--record` and Segment > Record this run... both use it.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace lucent::ui {

class RecordingPlan {
public:
    /// The frame rate of an MP4 when none is asked for, and the range accepted.
    static constexpr int kDefaultFps = 30, kMinFps = 1, kMaxFps = 240;

    /// `path`: OUT.mp4 (through ffmpeg when `ffmpegFound`, else the folder OUT/ of PNGs) or a
    /// folder of PNGs. Throws std::invalid_argument naming the problem (an empty path, a frame rate
    /// outside kMinFps..kMaxFps).
    explicit RecordingPlan(const QString& path, int fps = kDefaultFps, bool ffmpegFound = ffmpegInstalled());

    /// Whether the ffmpeg program is on the PATH.
    static bool ffmpegInstalled();
    /// "1..240": the frame rates accepted, for messages.
    static QString fpsRange();

    bool toMp4() const { return m_mp4; }
    /// Where the frames go: the MP4, or the folder of PNGs.
    const QString& target() const { return m_target; }
    /// The MP4 while ffmpeg writes it (renamed to target() at the end).
    QString partial() const { return m_target + ".part"; }
    /// Not empty when an MP4 was asked for but PNGs are written (no ffmpeg): says so and where.
    const QString& fallbackNotice() const { return m_notice; }
    int fps() const { return m_fps; }

    /// The PNG of frame `index` (0 is the start): TARGET/frame-00012.png.
    QString framePath(int index) const;
    /// The folder's frames.json (each frame's step, iteration, time per step, polygon).
    QString notesPath() const;
    /// The size ffmpeg encodes for frames of `size` (yuv420p needs even sides).
    static QSize encodedSize(QSize size);
    /// ffmpeg's arguments: raw RGB frames of `size` on standard input at fps() into partial().
    QStringList ffmpegArguments(QSize size) const;
    /// Engine steps from `step` to the next frame, one frame every `every` steps: `every`, fewer
    /// where `maxSteps` (< 0: none) ends the run first; 0 once it has. `every` < 1 counts as 1.
    static int stepsToNextFrame(int step, int every, int maxSteps);
    /// The closing line: "recorded 40 frames to /tmp/out".
    QString endMessage(int frames) const;

private:
    QString m_target, m_notice;
    int m_fps = kDefaultFps;
    bool m_mp4 = false;
};

}  // namespace lucent::ui
