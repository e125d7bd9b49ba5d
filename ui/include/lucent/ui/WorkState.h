/// @brief Whether the user's work (labels, measurements, the session's seeds and settings, a run not
/// yet accepted) differs from what was last saved: the modified flag behind the title's `*`, the
/// unsaved-changes question and the autosave. A plain model, tested without a display.
#pragma once

#include <QObject>

#include <array>
#include <cstdint>

namespace lucent::ui {

class ViewerModel;

class WorkState : public QObject {
    Q_OBJECT
public:
    /// What changed: each is cleared by the save that keeps it (a label export keeps the labels
    /// only; a session save keeps them all). Seeds: seeds placed and not yet used up (noteSeeds).
    enum class Part { Labels, Measurements, Session, Seeds };

    explicit WorkState(QObject* parent = nullptr);

    /// Follows `model`'s label layer, its undo history and its label table (each a Labels change).
    void follow(ViewerModel& model);

    /// Something of `part` changed since the last save.
    void noteChange(Part part);
    /// The seed list changed: seeds placed are work that only a session keeps; none left (used up
    /// by an Accept, whose result is the labels' change, cleared, or another volume's) is nothing
    /// to lose (issue 43 item 6: an accepted run's seeds kept the mark after a full label export).
    void noteSeeds(bool any);
    /// A method is running or its result waits to be accepted: work that no file holds yet.
    void setRunPending(bool pending);
    /// Everything is as saved (a session save, a freshly opened volume or session).
    void markSaved();
    /// `part` is as saved (a label export saves the labels, not the measurements).
    void markSaved(Part part);

    bool modified() const;
    bool changed(Part part) const { return m_changed[std::size_t(part)]; }
    bool runPending() const { return m_runPending; }
    /// Grows with every change (a run starting or ending included): the autosave writes a copy only
    /// when it moved since the last one.
    std::uint64_t revision() const { return m_revision; }

signals:
    /// The modified flag flipped (the title's `*`).
    void modifiedChanged(bool modified);
    /// revision() grew.
    void changedNow();

private:
    /// Applies `update` and says what flipped.
    template <class F>
    void updateAndTell(F update);

    std::array<bool, 4> m_changed{};
    bool m_runPending = false;
    std::uint64_t m_revision = 0;
};

}  // namespace lucent::ui
