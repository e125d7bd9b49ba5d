/// @brief LabelMap counting.
#include "lucent/core/LabelMap.h"

#include <algorithm>

namespace lucent {

std::size_t LabelMap::count(std::uint8_t label) const {
    return static_cast<std::size_t>(std::count(m_labels.begin(), m_labels.end(), label));
}

}  // namespace lucent
