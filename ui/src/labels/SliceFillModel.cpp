/// @brief SliceFillModel: the fill as a recorded step held as a preview; cancel undoes it while it is
/// still the layer's last change.
#include "lucent/ui/SliceFillModel.h"

#include "lucent/ui/ViewerModel.h"

namespace lucent::ui {

SliceFillModel::SliceFillModel(ViewerModel* model, QObject* parent) : QObject(parent), m_model(model) {
    // Any other change of the layer (a stroke, undo, a new mask or volume) keeps the preview as it
    // is: from then on it is an ordinary step of the history.
    connect(m_model, &ViewerModel::labelsChanged, this, [this] {
        if (m_previewing && m_model->labelGeneration() != m_generation) end();
    });
    connect(m_model, &ViewerModel::volumeChanged, this, [this] {
        if (m_previewing) end();
    });
}

bool SliceFillModel::preview(int axis, const std::vector<std::uint8_t>& labels, QString* why) {
    auto refuse = [why](const QString& text) {
        if (why) *why = text;
        return false;
    };
    if (m_previewing) accept();  // a second fill keeps the first
    if (!m_model->hasVolume()) return refuse("Open a volume first");
    if (labels.empty()) return refuse("No label chosen to fill");
    const std::shared_ptr<const LabelMap> layer = m_model->labels();
    for (std::uint8_t v : labels) {
        const QString name = QString::fromStdString(m_model->labelTable().nameOf(v));
        const LabelInfo* info = m_model->labelTable().find(v);
        if (info && info->locked) return refuse(name + " is locked: unlock it to fill it");
        if (!layer || layer->count(v) == 0) return refuse(name + " has no voxel to fill between");
    }
    SliceFillOptions options;
    options.axis = axis;
    options.labels = labels;
    SliceFillReport report;
    const bool changed =
        m_model->editLabels([&](LabelMap& map) { report = fillBetweenSlices(map, options); }, kStepName);
    m_report = report;
    if (!changed)
        return refuse(
            QString("Nothing to fill: no slices of %1 lie between slices holding the label").arg(axisName(axis)));
    m_previewing = true;
    m_generation = m_model->labelGeneration();
    emit previewChanged(true);
    return true;
}

QString SliceFillModel::summary() const {
    QStringList lines;
    for (const LabelFillFigures& f : m_report.labels)
        lines << QString("%1 filled on %2 slices of %3 (%4 voxels)")
                     .arg(QString::fromStdString(m_model->labelTable().nameOf(f.label)))
                     .arg(f.filledSlices)
                     .arg(axisName(m_report.axis))
                     .arg(qulonglong(f.voxelsAdded));
    return lines.join("\n");
}

void SliceFillModel::accept() {
    if (m_previewing) end();
}

bool SliceFillModel::cancel() {
    if (!m_previewing) return false;
    const bool ours = m_model->labelGeneration() == m_generation && m_model->history().undoText() == kStepName;
    end();  // before the undo, whose labelsChanged is no foreign change
    return ours && m_model->undo();
}

void SliceFillModel::end() {
    m_previewing = false;
    emit previewChanged(false);
}

}  // namespace lucent::ui
