/// @brief isStudyDateRange: eight digits on each side of an optional dash, at least one side given.
#include "lucent/pacs/StudyDateRange.h"

namespace lucent::pacs {

bool isStudyDateRange(const std::string& text) {
    const auto isDate = [](const std::string& d) {
        return d.size() == 8 && d.find_first_not_of("0123456789") == std::string::npos;
    };
    const std::size_t dash = text.find('-');
    if (dash == std::string::npos) return isDate(text);
    const std::string from = text.substr(0, dash), to = text.substr(dash + 1);
    return (from.empty() || isDate(from)) && (to.empty() || isDate(to)) && !(from.empty() && to.empty());
}

}  // namespace lucent::pacs
