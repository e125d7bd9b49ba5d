/// @brief The modified flag: which parts of the work changed since they were saved, and a pending run.
#include "lucent/ui/WorkState.h"

#include "lucent/ui/ViewerModel.h"

#include <algorithm>

namespace lucent::ui {

WorkState::WorkState(QObject* parent) : QObject(parent) {}

void WorkState::follow(ViewerModel& model) {
    // A brush stroke, an accepted result, an undo, Close labels, a renamed or recoloured label. A new
    // volume sends the same signals with no layer and no history: nothing of it to lose yet.
    for (auto signal : {&ViewerModel::labelsChanged, &ViewerModel::historyChanged, &ViewerModel::labelTableChanged})
        connect(&model, signal, this, [this, &model] {
            if (model.labels() || model.history().canUndo() || model.history().canRedo()) noteChange(Part::Labels);
        });
}

template <class F>
void WorkState::updateAndTell(F update) {
    const bool was = modified();
    const std::uint64_t before = m_revision;
    update();
    if (m_revision != before) emit changedNow();
    if (modified() != was) emit modifiedChanged(modified());
}

void WorkState::noteChange(Part part) {
    updateAndTell([&] {
        m_changed[std::size_t(part)] = true;
        ++m_revision;
    });
}

void WorkState::noteSeeds(bool any) {
    if (any) return noteChange(Part::Seeds);
    markSaved(Part::Seeds);
}

void WorkState::setRunPending(bool pending) {
    if (pending == m_runPending) return;
    updateAndTell([&] {
        m_runPending = pending;
        ++m_revision;
    });
}

void WorkState::markSaved() {
    updateAndTell([&] { m_changed.fill(false); });
}

void WorkState::markSaved(Part part) {
    updateAndTell([&] { m_changed[std::size_t(part)] = false; });
}

bool WorkState::modified() const {
    return m_runPending || std::any_of(m_changed.begin(), m_changed.end(), [](bool c) { return c; });
}

}  // namespace lucent::ui
