/// @brief Label names and colours with their defaults.
#include "lucent/core/LabelTable.h"

#include <algorithm>
#include <stdexcept>

namespace lucent {

std::array<std::uint8_t, 3> LabelTable::defaultColour(std::uint8_t value) {
    // Red, green, blue, yellow, cyan, magenta, orange, purple: told apart over grey images at a glance.
    static const std::uint8_t base[8][3] = {{230, 40, 40},  {40, 200, 60},  {50, 110, 240}, {240, 220, 40},
                                            {40, 220, 220}, {220, 60, 220}, {250, 140, 30}, {140, 80, 220}};
    if (value == 0) return {0, 0, 0};
    const auto* c = base[(value - 1) % 8];
    return {c[0], c[1], c[2]};
}

std::string LabelTable::defaultName(std::uint8_t value) { return "Label " + std::to_string(value); }

const LabelInfo* LabelTable::find(std::uint8_t value) const {
    auto it = std::find_if(m_labels.begin(), m_labels.end(), [&](const LabelInfo& l) { return l.value == value; });
    return it == m_labels.end() ? nullptr : &*it;
}

LabelInfo* LabelTable::find(std::uint8_t value) {
    return const_cast<LabelInfo*>(static_cast<const LabelTable*>(this)->find(value));
}

LabelInfo& LabelTable::ensure(std::uint8_t value) {
    if (value == 0) throw std::invalid_argument("label 0 is the background");
    if (LabelInfo* l = find(value)) return *l;
    LabelInfo info;
    info.value = value;
    info.name = defaultName(value);
    info.rgb = defaultColour(value);
    set(info);
    return *find(value);
}

void LabelTable::set(const LabelInfo& info) {
    if (info.value == 0) throw std::invalid_argument("label 0 is the background");
    if (LabelInfo* l = find(info.value)) {
        *l = info;
        return;
    }
    auto at = std::lower_bound(m_labels.begin(), m_labels.end(), info.value,
                               [](const LabelInfo& l, std::uint8_t v) { return l.value < v; });
    m_labels.insert(at, info);
}

void LabelTable::remove(std::uint8_t value) {
    std::erase_if(m_labels, [&](const LabelInfo& l) { return l.value == value; });
}

std::uint8_t LabelTable::nextFreeValue() const {
    for (int v = 1; v < 256; ++v)
        if (!find(std::uint8_t(v))) return std::uint8_t(v);
    return 0;
}

std::string LabelTable::nameOf(std::uint8_t value) const {
    const LabelInfo* l = find(value);
    return l ? l->name : defaultName(value);
}

std::array<std::uint8_t, 3> LabelTable::colourOf(std::uint8_t value) const {
    const LabelInfo* l = find(value);
    return l ? l->rgb : defaultColour(value);
}

}  // namespace lucent
