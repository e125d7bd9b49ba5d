/// @brief JSON writer implementation.
#include "lucent/core/JsonWriter.h"

#include <cmath>
#include <cstdio>

namespace lucent {

std::string JsonWriter::escape(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out;
}

void JsonWriter::newline() {
    if (!m_pretty) return;
    m_out << '\n' << std::string(2 * m_first.size(), ' ');
}

void JsonWriter::separate() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back()) m_out << ',';
        m_first.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    separate();
    m_out << '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool wasEmpty = m_first.back();
    m_first.pop_back();
    if (!wasEmpty) newline();
    m_out << '}';
    if (m_first.empty() && m_pretty) m_out << '\n';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separate();
    m_out << '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool wasEmpty = m_first.back();
    m_first.pop_back();
    if (!wasEmpty) newline();
    m_out << ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    m_out << '"' << escape(name) << "\":" << (m_pretty ? " " : "");
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    separate();
    m_out << '"' << escape(s) << '"';
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    separate();
    if (!std::isfinite(v)) {
        m_out << "null";  // JSON has no NaN or infinity
    } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v);
        m_out << buf;
    }
    return *this;
}

JsonWriter& JsonWriter::value(long long v) {
    separate();
    m_out << v;
    return *this;
}

JsonWriter& JsonWriter::value(bool v) {
    separate();
    m_out << (v ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    m_out << "null";
    return *this;
}

JsonWriter& JsonWriter::array(const std::vector<double>& values) {
    const bool pretty = m_pretty;
    beginArray();
    m_pretty = false;  // short numeric arrays stay on one line
    for (double v : values) value(v);
    endArray();
    m_pretty = pretty;
    return *this;
}

JsonWriter& JsonWriter::array(const std::vector<std::string>& values) {
    beginArray();
    for (const auto& v : values) value(v);
    return endArray();
}

}  // namespace lucent
