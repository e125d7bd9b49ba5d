/// @brief Streaming JSON writer: enough for reports and stats, with correct string escaping.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace lucent {

/// Writes a JSON document to a stream; the caller nests begin/end calls correctly.
class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out, bool pretty = true) : m_out(out), m_pretty(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    /// Starts a member of the current object; the next value call gives its value.
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(double v);
    JsonWriter& value(long long v);
    JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
    JsonWriter& value(std::size_t v) { return value(static_cast<long long>(v)); }
    JsonWriter& value(bool v);
    JsonWriter& null();
    JsonWriter& array(const std::vector<double>& values);
    JsonWriter& array(const std::vector<std::string>& values);

    static std::string escape(std::string_view s);

private:
    void separate();
    void newline();

    std::ostream& m_out;
    bool m_pretty;
    std::vector<bool> m_first;  // per open container: no element written yet
    bool m_afterKey = false;
};

}  // namespace lucent
