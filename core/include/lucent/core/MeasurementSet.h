/// @brief The measurements of one volume: added, edited and deleted by id, their figures kept up to
/// date from the volume's voxels (Qt-free; the viewer's panel and tools share one set).
#pragma once

#include "lucent/core/Measurement.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace lucent {

class MeasurementSet {
public:
    /// The volume the ROIs read; replacing it drops every measurement (they belong to its grid).
    void setVolume(std::shared_ptr<const Volume> volume);
    const std::shared_ptr<const Volume>& volume() const { return m_volume; }

    /// Adds `m` with a fresh id (ids are never reused while the set lives), computes its figures
    /// and returns the id. Throws std::invalid_argument when its points do not fit its kind, or it
    /// is an ROI and there is no volume.
    int add(Measurement m);
    /// Moves point `index` of measurement `id` and recomputes it; false when there is no such point.
    bool movePoint(int id, int index, Vec3 patient);
    /// False when there is no such id.
    bool remove(int id);
    void clear();

    const std::vector<Measurement>& all() const { return m_items; }
    /// Null when there is no such id.
    const Measurement* find(int id) const;
    /// Grows with every change (views and lists compare it to redraw only when needed).
    std::uint64_t revision() const { return m_revision; }

private:
    std::shared_ptr<const Volume> m_volume;
    std::vector<Measurement> m_items;
    int m_nextId = 1;
    std::uint64_t m_revision = 0;
};

}  // namespace lucent
