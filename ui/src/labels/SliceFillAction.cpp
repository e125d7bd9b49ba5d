/// @brief SliceFillAction: the menu item, the axis of the view in use, the non-modal prompt.
#include "labels/SliceFillAction.h"

#include "lucent/ui/SliceViewWidget.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>

namespace lucent::ui {

SliceFillAction::SliceFillAction(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QObject(parent), m_model(model), m_grid(grid), m_parent(parent), m_fill(model) {
    m_action = new QAction("Fill &between slices", this);
    m_action->setShortcut(QKeySequence("I"));
    m_action->setObjectName("fillBetweenSlicesAction");
    m_action->setToolTip("Fill the active label between the slices it is drawn on, along the view in use");
    connect(m_action, &QAction::triggered, this, [this] { trigger(); });
    // The preview ended elsewhere (another edit kept it): the prompt has nothing left to decide.
    connect(&m_fill, &SliceFillModel::previewChanged, this, [this](bool previewing) {
        if (!previewing && m_prompt) m_prompt->close();
    });
}

bool SliceFillAction::trigger() {
    // The view in use: the last one clicked or scrolled, else the axial view. Its normal is the
    // volume axis the user drew across.
    const SliceViewWidget* view =
        m_grid->activeView() ? m_grid->activeView() : m_grid->view(render::Orientation::Axial);
    QString why;
    // About a second at 512 x 512 x 400 on two cores (BENCHMARKS.md): a busy cursor meanwhile.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool filled = m_fill.preview(view->view().normalAxis(), {m_model->activeLabel()}, &why);
    QApplication::restoreOverrideCursor();
    if (!filled) {
        emit message(why);
        return false;
    }
    showPrompt();
    return true;
}

void SliceFillAction::showPrompt() {
    if (!m_prompt) {
        m_prompt = new QMessageBox(QMessageBox::Question, "Fill between slices", "", QMessageBox::NoButton, m_parent);
        m_prompt->setObjectName("fillBetweenSlicesPrompt");
        m_prompt->setWindowModality(Qt::NonModal);
        QPushButton* keep = m_prompt->addButton("Keep", QMessageBox::AcceptRole);
        keep->setObjectName("fillKeepButton");
        QPushButton* cancel = m_prompt->addButton("Cancel", QMessageBox::RejectRole);
        cancel->setObjectName("fillCancelButton");
        connect(keep, &QPushButton::clicked, this, [this] { m_fill.accept(); });
        connect(cancel, &QPushButton::clicked, this, [this] { m_fill.cancel(); });
        // Closed with Escape or the title bar: as Cancel.
        connect(m_prompt, &QMessageBox::rejected, this, [this] { m_fill.cancel(); });
    }
    m_prompt->setText(m_fill.summary() + "\n\nKeep the filled slices?");
    m_prompt->show();
}

}  // namespace lucent::ui
