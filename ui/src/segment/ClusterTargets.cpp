/// @brief clusterLabels: checked clusters to free label values, or all into one.
#include "lucent/ui/ClusterTargets.h"

#include <algorithm>

namespace lucent::ui {

bool ClusterLabels::any() const {
    return std::any_of(labelFor.begin(), labelFor.end(), [](std::uint8_t l) { return l != 0; });
}

ClusterLabels clusterLabels(const std::vector<bool>& chosen, int clusters, ClusterTarget target, std::uint8_t oneLabel,
                            const TakenLabels& taken) {
    ClusterLabels out;
    int nextFree = 1;
    for (int c = 1; c <= clusters && c < 256; ++c) {
        if (std::size_t(c) <= chosen.size() && !chosen[std::size_t(c - 1)]) continue;
        if (target == ClusterTarget::OneLabel) {
            out.labelFor[std::size_t(c)] = oneLabel;
            continue;
        }
        while (nextFree < 256 && taken[std::size_t(nextFree)]) ++nextFree;
        if (nextFree >= 256) {
            ++out.missing;
            continue;
        }
        out.labelFor[std::size_t(c)] = std::uint8_t(nextFree++);
    }
    return out;
}

}  // namespace lucent::ui
