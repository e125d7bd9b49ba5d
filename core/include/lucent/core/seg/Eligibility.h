/// @brief Which voxels an engine may label: inside the ROI box and where the mask is non-zero.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"

namespace lucent {

class Eligibility {
public:
    explicit Eligibility(const SegmentationRequest& r)
        : m_geometry(r.volume->geometry()), m_roi(r.roi), m_mask(r.mask ? r.mask->data() : nullptr) {}
    bool operator()(int i, int j, int k, std::size_t index) const {
        if (!m_geometry.contains(i, j, k)) return false;
        if (m_roi && !m_roi->contains(i, j, k)) return false;
        return !m_mask || m_mask[index] != 0;
    }

private:
    Geometry m_geometry;
    std::optional<VoxelBox> m_roi;
    const std::uint8_t* m_mask;
};

}  // namespace lucent
