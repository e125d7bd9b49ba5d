/// @brief Labels > Fill between slices without widgets: the chosen labels filled between their
/// slices on the axis of the view in use, on a worker thread with progress and cancel, then shown as
/// a preview (one undo step, in the layer) until it is kept or cancelled.
#pragma once

#include "lucent/core/SliceFill.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace lucent::ui {

class ViewerModel;

class SliceFillModel : public QObject {
    Q_OBJECT
public:
    /// The undo step's name (Edit > Undo Fill between slices).
    static constexpr const char* kStepName = "Fill between slices";

    explicit SliceFillModel(ViewerModel* model, QObject* parent = nullptr);
    ~SliceFillModel() override;

    /// Starts filling `labels` between their slices along volume axis `axis` (0..2) on a worker
    /// thread (a copy of the layer: the layer is untouched until the fill ends). A preview shown is
    /// kept first. False, with `why` and nothing started, without a volume, with no label, for a
    /// locked label or a label with no voxel. Its end emits finished(): filled, the result is in the
    /// layer as one undo step and held as a preview; else `why` says why (cancelled, nothing to
    /// fill, the labels edited meanwhile) and the layer is as it was.
    bool start(int axis, const std::vector<std::uint8_t>& labels, QString* why = nullptr);
    /// start() and wait for its end: true when the preview holds the fill.
    bool preview(int axis, const std::vector<std::uint8_t>& labels, QString* why = nullptr);
    bool running() const { return m_running; }
    /// Progress of the running fill, 0..1000.
    int progress() const;
    /// Asks the running fill to stop: it ends with finished(false, ...) and the layer as it was,
    /// however far it got (a result that arrives after the ask is dropped).
    void stop();
    /// Waits for the running fill to end, its finished() emitted.
    void wait();
    bool previewing() const { return m_previewing; }
    /// The figures of the last fill.
    const SliceFillReport& report() const { return m_report; }
    /// "Label 1 filled on 40 slices of k (31024 voxels)", a line per label.
    QString summary() const;
    /// The name of the slices the user drew on ("axial"), said beside the volume axis in the
    /// summary and messages; empty: the axis alone (i, j, k).
    void setSliceName(QString name) { m_sliceName = std::move(name); }
    /// "axial slices (k)", or "slices of k" without a slice name.
    QString slicesText(int axis) const;
    /// Keeps the preview (the undo step stays).
    void accept();
    /// Takes the preview back (undoes its step, leaving no trace but a Redo). False when there is no
    /// preview; a change of the layer since the preview (a stroke, an undo) kept it already.
    bool cancel();

signals:
    /// The preview started or ended (kept, cancelled, or kept by another edit of the layer).
    void previewChanged(bool previewing);
    /// The running fill's progress, 0..1000 (at most every few tens of milliseconds).
    void progressChanged(int permille);
    /// A fill started with start() ended: `filled` (the preview holds it) or not, with `why`.
    void finished(bool filled, const QString& why);

private:
    struct Outcome;
    struct RunState {
        std::atomic<bool> stop{false};
        std::atomic<int> permille{0};
    };
    void end();
    void collect();

    ViewerModel* m_model;
    SliceFillReport m_report;
    bool m_previewing = false;
    int m_generation = -1;  ///< the layer's generation the preview made
    // The running fill.
    bool m_running = false;
    int m_axis = 2;
    QString m_sliceName;
    int m_startGeneration = -1;  ///< the layer's generation the fill started from
    std::shared_ptr<RunState> m_run;
    std::shared_ptr<void> m_task;  ///< PoolTask<Outcome>, behind a pointer (CrossThread.h is private)
    QFutureWatcher<void> m_watcher;
    QTimer m_tick;
};

}  // namespace lucent::ui
