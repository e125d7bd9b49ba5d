/// @brief State machine, time-boxed stepping, change boxes, polygon history, accept and cancel.
#include "lucent/core/seg/SegmentationSession.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace lucent {

const char* sessionStateName(SessionState state) {
    switch (state) {
    case SessionState::Idle: return "idle";
    case SessionState::Running: return "running";
    case SessionState::Paused: return "paused";
    case SessionState::Finished: return "finished";
    }
    return "?";
}

SegmentationSession::SegmentationSession(Clock clock)
    : m_clock(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })) {}

void SegmentationSession::begin(std::unique_ptr<Segmenter> engine, const SegmentationRequest& request, int iterationsPerStep) {
    cancel();
    engine->start(request);
    m_engine = std::move(engine);
    m_request = request;
    setIterationsPerStep(iterationsPerStep);
    m_last = {};
    clearHistory();
    // The start state is the first thing drawn: seeds (srg, fc), the starting rectangle (snake).
    markAllChanged();
    if (m_request.snake.rect != std::array<int, 4>{0, 0, 0, 0} && m_engine->method() == Method::Snake) {
        const auto& r = m_request.snake.rect;
        m_polygons.push_back({{double(r[0]), double(r[1])}, {double(r[2]), double(r[1])}, {double(r[2]), double(r[3])},
                              {double(r[0]), double(r[3])}});
        m_polygonSlices.push_back(m_request.snake.slice);
    }
    m_state = m_engine->finished() ? SessionState::Finished : SessionState::Running;
    if (m_observer) m_observer(*m_engine, m_last);
}

void SegmentationSession::afterStep(const StepReport& report) {
    m_last = report;
    if (m_observer) m_observer(*m_engine, report);
    if (report.changed) m_changes = merge(m_changes, *report.changed);
    if (!report.polygon.empty()) {
        m_polygons.push_back(report.polygon);
        m_polygonSlices.push_back(report.polygonSlice);
    }
    m_convergence.push_back(report.convergence);
    if (report.finished) m_state = SessionState::Finished;
}

int SegmentationSession::advance(std::chrono::microseconds budget, int maxSteps) {
    if (m_state != SessionState::Running) return 0;
    const auto start = m_clock();
    int steps = 0;
    do {
        afterStep(m_engine->step(m_perStep));
        ++steps;
    } while (m_state == SessionState::Running && steps < maxSteps && m_clock() - start < budget);
    m_msPerStep = std::chrono::duration<double, std::milli>(m_clock() - start).count() / steps;
    return steps;
}

void SegmentationSession::stepOnce() {
    if (m_state != SessionState::Running && m_state != SessionState::Paused) return;
    // Timed too: a recording advances by single steps only, and its HUD shows the engine's time.
    const auto start = m_clock();
    afterStep(m_engine->step(m_perStep));
    m_msPerStep = std::chrono::duration<double, std::milli>(m_clock() - start).count();
    if (m_state != SessionState::Finished) m_state = SessionState::Paused;
}

void SegmentationSession::play() {
    if (m_state == SessionState::Paused) m_state = SessionState::Running;
}

void SegmentationSession::pause() {
    if (m_state == SessionState::Running) m_state = SessionState::Paused;
}

UpdateOutcome SegmentationSession::update(const SegmentationRequest& request) {
    if (!m_engine) throw std::logic_error("segmentation session: update without a run");
    UpdateOutcome outcome;
    try {
        outcome = m_engine->update(request);
    } catch (const std::exception&) {
        // The engine restarted on the new request and refused it (no seed in the new interval): it
        // no longer holds the previous result, so the views must not go on showing it as the run's.
        m_request = request;
        markAllChanged();
        clearHistory();
        // Nor its figures: the HUD showed the dropped run's iterations and time per step under a
        // preview of 0 voxels. What is left is a run of no step.
        m_last = {};
        m_msPerStep = 0;
        m_state = SessionState::Finished;
        throw;
    }
    // What the views must redraw: everything after a restart or a relabelling; after a run that
    // continues (a wider interval) only the seeds it gained, since its steps report what they grow.
    if (outcome == UpdateOutcome::Continued) markNewSeedsChanged(request);
    m_request = request;
    if (outcome != UpdateOutcome::Continued) markAllChanged();
    if (outcome != UpdateOutcome::Relabelled) {
        if (outcome == UpdateOutcome::Restarted) {
            clearHistory();
        }
        m_state = m_engine->finished() ? SessionState::Finished : SessionState::Running;
        if (m_observer) m_observer(*m_engine, outcome == UpdateOutcome::Restarted ? StepReport{} : m_last);
    }
    return outcome;
}

void SegmentationSession::clearHistory() {
    m_polygons.clear();
    m_polygonSlices.clear();
    m_convergence.clear();
}

void SegmentationSession::markNewSeedsChanged(const SegmentationRequest& next) {
    for (const auto& seed : next.seeds)
        if (std::find(m_request.seeds.begin(), m_request.seeds.end(), seed) == m_request.seeds.end())
            m_changes = merge(m_changes, VoxelBox{{seed.i, seed.j, seed.k}, {seed.i, seed.j, seed.k}});
}

void SegmentationSession::markAllChanged() {
    if (m_request.volume) m_changes = merge(m_changes, wholeBox(m_request.volume->geometry()));
}

std::optional<VoxelBox> SegmentationSession::takeChanges() {
    auto out = m_changes;
    m_changes.reset();
    return out;
}

bool SegmentationSession::accept(LabelMap& layer, LabelHistory& history, const std::array<std::uint8_t, 256>& labelFor,
                                 const std::string& description, const std::array<bool, 256>& locked,
                                 const LabelMap* shown) {
    if (!m_engine) return false;
    if (layer.voxelCount() != m_request.volume->voxelCount())
        throw std::invalid_argument("the label layer is not on the volume's grid");
    if (shown && shown->voxelCount() != layer.voxelCount())
        throw std::invalid_argument("the state shown is not on the volume's grid");
    LabelMap engineResult;
    if (!shown) m_engine->result(engineResult);
    const LabelMap& result = shown ? *shown : engineResult;
    LabelMap after = layer;
    for (std::size_t i = 0; i < result.voxelCount(); ++i)
        if (result[i] && labelFor[result[i]] && !locked[labelFor[result[i]]] && !locked[after[i]])
            after[i] = labelFor[result[i]];
    const bool changed = history.record(layer, after, description);
    if (changed) layer = std::move(after);
    cancel();
    return changed;
}

bool SegmentationSession::accept(LabelMap& layer, LabelHistory& history, std::uint8_t label, const std::string& description) {
    std::array<std::uint8_t, 256> labelFor{};
    labelFor.fill(label);
    labelFor[0] = 0;
    return accept(layer, history, labelFor, description);
}

void SegmentationSession::cancel() {
    if (m_engine) m_engine->cancel();
    m_engine.reset();
    m_state = SessionState::Idle;
    m_changes.reset();
}

}  // namespace lucent
