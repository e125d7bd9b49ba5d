/// @brief Run-length deltas between label maps, applied forwards (redo) or backwards (undo).
#include "lucent/core/LabelHistory.h"

#include <stdexcept>

namespace lucent {

void LabelHistory::encode(const std::uint8_t* values, std::size_t n, std::vector<Coded>& out) {
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && values[j] == values[i] && j - i < 0xffffffffu) ++j;
        out.push_back({static_cast<std::uint32_t>(j - i), values[i]});
        i = j;
    }
}

bool LabelHistory::record(const LabelMap& before, const LabelMap& after, std::string description) {
    if (before.voxelCount() != after.voxelCount())
        throw std::invalid_argument("label history: the two maps are not on the same grid");
    Step step;
    step.description = std::move(description);
    const std::uint8_t* a = before.data();
    const std::uint8_t* b = after.data();
    const std::size_t n = before.voxelCount();
    for (std::size_t i = 0; i < n;) {
        if (a[i] == b[i]) {
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < n && a[j] != b[j] && j - i < 0xffffffffu) ++j;
        step.starts.push_back(i);
        step.lengths.push_back(static_cast<std::uint32_t>(j - i));
        encode(a + i, j - i, step.before);
        encode(b + i, j - i, step.after);
        i = j;
    }
    if (step.starts.empty()) return false;
    // A new change ends the redo branch.
    for (std::size_t s = m_next; s < m_steps.size(); ++s) m_bytes -= m_steps[s].bytes();
    m_steps.resize(m_next);
    m_bytes += step.bytes();
    m_steps.push_back(std::move(step));
    m_next = m_steps.size();
    while (m_bytes > m_maxBytes && m_steps.size() > 1) {  // the newest step always stays
        m_bytes -= m_steps.front().bytes();
        m_steps.erase(m_steps.begin());
        --m_next;
    }
    return true;
}

void LabelHistory::apply(LabelMap& labels, const Step& step, bool forward) {
    // Runs of values follow the changed runs in order; a value run never spans two changed runs.
    const std::vector<Coded>& values = forward ? step.after : step.before;
    std::size_t v = 0;
    for (std::size_t r = 0; r < step.starts.size(); ++r) {
        if (step.starts[r] + step.lengths[r] > labels.voxelCount())
            throw std::invalid_argument("label history: the map is not the one the change was recorded on");
        std::uint8_t* out = labels.data() + step.starts[r];
        for (std::size_t left = step.lengths[r]; left > 0; ++v) {
            std::fill(out, out + values[v].count, values[v].value);
            out += values[v].count;
            left -= values[v].count;
        }
    }
}

bool LabelHistory::undo(LabelMap& labels) {
    if (!canUndo()) return false;
    apply(labels, m_steps[m_next - 1], false);
    --m_next;
    return true;
}

bool LabelHistory::redo(LabelMap& labels) {
    if (!canRedo()) return false;
    apply(labels, m_steps[m_next], true);
    ++m_next;
    return true;
}

void LabelHistory::clear() {
    m_steps.clear();
    m_next = 0;
    m_bytes = 0;
}

}  // namespace lucent
