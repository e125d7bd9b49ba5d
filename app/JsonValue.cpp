/// @brief Recursive-descent JSON parsing for JsonValue.
#include "JsonValue.h"

#include <charconv>
#include <stdexcept>

namespace lucent::app {

const JsonValue* JsonValue::find(const std::string& key) const {
    if (type != Type::Object) return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
}

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    JsonValue document() {
        JsonValue v = value(0);
        skipSpace();
        if (m_at != m_text.size()) fail("text after the document");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error("JSON syntax error at byte " + std::to_string(m_at) + ": " + what);
    }
    void skipSpace() {
        while (m_at < m_text.size() &&
               (m_text[m_at] == ' ' || m_text[m_at] == '\t' || m_text[m_at] == '\n' || m_text[m_at] == '\r'))
            ++m_at;
    }
    bool take(char c) {
        skipSpace();
        if (m_at < m_text.size() && m_text[m_at] == c) return ++m_at, true;
        return false;
    }
    void expect(char c) {
        if (!take(c)) fail(std::string("expected '") + c + "'");
    }
    bool word(std::string_view w) {
        if (m_text.substr(m_at, w.size()) != w) return false;
        m_at += w.size();
        return true;
    }

    JsonValue value(int depth) {
        // Nesting is bounded so that a hostile file cannot exhaust the stack.
        if (depth > 64) fail("nesting deeper than 64");
        skipSpace();
        JsonValue v;
        if (take('{')) {
            v.type = JsonValue::Type::Object;
            if (take('}')) return v;
            do {
                skipSpace();
                std::string key = string();
                expect(':');
                v.object[key] = value(depth + 1);
            } while (take(','));
            expect('}');
        } else if (take('[')) {
            v.type = JsonValue::Type::Array;
            if (take(']')) return v;
            do v.array.push_back(value(depth + 1));
            while (take(','));
            expect(']');
        } else if (m_at < m_text.size() && m_text[m_at] == '"') {
            v.type = JsonValue::Type::String;
            v.string = string();
        } else if (word("true")) {
            v.type = JsonValue::Type::Bool;
            v.boolean = true;
        } else if (word("false")) {
            v.type = JsonValue::Type::Bool;
        } else if (word("null")) {
        } else {
            v.type = JsonValue::Type::Number;
            v.number = number();
        }
        return v;
    }

    double number() {
        double d = 0;
        const char* begin = m_text.data() + m_at;
        const auto [end, ec] = std::from_chars(begin, m_text.data() + m_text.size(), d);
        if (ec != std::errc() || end == begin) fail("expected a value");
        m_at += std::size_t(end - begin);
        return d;
    }

    std::string string() {
        if (m_at >= m_text.size() || m_text[m_at] != '"') fail("expected a string");
        std::string out;
        for (++m_at; m_at < m_text.size(); ++m_at) {
            const char c = m_text[m_at];
            if (c == '"') return ++m_at, out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (++m_at >= m_text.size()) break;
            const char e = m_text[m_at];
            const std::string_view plain = "\"\\/bfnrt", meant = "\"\\/\b\f\n\r\t";
            if (const auto p = plain.find(e); p != std::string_view::npos)
                out += meant[p];
            else if (e == 'u' && m_at + 4 < m_text.size()) {
                // Names and labels only: a \u escape is kept as '?' rather than decoded.
                out += '?';
                m_at += 4;
            } else
                fail("bad escape");
        }
        fail("unterminated string");
    }

    std::string_view m_text;
    std::size_t m_at = 0;
};

}  // namespace

JsonValue parseJson(std::string_view text) { return Parser(text).document(); }

}  // namespace lucent::app
