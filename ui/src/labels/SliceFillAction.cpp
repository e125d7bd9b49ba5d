/// @brief SliceFillAction: the menu item, the axis of the view in use, the non-modal dialog with the
/// fill's progress, its label checklist and Keep / Cancel.
#include "labels/SliceFillAction.h"

#include "lucent/ui/SliceViewWidget.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace lucent::ui {

SliceFillAction::SliceFillAction(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QObject(parent), m_model(model), m_grid(grid), m_parent(parent), m_fill(model) {
    m_action = new QAction("Fill &between slices", this);
    m_action->setShortcut(QKeySequence("I"));
    m_action->setObjectName("fillBetweenSlicesAction");
    m_action->setToolTip("Fill the active label (or the labels checked in the dialog) between the slices it is "
                         "drawn on, along the view in use");
    connect(m_action, &QAction::triggered, this, [this] { trigger(); });
    // The preview ended elsewhere (another edit kept it): the dialog has nothing left to decide.
    connect(&m_fill, &SliceFillModel::previewChanged, this, [this](bool previewing) {
        if (!previewing && m_dialog && !m_fill.running() && !m_switching) m_dialog->hide();
    });
    connect(&m_fill, &SliceFillModel::finished, this, &SliceFillAction::onFinished);
    connect(&m_fill, &SliceFillModel::progressChanged, this, [this](int permille) {
        if (m_progress) m_progress->setValue(permille);
    });
}

bool SliceFillAction::trigger() {
    // The view in use: the last one clicked or scrolled, else the axial view. Its normal is the
    // volume axis the user drew across.
    const SliceViewWidget* view =
        m_grid->activeView() ? m_grid->activeView() : m_grid->view(render::Orientation::Axial);
    if (m_fill.running()) {
        emit message("A fill between slices is running already");
        return false;
    }
    QString why;
    m_axis = view->view().normalAxis();
    m_fill.setSliceName(render::orientationName(view->orientation()));
    if (!m_fill.start(m_axis, {m_model->activeLabel()}, &why)) {
        emit message(why);
        return false;
    }
    buildDialog();
    listLabels(m_model->activeLabel());
    m_text->setText(QString("Filling between %1...").arg(m_fill.slicesText(m_axis)));
    m_progress->setValue(0);
    m_progress->show();
    m_keep->setEnabled(false);
    m_dialog->show();
    return true;
}

std::vector<std::uint8_t> SliceFillAction::chosenLabels() const {
    std::vector<std::uint8_t> out;
    for (int row = 0; m_labels && row < m_labels->count(); ++row)
        if (m_labels->item(row)->checkState() == Qt::Checked)
            out.push_back(std::uint8_t(m_labels->item(row)->data(Qt::UserRole).toInt()));
    return out;
}

void SliceFillAction::buildDialog() {
    if (m_dialog) return;
    m_dialog = new QDialog(m_parent);
    m_dialog->setObjectName("fillBetweenSlicesPrompt");
    m_dialog->setWindowTitle("Fill between slices");
    m_dialog->setModal(false);
    auto* layout = new QVBoxLayout(m_dialog);
    m_text = new QLabel(m_dialog);
    m_text->setObjectName("fillPromptText");
    m_progress = new QProgressBar(m_dialog);
    m_progress->setObjectName("fillProgress");
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    auto* choose = new QLabel("Labels to fill:", m_dialog);
    m_labels = new QListWidget(m_dialog);
    m_labels->setObjectName("fillLabelList");
    m_labels->setMaximumHeight(120);
    auto* buttons = new QDialogButtonBox(m_dialog);
    m_keep = buttons->addButton("Keep", QDialogButtonBox::AcceptRole);
    m_keep->setObjectName("fillKeepButton");
    QPushButton* cancel = buttons->addButton("Cancel", QDialogButtonBox::RejectRole);
    cancel->setObjectName("fillCancelButton");
    for (QWidget* w : std::initializer_list<QWidget*>{m_text, m_progress, choose, m_labels, buttons}) layout->addWidget(w);
    connect(m_keep, &QPushButton::clicked, this, [this] {
        m_fill.accept();
        m_dialog->hide();
    });
    // Cancel, Escape or the title bar: the running fill stopped, or the preview taken back.
    connect(m_dialog, &QDialog::rejected, this, &SliceFillAction::dismiss);
    connect(cancel, &QPushButton::clicked, m_dialog, &QDialog::reject);
    connect(m_labels, &QListWidget::itemChanged, this, [this] { refill(); });
}

void SliceFillAction::listLabels(std::uint8_t checked) {
    const QSignalBlocker quiet(m_labels);
    m_labels->clear();
    for (const LabelInfo& l : m_model->labelTable().labels()) {
        auto* item = new QListWidgetItem(QString::fromStdString(l.name), m_labels);
        item->setData(Qt::UserRole, int(l.value));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(l.value == checked ? Qt::Checked : Qt::Unchecked);
    }
}

void SliceFillAction::refill() {
    if (m_fill.running()) {
        m_restart = true;  // started again once the stopped fill has ended
        m_fill.stop();
        return;
    }
    m_switching = true;  // the preview taken back to fill the new choice: the dialog stays
    m_fill.cancel();
    m_switching = false;
    startChosen();
}

void SliceFillAction::startChosen() {
    m_keep->setEnabled(false);
    QString why;
    if (!m_fill.start(m_axis, chosenLabels(), &why)) {
        m_progress->hide();
        m_text->setText(chosenLabels().empty() ? "Check the labels to fill between slices." : why);
        return;
    }
    m_text->setText(QString("Filling between %1...").arg(m_fill.slicesText(m_axis)));
    m_progress->setValue(0);
    m_progress->show();
}

void SliceFillAction::onFinished(bool filled, const QString& why) {
    if (m_restart) {
        m_restart = false;
        startChosen();
        return;
    }
    if (!m_dialog || !m_dialog->isVisible()) {
        if (!filled && !why.isEmpty()) emit message(why);  // cancelled with the dialog, or never shown
        return;
    }
    m_progress->hide();
    m_keep->setEnabled(filled);
    m_text->setText(filled ? m_fill.summary() + "\n\nKeep the filled slices?" : why);
    if (!filled) emit message(why);
}

void SliceFillAction::dismiss() {
    m_restart = false;
    m_dialog->hide();
    if (m_fill.running())
        m_fill.stop();  // ends with finished(false): the layer as it was
    else
        m_fill.cancel();
}

}  // namespace lucent::ui
