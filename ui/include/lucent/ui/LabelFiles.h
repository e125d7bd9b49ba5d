/// @brief File > Import labels / Export labels: the label layer to and from every label format Lucent writes.
#pragma once

#include "lucent/io/LabelFile.h"

#include <QObject>
#include <QString>

class QWidget;

namespace lucent::ui {

class ViewerModel;

/// Moves the model's label layer (with its names and colours) to and from files: NIfTI, NRRD with
/// Slicer's segment fields, MetaImage, DICOM SEG, STL and OBJ surfaces. Writing runs on a worker
/// thread behind a progress dialog with Cancel (a SEG of a large series or a skull's surface take
/// seconds); every write is atomic, so a failed or cancelled export leaves no file and keeps an
/// existing one.
class LabelFiles : public QObject {
    Q_OBJECT
public:
    LabelFiles(ViewerModel* model, QWidget* window);

    /// Reads `path` onto the volume's grid (another grid is an error, never a resample) and makes it
    /// the label layer, with the file's label names and colours. False with `error` naming the file.
    bool importFile(const QString& path, QString* error = nullptr);
    /// Writes the layer to `path` (format from the extension). `labels` empty: every label with a
    /// voxel. Runs the write on a worker thread; with `interactive`, a progress dialog with Cancel
    /// shows meanwhile. False with `error` on failure or cancel (nothing written then).
    bool exportFile(const QString& path, const std::vector<std::uint8_t>& labels = {}, bool ras = false,
                    bool interactive = false, QString* error = nullptr);

    /// The dialogs of the File menu: choose a file (and, for export, the labels and the space of
    /// surfaces), then import or export; errors in a message box.
    void importDialog();
    /// `dicomSegOnly`: the DICOM SEG export (File > Export labels as DICOM SEG).
    void exportDialog(bool dicomSegOnly = false);
    /// Why no DICOM SEG can be written for the open volume (a SEG references the DICOM images it
    /// segments), empty when one can: the menu greys its action with this reason.
    static QString dicomSegUnavailable(const ViewerModel& model);

signals:
    /// What a finished export wrote, for the status bar: "Exported labels 1, 2 to PATH (12.3 kB)".
    void exported(const QString& summary);

private:
    ViewerModel* m_model;
    QWidget* m_window;
};

}  // namespace lucent::ui
