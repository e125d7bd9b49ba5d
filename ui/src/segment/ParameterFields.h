/// @brief Spin boxes for rows of the parameter table (MethodParameters.h): their range, tool tip and
/// unit come from the row, so a panel or dialog writes none of them. A range with no upper end is
/// capped for the box (kFieldCap); an open lower end starts one decimal step above it.
#pragma once

#include "lucent/core/seg/MethodParameters.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace lucent::ui {

/// The largest value a box offers where the row has no upper limit.
inline constexpr double kFieldCap = 1e6;

/// The row of `method` whose key is `key`; the program stops on a key no row has (a typo a test finds).
const Parameter& parameterRow(Method method, std::string_view key);
QSpinBox* integerField(const Parameter& row, const char* objectName, QWidget* parent);
QDoubleSpinBox* numberField(const Parameter& row, int decimals, const char* objectName, QWidget* parent);

}  // namespace lucent::ui
