/// @brief Builds label surfaces on a thread of its own, the latest request winning: a newer label
/// map cancels the build in progress, so the GUI never waits for a mesh (Qt-free).
#pragma once

#include "lucent/render/LabelSurfaces.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace lucent::render {

class LabelSurfaceJob {
public:
    /// Called on the job's thread with the surfaces of request `serial` (null: no labelled voxel).
    using Done = std::function<void(std::shared_ptr<const LabelSurfaces> surfaces, int serial)>;

    /// `maxTriangles` > 0 builds with buildLabelSurfacesWithin (coarser until within it).
    explicit LabelSurfaceJob(Done done, std::size_t maxTriangles = 0);
    /// Cancels the build in progress and joins the thread.
    ~LabelSurfaceJob();
    LabelSurfaceJob(const LabelSurfaceJob&) = delete;
    LabelSurfaceJob& operator=(const LabelSurfaceJob&) = delete;

    /// Builds the surfaces of `labels` (a copy the job owns); an older request still waiting is
    /// dropped and one being built is cancelled.
    void request(LabelMap labels, int serial);
    /// Drops what waits and cancels what runs (its result is not reported).
    void cancel();

private:
    void loop();

    Done m_done;
    std::size_t m_maxTriangles;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<std::pair<LabelMap, int>> m_next;
    std::atomic<bool> m_cancel{false};
    bool m_quit = false;
    std::thread m_thread;
};

}  // namespace lucent::render
