/// @brief Labels > Fill between slices (I): the active label filled along the axis of the view in
/// use, in the background, in a dialog that does not block the views: its progress and Cancel while
/// it runs, then Keep / Cancel for the preview (slices can be scrolled through before deciding), and
/// a checklist of labels to fill several at once (a change of the choice fills again).
#pragma once

#include "lucent/ui/SliceFillModel.h"

#include <QObject>

#include <cstdint>
#include <vector>

class QAction;
class QDialog;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QWidget;

namespace lucent::ui {

class ViewGrid;

class SliceFillAction : public QObject {
    Q_OBJECT
public:
    SliceFillAction(ViewerModel* model, ViewGrid* grid, QWidget* parent);

    QAction* action() const { return m_action; }
    SliceFillModel& model() { return m_fill; }
    /// Starts the fill of the active label, as the menu item does, and shows the dialog; false (and
    /// a message) when it cannot start.
    bool trigger();
    /// The labels checked in the dialog's list, ascending.
    std::vector<std::uint8_t> chosenLabels() const;

signals:
    void message(const QString& text);

private:
    void buildDialog();
    void listLabels(std::uint8_t checked);
    /// Fills the checked labels again: the preview taken back or the running fill stopped first.
    void refill();
    void startChosen();
    void onFinished(bool filled, const QString& why);
    void dismiss();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    QWidget* m_parent;
    SliceFillModel m_fill;
    QAction* m_action;
    int m_axis = 2;
    bool m_restart = false;    ///< the choice changed while a fill ran: fill again when it ends
    bool m_switching = false;  ///< taking the preview back to fill a new choice
    QDialog* m_dialog = nullptr;
    QLabel* m_text = nullptr;
    QProgressBar* m_progress = nullptr;
    QListWidget* m_labels = nullptr;
    QPushButton* m_keep = nullptr;
};

}  // namespace lucent::ui
