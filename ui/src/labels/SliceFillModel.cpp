/// @brief SliceFillModel: the fill on a worker thread (a copy of the layer, progress, stop), then
/// the result recorded as one step and held as a preview; cancel undoes it while it is still the
/// layer's last change.
#include "lucent/ui/SliceFillModel.h"

#include "lucent/core/Errors.h"
#include "lucent/gpu/SliceFillBackend.h"
#include "lucent/ui/ViewerModel.h"

#include "CrossThread.h"

namespace lucent::ui {

struct SliceFillModel::Outcome {
    std::shared_ptr<LabelMap> map;  ///< the filled copy; null when cancelled or failed
    SliceFillReport report;
    QString error;
};

namespace {
using FillTask = PoolTask<std::shared_ptr<void>>;  // holds an Outcome (the struct is private to the model)
}  // namespace

SliceFillModel::SliceFillModel(ViewerModel* model, QObject* parent) : QObject(parent), m_model(model) {
    // Any other change of the layer (a stroke, undo, a new mask or volume) keeps the preview as it
    // is: from then on it is an ordinary step of the history.
    connect(m_model, &ViewerModel::labelsChanged, this, [this] {
        if (m_previewing && m_model->labelGeneration() != m_generation) end();
    });
    connect(m_model, &ViewerModel::volumeChanged, this, [this] {
        if (m_previewing) end();
        stop();  // a fill of the old volume's labels has nowhere to go
    });
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &SliceFillModel::collect);
    m_tick.setInterval(40);
    connect(&m_tick, &QTimer::timeout, this, [this] { emit progressChanged(progress()); });
}

SliceFillModel::~SliceFillModel() {
    if (!m_running) return;
    m_run->stop = true;
    static_cast<FillTask*>(m_task.get())->waitForFinished();
}

bool SliceFillModel::start(int axis, const std::vector<std::uint8_t>& labels, QString* why) {
    auto refuse = [why](const QString& text) {
        if (why) *why = text;
        return false;
    };
    if (m_running) return refuse("A fill between slices is running already");
    if (m_previewing) accept();  // a second fill keeps the first
    if (!m_model->hasVolume()) return refuse(ViewerModel::noVolumeMessage);
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
    m_axis = axis;
    m_startGeneration = m_model->labelGeneration();
    m_run = std::make_shared<RunState>();
    // The layer stays as it is until the worker has its copy (edits wait on the token meanwhile).
    std::shared_ptr<void> token = m_model->layerReaders().hold();
    auto task = std::make_shared<FillTask>(FillTask::start([source = layer, token, options, run = m_run]() mutable {
        auto out = std::make_shared<Outcome>();
        auto map = std::make_shared<LabelMap>(*source);
        token.reset();
        source.reset();
        try {
            // Auto: CUDA for the methods it has, the CPU otherwise or when the GPU fails.
            out->report = gpu::fillBetweenSlices(*map, options, Backend::Auto, [run](std::size_t done, std::size_t total) {
                                  if (total) run->permille = int(1000.0 * double(done) / double(total));
                                  return !run->stop.load();
                              }).report;
            out->map = std::move(map);
        } catch (const Cancelled&) {
        } catch (const std::exception& e) {
            out->error = QString::fromStdString(e.what());
        }
        return std::shared_ptr<void>(std::move(out));
    }));
    m_task = task;
    m_running = true;
    m_watcher.setFuture(task->future());
    m_tick.start();
    emit progressChanged(0);
    return true;
}

bool SliceFillModel::preview(int axis, const std::vector<std::uint8_t>& labels, QString* why) {
    bool filled = false;
    const QMetaObject::Connection c = connect(this, &SliceFillModel::finished, this, [&](bool ok, const QString& text) {
        filled = ok;
        if (why && !ok) *why = text;
    });
    if (start(axis, labels, why)) wait();
    disconnect(c);
    return filled;
}

int SliceFillModel::progress() const { return m_run ? m_run->permille.load() : 0; }

void SliceFillModel::stop() {
    if (m_running) m_run->stop = true;
}

void SliceFillModel::wait() {
    if (!m_running) return;
    static_cast<FillTask*>(m_task.get())->waitForFinished();
    collect();  // now, not when the watcher's signal is delivered (collect() runs once)
}

void SliceFillModel::collect() {
    if (!m_running) return;
    m_running = false;
    m_tick.stop();
    auto* task = static_cast<FillTask*>(m_task.get());
    const auto outcome = std::static_pointer_cast<Outcome>(task->take());
    m_task.reset();
    const auto say = [this](bool filled, const QString& why) { emit finished(filled, why); };
    // A stop asked for wins over a result that came in meanwhile: the layer stays as it was.
    if (m_run->stop.load()) return say(false, "Fill between slices cancelled; the labels are as they were");
    if (!outcome->error.isEmpty()) return say(false, "Fill between slices failed: " + outcome->error);
    if (m_model->labelGeneration() != m_startGeneration || !m_model->hasVolume())
        return say(false, "The labels changed while filling between slices; nothing was filled: fill again");
    emit progressChanged(1000);
    m_report = outcome->report;
    std::shared_ptr<LabelMap> filled = outcome->map;
    const bool changed = m_model->editLabels([&](LabelMap& map) { map = std::move(*filled); }, kStepName);
    if (!changed)
        return say(false, QString("Nothing to fill: no %1 lie between slices holding the label").arg(slicesText(m_axis)));
    m_previewing = true;
    m_generation = m_model->labelGeneration();
    emit previewChanged(true);
    say(true, {});
}

QString SliceFillModel::slicesText(int axis) const {
    return m_sliceName.isEmpty() ? QString("slices of %1").arg(axisName(axis))
                                 : QString("%1 slices (%2)").arg(m_sliceName, axisName(axis));
}

QString SliceFillModel::summary() const {
    QStringList lines;
    for (const LabelFillFigures& f : m_report.labels)
        lines << QString("%1 filled on %2 %3 (%4 voxels)")
                     .arg(QString::fromStdString(m_model->labelTable().nameOf(f.label)))
                     .arg(f.filledSlices)
                     .arg(slicesText(m_report.axis))
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
