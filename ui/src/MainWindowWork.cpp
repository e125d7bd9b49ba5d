/// @brief MainWindow's unsaved work: the modified mark in the title, the question before work is set
/// aside (Save session / Export labels / Discard / Cancel), the autosave's wiring, and recovery at start.
#include "lucent/ui/MainWindow.h"

#include "lucent/ui/Autosave.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/LabelMirror.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/RecoveryCopies.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SessionBinding.h"

#include <QLockFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace lucent::ui {

void MainWindow::bindWork() {
    m_work.follow(m_model);
    connect(m_measure, &MeasurementPanel::changed, &m_work, [this] { m_work.noteChange(WorkState::Part::Measurements); });
    // Seeds placed are work; the list emptied by an Accept (the labels hold the result), another
    // volume or Clear leaves none to keep.
    connect(&m_segment->model(), &SegmentationModel::seedsChanged, &m_work,
            [this] { m_work.noteSeeds(!m_segment->model().seeds().empty()); });
    LiveSegmentation* live = &m_segment->live();
    connect(live, &LiveSegmentation::stateChanged, &m_work, [this, live] { m_work.setRunPending(live->active()); });
    connect(&m_work, &WorkState::modifiedChanged, this, &QWidget::setWindowModified);
    connect(m_labelFiles, &LabelFiles::exported, &m_work, [this] { m_work.markSaved(WorkState::Part::Labels); });
    // The layer reaches the worker through a mirror: a stroke costs the GUI thread its box, a whole
    // change the worker's copy, never the GUI thread's.
    auto mirror = std::make_shared<LabelMirror>(m_model);
    m_autosave = new Autosave(&m_work, [this, mirror]() -> std::optional<Autosave::Snapshot> {
        if (!m_model.hasVolume() || m_currentPath.isEmpty()) return std::nullopt;
        LabelMirror::Sync labels = mirror->sync();
        return Autosave::Snapshot{m_session->capture(m_currentPath, false), labels.labels, labels.copyWhole};
    }, this);
    // An accepted result is the work of a whole run: kept at once, not at the next interval.
    connect(live, &LiveSegmentation::accepted, m_autosave, &Autosave::saveNow);
    connect(m_autosave, &Autosave::failed, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
}

void MainWindow::setTitle(const QString& base) {
    // "[*]" is where Qt shows the modified mark ("*") while windowModified is set.
    setWindowTitle(base.isEmpty() ? QString("Lucent[*]") : base + "[*] - Lucent");
}

bool MainWindow::confirmUnsavedWork(const QString& action) {
    if (!m_work.modified()) return true;
    QMessageBox box(QMessageBox::Warning, "Unsaved changes",
                    QString("The labels, measurements or segmentation of this volume have changed since they were "
                            "last saved%1. Save them before %2?")
                        .arg(m_work.runPending() ? " (and a segmentation run is not accepted)" : "", action),
                    QMessageBox::NoButton, this);
    box.setObjectName("unsavedChanges");
    QPushButton* save = box.addButton("Save session", QMessageBox::AcceptRole);
    save->setObjectName("saveSession");
    QPushButton* exportLabels = box.addButton("Export labels", QMessageBox::ActionRole);
    exportLabels->setObjectName("exportLabels");
    box.addButton(QMessageBox::Discard)->setObjectName("discard");
    box.addButton(QMessageBox::Cancel)->setObjectName("cancel");
    box.setDefaultButton(save);
    box.setEscapeButton(QMessageBox::Cancel);
    exportLabels->setEnabled(m_model.labels() != nullptr);
    box.exec();
    if (box.clickedButton() == save) return saveSessionInteractive(false);
    if (box.clickedButton() == exportLabels) {
        m_labelFiles->exportDialog();
        return !m_work.changed(WorkState::Part::Labels);  // exported, else cancelled or failed
    }
    return box.standardButton(box.clickedButton()) == QMessageBox::Discard;
}

bool MainWindow::recoverAtStart(bool withoutAsking) {
    std::vector<RecoveryCopy> copies = RecoveryCopies::orphaned(m_autosave->folder());
    for (const RecoveryCopy& copy : copies) {
        if (!withoutAsking) {
            QMessageBox box(QMessageBox::Question, "Recover unsaved work",
                            "Lucent did not close normally. A recovery copy of unsaved work was kept:\n\n" +
                                copy.describe() + "\n\nRestore it, discard it, or decide later (it is kept)?",
                            QMessageBox::NoButton, this);
            box.setObjectName("recoverWork");
            QPushButton* restore = box.addButton("Restore", QMessageBox::AcceptRole);
            QPushButton* discard = box.addButton("Discard", QMessageBox::DestructiveRole);
            box.addButton("Later", QMessageBox::RejectRole);
            box.setDefaultButton(restore);
            box.exec();
            if (box.clickedButton() == discard) {
                RecoveryCopies::remove(copy.path);
                continue;
            }
            if (box.clickedButton() != restore) continue;
        }
        QString error;
        if (restoreRecovery(copy, false, &error)) return true;
        if (withoutAsking) statusBar()->showMessage(error, 15000);
    }
    return false;
}

bool MainWindow::restoreRecovery(const RecoveryCopy& copy, bool synchronous, QString* error) {
    m_restoring = copy.lock;  // openSession() hands it to the session it reads
    const bool ok = openSession(copy.path, synchronous, error);
    m_restoring.reset();
    return ok;
}

}  // namespace lucent::ui
