/// @brief DICOM tags, Keyboard shortcuts and About Lucent (InfoActions.h).
#include "lucent/ui/InfoActions.h"

#include "ActionBinding.h"

#include "lucent/core/Version.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/io/DicomReader.h"
#include "lucent/ui/DicomTagDialog.h"
#include "lucent/ui/ShortcutsDialog.h"
#include "lucent/ui/ViewerModel.h"

#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>

#include <cmath>

namespace lucent::ui {

InfoActions::InfoActions(ViewerModel* model, QMainWindow* window, QObject* parent)
    : QObject(parent), m_model(model), m_window(window) {
    m_tags = makeAction(this, "DICOM &tags...", {QKeySequence("Ctrl+T")});
    connect(m_tags, &QAction::triggered, this, &InfoActions::showTags);
    m_shortcuts = makeAction(this, "Keyboard &shortcuts", {QKeySequence(Qt::Key_F1)}, "shortcutsAction");
    connect(m_shortcuts, &QAction::triggered, this, [this] {
        ShortcutsDialog dialog(m_window, m_window);
        dialog.exec();
    });
    m_about = makeAction(this, "&About Lucent");
    connect(m_about, &QAction::triggered, this, &InfoActions::showAbout);
}

void InfoActions::addTagsTo(QMenu* file) { file->addAction(m_tags); }

void InfoActions::addHelpTo(QMenu* help) { help->addActions({m_shortcuts, m_about}); }

void InfoActions::showTags() {
    const auto fail = [this](const QString& why) { QMessageBox::critical(m_window, "DICOM tags", why); };
    if (!m_model->hasVolume()) return fail("Open a DICOM series first.");
    const int k = int(std::lround(m_model->cursor().z));
    const QString file = m_model->sliceFile(k);
    if (file.isEmpty())
        return fail("Slice " + QString::number(k + 1) + " has no DICOM file (a volume file, or a filled gap).");
    try {
        DicomTagDialog dialog(file, io::DicomReader::dumpTags(file.toStdString()), m_window);
        dialog.exec();
    } catch (const std::exception& e) {
        fail(QString::fromStdString(e.what()));
    }
}

void InfoActions::showAbout() {
    QMessageBox::about(m_window, "About Lucent",
                       QString("<h3>Lucent " + QString(kVersion) + "</h3><p>CT and MR viewer with GPU-resident segmentation.</p>"
                               "<p>DICOM: %1</p><pre>%2</pre>")
                           .arg(io::DicomReader::available() ? "DCMTK" : "not built")
                           .arg(QString::fromStdString(gpu::describeBackends()).toHtmlEscaped()));
}

}  // namespace lucent::ui
