/// @brief The recovery copy's cost at large sizes: a ViewerModel with an N^3 label layer (default
/// 1024^3: a ball and a box of two labels and a scatter of painted voxels), captured through
/// SessionBinding as the window does, then written by Autosave on its worker. Prints the GUI
/// thread's part (capture: a changed box of the layer copied), the worker's (the whole layer copied
/// after a change of unknown extent, run-length code, deflate, write, rename), the copy's size, and
/// the longest gap between 16 ms GUI timer ticks while the worker writes (the frame the user would see).
/// usage: lucent_bench_autosave [--size N] [--runs R] [--folder DIR]   (R copies after brush dabs, after the
/// first; then one after a whole-layer change)
#include "lucent/ui/Autosave.h"
#include "lucent/ui/LabelMirror.h"
#include "lucent/ui/SessionBinding.h"
#include "lucent/ui/ViewerModel.h"
#include "lucent/ui/WorkState.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace lucent;
using namespace lucent::ui;

namespace {

/// The layer a long sitting leaves: two large structures and a few thousand brush dabs.
void paintLayer(LabelMap& m, int n) {
    const double c = n / 2.0, r = n / 4.0;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j) {
            std::uint8_t* row = m.data() + (std::size_t(k) * n + j) * n;
            for (int i = 0; i < n; ++i) {
                const double d2 = (i - c) * (i - c) + (j - c) * (j - c) + (k - c) * (k - c);
                if (d2 < r * r) row[i] = 1;
                else if (i < n / 8 && j < n / 8) row[i] = 2;
            }
        }
    std::mt19937 rng(26);
    std::uniform_int_distribution<std::size_t> at(0, m.voxelCount() - 1);
    for (int dab = 0; dab < 5000; ++dab) m.data()[at(rng)] = 3;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int n = 1024, runs = 3;
    QString folder;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--size")) n = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--folder")) folder = argv[i + 1];
    }
    QTemporaryDir temporary;
    if (folder.isEmpty()) folder = temporary.path();
    Geometry g;
    g.dims = {n, n, n};
    g.spacing = {0.5, 0.5, 0.5};
    ViewerModel model;
    SeriesInfo info;
    info.id = "/data/bench.nii";
    // The volume's voxels are never read here: a float volume of one voxel would not take labels of
    // this grid, so the real size is allocated (int16, 2 bytes a voxel).
    model.setVolume(std::make_shared<Volume>(g, PixelType::Int16), info, "auto");
    paintLayer(model.labelLayer(), n);
    model.labelsEdited(nullptr);
    SessionBinding session(model);
    WorkState work;
    work.follow(model);
    LabelMirror mirror(model);  // as the window captures: the session without voxels, the layer mirrored
    Autosave autosave(&work, [&]() -> std::optional<Autosave::Snapshot> {
        LabelMirror::Sync labels = mirror.sync();
        return Autosave::Snapshot{session.capture("/data/bench.nii", false), labels.labels, labels.copyWhole};
    });
    autosave.setFolder(folder);

    std::vector<double> capture, worker, gap;
    std::vector<std::size_t> copied;
    std::int64_t bytes = 0;
    for (int r = 0; r <= runs + 1; ++r) {
        if (r == runs + 1) {
            // Last, a change of unknown extent, as an accept or an undo reports it.
            model.labelLayer().at(n / 2, n / 2, n / 2) = 2;
            model.labelsEdited(nullptr);
        } else if (r > 0) {
            // A brush dab (a 9-voxel cube of label 3) between copies, as a stroke reports it.
            VoxelBox box;
            box.lo = {n / 3 + r, n / 3, n / 3};
            box.hi = {box.lo[0] + 8, box.lo[1] + 8, box.lo[2] + 8};
            for (int k = box.lo[2]; k <= box.hi[2]; ++k)
                for (int j = box.lo[1]; j <= box.hi[1]; ++j)
                    for (int i = box.lo[0]; i <= box.hi[0]; ++i) model.labelLayer().at(i, j, k) = 3;
            model.labelsEdited(&box);
        }
        work.noteChange(WorkState::Part::Labels);
        // The GUI thread's longest gap between 16 ms ticks while the copy is written.
        QElapsedTimer clock;
        qint64 last = 0, longest = 0;
        QTimer tick;
        tick.setInterval(16);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            longest = std::max(longest, now - last);
            last = now;
        });
        bool done = false;
        const auto connection = QObject::connect(&autosave, &Autosave::written, [&] { done = true; });
        clock.start();
        tick.start();
        autosave.saveNow();  // capture on this thread, then the worker
        while (!done) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        QObject::disconnect(connection);
        copied.push_back(mirror.lastCopiedBytes());
        capture.push_back(autosave.lastTiming().captureMs);
        worker.push_back(autosave.lastTiming().workerMs);
        gap.push_back(double(longest) / 1e6);
        bytes = autosave.lastTiming().bytes;
    }
    std::printf("autosave %d^3 labels (%.2f GiB), copy %.1f kB on disk\n", n, double(n) * n * n / double(1 << 30),
                double(bytes) / 1024.0);
    // The whole layer is copied by the worker (LabelMirror): the GUI thread's bytes say it never is there.
    std::printf("  first copy (the whole layer mirrored): GUI thread %.1f ms (%zu bytes copied there), worker (layer "
                "copy + encode + write + rename) %.1f ms, longest GUI tick gap %.1f ms\n",
                capture[0], copied[0], worker[0], gap[0]);
    std::printf("  after a whole-layer change (accept, undo): GUI thread %.1f ms (%zu bytes copied there), worker "
                "%.1f ms, longest GUI tick gap %.1f ms; whole-layer copies on the worker: %d\n",
                capture.back(), copied.back(), worker.back(), gap.back(), mirror.wholeCopies());
    std::vector<double> dabCapture(capture.begin() + 1, capture.end() - 1), dabWorker(worker.begin() + 1, worker.end() - 1),
        dabGap(gap.begin() + 1, gap.end() - 1);
    std::printf("  after a brush dab (median of %d): GUI thread %.2f ms (%zu bytes copied), worker %.1f ms, longest "
                "GUI tick gap %.1f ms (16 ms timer)\n",
                runs, median(dabCapture), copied[copied.size() - 2], median(dabWorker), median(dabGap));
    autosave.discard();
    return 0;
}
