/// @brief The step-exact frames of a live run: advance, follow the run's slice, draw, grab, note.
#include "lucent/ui/RunRecorder.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/ViewerModel.h"

#include <QApplication>
#include <QScopeGuard>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace lucent::ui {

namespace {

/// The polygon the overlay draws: the latest step's, or the start before the first step.
SegmentationRunner::SlicePolygon drawnPolygon(const LiveSegmentation& live) {
    auto polygon = live.latestPolygon();
    if (polygon.points.empty()) polygon = live.polygon(-1);
    return polygon;
}

}  // namespace

RunRecorder::RunRecorder(LiveSegmentation& live, ViewerModel& model, Grab grab)
    : m_live(live), m_model(model), m_grab(std::move(grab)) {}

void RunRecorder::followRunSlice() {
    // A propagating snake moves from slice to slice: the views go with it, so the recording shows it.
    const auto polygon = drawnPolygon(m_live);
    if (polygon.slice < 0) return;
    Vec3 cursor = m_model.cursor();
    if (std::lround(cursor.z) == polygon.slice) return;
    cursor.z = polygon.slice;
    m_model.setCursor(cursor);
}

std::string RunRecorder::frameNote(int frame, int step) const {
    std::ostringstream s;
    JsonWriter json(s, false);
    const auto& p = m_live.published();
    json.beginObject().key("frame").value(frame).key("step").value(step).key("iteration").value(p.last.iterations);
    json.key("state").value(m_live.shownState()).key("voxels").value(m_live.shownVoxels());
    json.key("ms_per_step").value(p.msPerStep);  // what the HUD shows for the step just made
    const auto polygon = drawnPolygon(m_live);
    if (polygon.slice >= 0) {
        json.key("slice").value(polygon.slice).key("polygon").beginArray();
        for (const auto& point : polygon.points) json.array(std::vector<double>{point[0], point[1]});
        json.endArray();
    }
    json.endObject();
    return s.str();
}

int RunRecorder::copiesOf(int step, const FrameRecorder& out, int firstFrame) const {
    if (m_pace <= kUnpaced || !out.toMp4()) return 1;
    // The video's time of this step at the pace, after the held start; at least one frame a step.
    const double fps = out.plan().fps();
    const int hold = int(std::lround(m_holdSeconds * fps));
    const int due = hold + 1 + int(std::lround(double(step) * fps / double(m_pace)));
    return std::max(1, due - (out.frames() - firstFrame));
}

QString RunRecorder::record(FrameRecorder& out, int every, int maxSteps, const Progress& progress) {
    QString error;
    // The frames show the run as the video plays it, not the pauses between its frames.
    const bool paced = m_pace > kUnpaced && out.toMp4();
    const int firstFrame = out.frames();  // a recording may hold runs before this one (the demo)
    m_live.setRecordedPace(LiveSegmentation::RecordedPace{out.plan().fps(), every, paced ? m_pace : 0});
    const auto restore = qScopeGuard([this] { m_live.setRecordedPace(std::nullopt); });
    const bool ok = m_live.stepFrames(every, maxSteps, [&](int step) {
        followRunSlice();
        for (int i = 0; i < 2; ++i) QApplication::processEvents();  // the views draw the step
        const QImage frame = m_grab();
        for (int copies = copiesOf(step, out, firstFrame); copies > 0; --copies) out.add(frame, frameNote(out.frames(), step));
        return !progress || progress(out.frames());
    }, &error);
    if (!ok) return error.isEmpty() ? "the run ended without a result" : error;
    return {};
}

}  // namespace lucent::ui
