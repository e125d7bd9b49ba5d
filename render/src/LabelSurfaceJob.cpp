/// @brief The surface job's thread: wait for a request, build, report unless cancelled.
#include "lucent/render/LabelSurfaceJob.h"

#include "lucent/core/StageTimes.h"

#include <optional>

namespace lucent::render {

LabelSurfaceJob::LabelSurfaceJob(Done done, std::size_t maxTriangles)
    : m_done(std::move(done)), m_maxTriangles(maxTriangles), m_thread([this] { loop(); }) {}

LabelSurfaceJob::~LabelSurfaceJob() {
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
        m_next.reset();
        m_cancel = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void LabelSurfaceJob::request(LabelMap labels, int serial) {
    {
        std::lock_guard lock(m_mutex);
        m_next.emplace(std::move(labels), serial);
        m_cancel = true;  // the build in progress (if any) is stale now
    }
    m_wake.notify_all();
}

void LabelSurfaceJob::cancel() {
    std::lock_guard lock(m_mutex);
    m_next.reset();
    m_cancel = true;
}

void LabelSurfaceJob::loop() {
    while (true) {
        std::pair<LabelMap, int> job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_quit || m_next; });
            if (m_quit) return;
            job = std::move(*m_next);
            m_next.reset();
            m_cancel = false;
        }
        std::optional<stages::Scope> building(std::in_place, "3D pane: surfaces built (own thread)");
        auto surfaces = buildLabelSurfacesWithin(job.first, m_maxTriangles, &m_cancel);
        building.reset();
        {
            std::lock_guard lock(m_mutex);
            // A request or cancel that came during the build makes this result stale.
            if (m_cancel || m_quit) continue;
        }
        // Outside the lock, so `done` may request again; a request racing with this report is
        // told apart by its serial.
        m_done(std::move(surfaces), job.second);
    }
}

}  // namespace lucent::render
