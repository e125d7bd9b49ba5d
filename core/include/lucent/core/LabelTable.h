/// @brief What each label value of a label layer means: name, colour, opacity, visibility, lock.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent {

/// One label of a label layer. Value 0 is the background and never has an entry.
struct LabelInfo {
    std::uint8_t value = 1;
    std::string name;
    std::array<std::uint8_t, 3> rgb{230, 40, 40};
    float opacity = 1.0f;   ///< multiplies the view's overlay opacity
    bool visible = true;
    bool locked = false;    ///< edits and accepted results leave its voxels alone
};

/// The labels of a layer, kept sorted by value. Every exporter (SEG segment names and colours, NRRD
/// segment fields, OBJ groups), the label panel and the views read the same table, so a label is
/// called and coloured the same everywhere.
class LabelTable {
public:
    /// The colour a label gets when nobody chose one: distinct saturated colours first.
    static std::array<std::uint8_t, 3> defaultColour(std::uint8_t value);
    /// "Label N".
    static std::string defaultName(std::uint8_t value);

    const std::vector<LabelInfo>& labels() const { return m_labels; }
    bool empty() const { return m_labels.empty(); }
    /// The entry of `value`, or null.
    const LabelInfo* find(std::uint8_t value) const;
    LabelInfo* find(std::uint8_t value);
    /// The entry of `value`, made with the default name and colour when missing; value 0 throws
    /// std::invalid_argument (the background is not a label).
    LabelInfo& ensure(std::uint8_t value);
    /// Adds or replaces the entry of `info.value`.
    void set(const LabelInfo& info);
    void remove(std::uint8_t value);
    /// The smallest value without an entry (1..255), 0 when all are taken.
    std::uint8_t nextFreeValue() const;
    /// Name of `value`: its entry's, else the default.
    std::string nameOf(std::uint8_t value) const;
    /// Colour of `value`: its entry's, else the default.
    std::array<std::uint8_t, 3> colourOf(std::uint8_t value) const;

private:
    std::vector<LabelInfo> m_labels;
};

}  // namespace lucent
