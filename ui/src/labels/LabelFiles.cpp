/// @brief Label import and export for the viewer: io::readLabelFile / writeLabelFile behind dialogs and a worker thread.
#include "lucent/io/FileSuffixes.h"
#include "lucent/ui/LabelFiles.h"

#include "CrossThread.h"
#include "lucent/core/Errors.h"
#include "lucent/ui/ViewerModel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QEventLoop>
#include <QTimer>

#include <atomic>
#include <exception>

namespace lucent::ui {

namespace {

constexpr const char* kDicomSegFilter = "DICOM SEG (*.dcm)";

/// The export formats; DICOM SEG only where the volume came from a DICOM series (a SEG references
/// the images it segments: offering it elsewhere would only refuse after a file was chosen).
QString exportFilters(bool dicomSource) {
    return QString("NIfTI (*.nii.gz *.nii);;Slicer segmentation / NRRD (*.seg.nrrd *.nrrd);;MetaImage (*.mha);;") +
           (dicomSource ? QString(kDicomSegFilter) + ";;" : QString()) + "STL surface (*.stl);;OBJ surfaces (*.obj)";
}

/// "12.3 kB", "4.5 MB": a file's size as a person reads it.
QString readableSize(qint64 bytes) {
    if (bytes < 1024) return QString("%1 bytes").arg(bytes);
    if (bytes < 1024 * 1024) return QString("%1 kB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QString("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

/// The labels to export and, for surfaces, the space: a small dialog over the layer's labels.
bool chooseLabels(QWidget* parent, const ViewerModel& model, const std::vector<std::uint8_t>& present, bool surfaces,
                  std::vector<std::uint8_t>& chosen, bool& ras) {
    QDialog dialog(parent);
    dialog.setWindowTitle("Export labels");
    auto* form = new QFormLayout(&dialog);
    auto* list = new QListWidget(&dialog);
    for (auto v : present) {
        const auto rgb = model.labelTable().colourOf(v);
        auto* item = new QListWidgetItem(QString("%1  %2").arg(v).arg(QString::fromStdString(model.labelTable().nameOf(v))), list);
        item->setData(Qt::UserRole, int(v));
        item->setData(Qt::DecorationRole, QColor(rgb[0], rgb[1], rgb[2]));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    form->addRow("Labels", list);
    QComboBox* space = nullptr;
    if (surfaces) {
        space = new QComboBox(&dialog);
        space->addItems({"LPS (DICOM, Slicer)", "RAS"});
        form->addRow("Coordinates", space);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    chosen.clear();
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked) chosen.push_back(std::uint8_t(list->item(i)->data(Qt::UserRole).toInt()));
    ras = space && space->currentIndex() == 1;
    return !chosen.empty();
}

}  // namespace

LabelFiles::LabelFiles(ViewerModel* model, QWidget* window) : QObject(window), m_model(model), m_window(window) {}

bool LabelFiles::importFile(const QString& path, QString* error) {
    if (!m_model->hasVolume()) {
        if (error) *error = "Open a volume before its labels.";
        return false;
    }
    try {
        auto contents = io::readLabelFile(path.toStdString(), m_model->volume()->geometry());
        QString why;
        if (!m_model->setLabels(std::make_shared<LabelMap>(std::move(contents.labels)), path, why)) {
            if (error) *error = why;
            return false;
        }
        // The file's names and colours, over the defaults setLabels gave its values.
        LabelTable table = m_model->labelTable();
        for (const LabelInfo& info : contents.table.labels()) table.set(info);
        m_model->setLabelTable(table);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool LabelFiles::exportFile(const QString& path, const std::vector<std::uint8_t>& labels, bool ras, bool interactive,
                            QString* error) {
    if (!m_model->hasVolume() || !m_model->labels()) {
        if (error) *error = "There are no labels to export.";
        return false;
    }
    // The worker writes from copies: the layer may be edited (and the table renamed) meanwhile.
    auto layer = std::make_shared<LabelMap>(*m_model->labels());
    const LabelTable table = m_model->labelTable();
    io::LabelExportOptions options;
    options.labels = labels;
    options.ras = ras;
    options.sourceSliceFiles = m_model->volume()->metadata().sliceFiles;
    std::atomic<bool> stop{false};
    std::atomic<int> permille{0};
    options.progress = [&](std::size_t done, std::size_t total) {
        if (total) permille = int(1000.0 * double(done) / double(total));
        return !stop.load();
    };
    const std::string out = path.toStdString();
    auto job = PoolTask<QString>::start([layer, table, options, out]() -> QString {
        try {
            io::writeLabelFile(*layer, table, out, options);
            return {};
        } catch (const Cancelled&) {
            return "Export cancelled; nothing was written.";
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    });
    QProgressDialog progress("Exporting " + path + "...", "Cancel", 0, 1000, m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(interactive ? 300 : 1 << 30);
    // The GUI keeps running while the worker writes: a local event loop that a timer ends.
    QEventLoop wait;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &wait, [&] {
        if (interactive) {
            progress.setValue(permille.load());
            if (progress.wasCanceled()) stop = true;
        }
        if (job.isFinished()) wait.quit();
    });
    tick.start(30);
    if (!job.isFinished()) wait.exec();
    tick.stop();
    progress.reset();
    const QString why = job.take();
    if (!why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    QStringList names;
    for (std::uint8_t v : labels.empty() ? io::presentLabels(*layer) : labels) names << QString::number(v);
    emit exported(QString("Exported label%1 %2 to %3 (%4)")
                      .arg(names.size() == 1 ? "" : "s", names.join(", "), path, readableSize(QFileInfo(path).size())));
    return true;
}

void LabelFiles::importDialog() {
    const QString path = QFileDialog::getOpenFileName(m_window, "Import labels", {},
                                                      QString("Label files (%1);;All files (*)")
                                                          .arg(QString::fromStdString(io::globPattern(io::kLabelReadSuffixes))));
    if (path.isEmpty()) return;
    QString error;
    if (!importFile(path, &error)) QMessageBox::warning(m_window, "Cannot import labels", error);
}

QString LabelFiles::dicomSegUnavailable(const ViewerModel& model) {
    if (!model.hasVolume()) return "open a DICOM series first";
    if (model.volume()->metadata().sliceFiles.empty()) return "needs a volume read from a DICOM series";
    return {};
}

void LabelFiles::exportDialog(bool dicomSegOnly) {
    if (!m_model->labels()) return (void)QMessageBox::information(m_window, "Export labels", "There are no labels to export.");
    const auto present = io::presentLabels(*m_model->labels());
    if (present.empty()) return (void)QMessageBox::information(m_window, "Export labels", "The label layer is empty.");
    const QString segWhyNot = dicomSegUnavailable(*m_model);
    if (dicomSegOnly && !segWhyNot.isEmpty())
        return (void)QMessageBox::information(m_window, "Export labels as DICOM SEG", "A DICOM SEG " + segWhyNot + ".");
    QString filter;
    // QFileDialog asks before replacing an existing file.
    const bool dicomSource = segWhyNot.isEmpty();
    QString path = QFileDialog::getSaveFileName(m_window, dicomSegOnly ? "Export labels as DICOM SEG" : "Export labels", {},
                                                dicomSegOnly ? QString(kDicomSegFilter) : exportFilters(dicomSource), &filter);
    if (path.isEmpty()) return;
    if (!io::isLabelExportName(path.toStdString())) {
        // The filter's first extension when the name has none we know.
        const int open = filter.indexOf("*."), close = filter.indexOf(' ', open);
        path += filter.mid(open + 1, (close < 0 ? filter.indexOf(')', open) : close) - open - 1);
    }
    const bool surfaces = path.endsWith(".stl", Qt::CaseInsensitive) || path.endsWith(".obj", Qt::CaseInsensitive);
    if (path.endsWith(".dcm", Qt::CaseInsensitive) && !dicomSource)
        return (void)QMessageBox::warning(m_window, "Cannot export labels",
                                          "A DICOM SEG references the DICOM images it segments: this volume was not read "
                                          "from a DICOM series.");
    std::vector<std::uint8_t> chosen;
    bool ras = false;
    if (!chooseLabels(m_window, *m_model, present, surfaces, chosen, ras)) return;
    QString error;
    if (!exportFile(path, chosen, ras, true, &error)) QMessageBox::warning(m_window, "Cannot export labels", error);
}

}  // namespace lucent::ui
