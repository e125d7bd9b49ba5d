/// @brief Where fuzzy C-means' accepted clusters go in the label layer: never silently into a label
/// already in use (issue 43 item 2).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace lucent::ui {

enum class ClusterTarget {
    NewLabels,  ///< each checked cluster into a label of its own that nothing uses yet (the default)
    OneLabel,   ///< every checked cluster into one label: the panel's "Accept as label"
};

/// Label values in use: `taken[v]` for a value with voxels in the layer or a name the user gave.
using TakenLabels = std::array<bool, 256>;

/// Result value c -> the label cluster c goes into, 0 for a cluster not accepted. `chosen[c - 1]`
/// says whether cluster c is accepted (missing entries: accepted). NewLabels gives the free values
/// in ascending order to the checked clusters in cluster order; when fewer are free than
/// clusters checked, the clusters past them map to 0 and `missing` counts them.
struct ClusterLabels {
    std::array<std::uint8_t, 256> labelFor{};
    int missing = 0;  ///< checked clusters left without a free label
    bool any() const;
};
ClusterLabels clusterLabels(const std::vector<bool>& chosen, int clusters, ClusterTarget target, std::uint8_t oneLabel,
                            const TakenLabels& taken);

}  // namespace lucent::ui
