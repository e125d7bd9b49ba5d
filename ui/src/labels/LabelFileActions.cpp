/// @brief The File menu's label items (LabelFileActions.h), bound to the model and the label files.
#include "lucent/ui/LabelFileActions.h"

#include "ActionBinding.h"

#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/ViewerModel.h"

#include <QMenu>

namespace lucent::ui {

void followDicomSource(QAction* action, const ViewerModel& model, const QString& text, const QString& unavailable,
                       const QString& tip) {
    // Always listed, greyed with its reason where no DICOM reference exists: the user sees that
    // Lucent writes SEGs and what it needs for one.
    auto follow = [action, &model, text, unavailable, tip] {
        const QString why = LabelFiles::dicomSegUnavailable(model);
        action->setEnabled(why.isEmpty());
        action->setText(why.isEmpty() ? text : QString("%1 (%2)").arg(unavailable, why));
        action->setToolTip(why.isEmpty() ? tip : "A DICOM SEG " + why);
        action->setStatusTip(action->toolTip());
    };
    QObject::connect(&model, &ViewerModel::volumeChanged, action, follow);
    follow();
}

LabelFileActions::LabelFileActions(ViewerModel* model, LabelFiles* files, QObject* parent)
    : QObject(parent), m_model(model), m_files(files) {
    // Label files in every format Lucent writes (NIfTI, NRRD / .seg.nrrd, MetaImage, DICOM SEG).
    m_import = makeAction(this, "&Import labels...", {QKeySequence("Ctrl+M")});
    connect(m_import, &QAction::triggered, m_files, &LabelFiles::importDialog);
    m_export = makeAction(this, "&Export labels...", {QKeySequence("Ctrl+E")});
    connect(m_export, &QAction::triggered, m_files, [this] { m_files->exportDialog(); });
    m_dicomSeg = makeAction(this, "Export labels as DICOM SE&G...", {}, "exportDicomSeg");
    connect(m_dicomSeg, &QAction::triggered, m_files, [this] { m_files->exportDialog(true); });
    followDicomSource(m_dicomSeg, *m_model, "Export labels as DICOM SE&G...", "Export labels as DICOM SEG",
                      "A DICOM SEG that references the open series");
    // One undoable step (Edit > Undo brings the voxels back), so it asks nothing.
    m_close = makeAction(this, "&Close labels", {}, "closeLabelsAction");
    connect(m_close, &QAction::triggered, m_model, [this] { m_model->closeLabels(); });
}

void LabelFileActions::addTo(QMenu* file) {
    file->addActions({m_import, m_export, m_dicomSeg});
    file->setToolTipsVisible(true);
}

void LabelFileActions::addCloseTo(QMenu* file) { file->addAction(m_close); }

}  // namespace lucent::ui
