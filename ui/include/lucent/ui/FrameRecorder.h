/// @brief Writes the frames of a live run by a RecordingPlan: an MP4 through the ffmpeg program (raw
/// RGB frames on its standard input) renamed into place at the end, or numbered PNGs in a folder
/// with frames.json beside them (each frame's step, iteration and snake polygon).
#pragma once

#include "lucent/ui/RecordingPlan.h"

#include <QImage>
#include <QProcess>

#include <memory>
#include <string>
#include <vector>

namespace lucent::ui {

class FrameRecorder {
public:
    /// Makes the folder of PNGs when missing. Throws std::runtime_error naming the problem.
    explicit FrameRecorder(RecordingPlan plan);
    /// A recording that did not finish leaves no MP4 behind (ffmpeg writes a temporary beside it).
    ~FrameRecorder();
    FrameRecorder(const FrameRecorder&) = delete;
    FrameRecorder& operator=(const FrameRecorder&) = delete;
    /// Adds a frame; `note` is a JSON object describing it (frames.json of a folder). Throws
    /// std::runtime_error when it cannot be written (ffmpeg failing to start, a full disk).
    void add(const QImage& frame, const std::string& note = {});
    /// Ends the file (ffmpeg finishes the MP4, renamed into place; frames.json is written); throws
    /// when that failed. Returns frames written.
    int finish();
    const RecordingPlan& plan() const { return m_plan; }
    /// Where the frames go (the MP4, or the folder).
    QString target() const { return m_plan.target(); }
    bool toMp4() const { return m_plan.toMp4(); }
    int frames() const { return m_frames; }

private:
    void startFfmpeg(QSize size);

    RecordingPlan m_plan;
    bool m_partialLeft = false;  // the MP4's temporary exists and is not yet renamed
    std::unique_ptr<QProcess> m_ffmpeg;
    int m_frames = 0;
    QSize m_size;
    std::vector<std::string> m_notes;
};

}  // namespace lucent::ui
