/// @brief Edit > Undo and Redo (HistoryActions.h), bound to the model's label history.
#include "lucent/ui/HistoryActions.h"

#include "ActionBinding.h"

#include "lucent/ui/ViewerModel.h"

#include <QMenu>

namespace lucent::ui {

HistoryActions::HistoryActions(ViewerModel* model, QObject* parent) : QObject(parent), m_model(model) {
    m_undo = makeAction(this, "Undo", {QKeySequence(QKeySequence::Undo)}, "undoAction");
    connect(m_undo, &QAction::triggered, m_model, [this] { m_model->undo(); });
    m_redo = makeAction(this, "Redo", {QKeySequence("Ctrl+Shift+Z")}, "redoAction");
    connect(m_redo, &QAction::triggered, m_model, [this] { m_model->redo(); });
    connect(m_model, &ViewerModel::historyChanged, this, &HistoryActions::follow);
    follow();
}

void HistoryActions::addTo(QMenu* edit) { edit->addActions({m_undo, m_redo}); }

void HistoryActions::follow() {
    const auto& h = m_model->history();
    m_undo->setEnabled(h.canUndo());
    m_redo->setEnabled(h.canRedo());
    m_undo->setText(h.canUndo() ? QString("Undo %1").arg(QString::fromStdString(h.undoText())) : QString("Undo"));
    m_redo->setText(h.canRedo() ? QString("Redo %1").arg(QString::fromStdString(h.redoText())) : QString("Redo"));
}

}  // namespace lucent::ui
