/// @brief The measurement list of one volume, with ids and figures recomputed on every edit.
#include "lucent/core/MeasurementSet.h"

#include <algorithm>

namespace lucent {

void MeasurementSet::setVolume(std::shared_ptr<const Volume> volume) {
    m_volume = std::move(volume);
    clear();
}

int MeasurementSet::add(Measurement m) {
    computeMeasurement(m, m_volume.get());  // throws before anything changes
    m.id = m_nextId++;
    m_items.push_back(std::move(m));
    ++m_revision;
    return m_items.back().id;
}

bool MeasurementSet::movePoint(int id, int index, Vec3 patient) {
    auto it = std::find_if(m_items.begin(), m_items.end(), [id](const Measurement& m) { return m.id == id; });
    if (it == m_items.end() || index < 0 || index >= int(it->points.size())) return false;
    it->points[std::size_t(index)] = patient;
    computeMeasurement(*it, m_volume.get());
    ++m_revision;
    return true;
}

bool MeasurementSet::remove(int id) {
    auto it = std::find_if(m_items.begin(), m_items.end(), [id](const Measurement& m) { return m.id == id; });
    if (it == m_items.end()) return false;
    m_items.erase(it);
    ++m_revision;
    return true;
}

void MeasurementSet::clear() {
    m_items.clear();
    ++m_revision;
}

const Measurement* MeasurementSet::find(int id) const {
    auto it = std::find_if(m_items.begin(), m_items.end(), [id](const Measurement& m) { return m.id == id; });
    return it == m_items.end() ? nullptr : &*it;
}

}  // namespace lucent
