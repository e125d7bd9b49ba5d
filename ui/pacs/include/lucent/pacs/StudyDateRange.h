/// @brief The one rule for a study date key: YYYYMMDD, or a range with either end open (the CLI's --study-date, the
/// viewer's query form).
#pragma once

#include <string>

namespace lucent::pacs {

/// True for YYYYMMDD, YYYYMMDD-, -YYYYMMDD and YYYYMMDD-YYYYMMDD (DICOM date range matching).
bool isStudyDateRange(const std::string& text);

}  // namespace lucent::pacs
