/// @brief The File menu's label items: Import labels, Export labels, Export labels as DICOM SEG (greyed with
/// its reason while the volume has no DICOM source, following the model) and Close labels.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;

namespace lucent::ui {

class LabelFiles;
class ViewerModel;

/// Keeps `action` enabled only while the model's volume has the DICOM source a SEG references
/// (LabelFiles::dicomSegUnavailable): its text `text`, else `unavailable` with the reason in
/// parentheses; its tool and status tips `tip`, else "A DICOM SEG " and the reason.
void followDicomSource(QAction* action, const ViewerModel& model, const QString& text, const QString& unavailable,
                       const QString& tip);

class LabelFileActions : public QObject {
    Q_OBJECT
public:
    LabelFileActions(ViewerModel* model, LabelFiles* files, QObject* parent = nullptr);

    /// Import labels..., Export labels..., Export labels as DICOM SEG...
    void addTo(QMenu* file);
    /// Close labels.
    void addCloseTo(QMenu* file);

    QAction* exportDicomSeg() const { return m_dicomSeg; }
    QAction* closeLabels() const { return m_close; }

private:
    ViewerModel* m_model;
    LabelFiles* m_files;
    QAction *m_import, *m_export, *m_dicomSeg, *m_close;
};

}  // namespace lucent::ui
