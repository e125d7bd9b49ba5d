/// @brief The session file's field reader: every problem an IoError naming the file and the field.
#pragma once

#include "lucent/core/Errors.h"
#include "lucent/core/Geometry.h"
#include "lucent/core/seg/ParameterLimits.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <charconv>
#include <cmath>
#include <optional>

namespace lucent::ui::session {

/// Reads one file's fields; every problem becomes an IoError naming the file and the field.
class Reader {
public:
    explicit Reader(QString source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const QString& problem) const { throw IoError((m_source + ": " + problem).toStdString()); }
    QJsonObject object(const QJsonObject& o, const char* key, bool required = false) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() && !required) return {};
        if (!v.isObject()) fail(QString("'%1' is missing or not an object").arg(key));
        return v.toObject();
    }
    QJsonArray array(const QJsonObject& o, const char* key) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return {};
        if (!v.isArray()) fail(QString("'%1' is not a list").arg(key));
        return v.toArray();
    }
    double number(const QJsonObject& o, const char* key, double fallback) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isDouble() || !std::isfinite(v.toDouble())) fail(QString("'%1' is not a number").arg(key));
        return v.toDouble();
    }
    int integer(const QJsonObject& o, const char* key, int fallback, int lo, int hi) const {
        const double d = number(o, key, fallback);
        if (d != std::floor(d) || d < lo || d > hi)
            fail(QString("'%1' must be a whole number from %2 to %3").arg(key).arg(lo).arg(hi));
        return int(d);
    }
    /// The limit's default when the key is missing.
    int integer(const QJsonObject& o, const char* key, const Limit<int>& limit) const {
        return integer(o, key, limit.byDefault, limit.min, limit.max);
    }
    /// A number within `limit` (its default when the key is missing).
    double bounded(const QJsonObject& o, const char* key, const Limit<double>& limit) const {
        const double d = number(o, key, limit.byDefault);
        if (!limit.allows(d))
            fail(QString("'%1' must be %2 %3").arg(key, limit.minOpen ? "greater than" : "at least").arg(limit.min) +
                 (std::isinf(limit.max) ? QString() : QString(" and at most %1").arg(limit.max)));
        return d;
    }
    bool boolean(const QJsonObject& o, const char* key, bool fallback) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isBool()) fail(QString("'%1' is not true or false").arg(key));
        return v.toBool();
    }
    QString text(const QJsonObject& o, const char* key, const QString& fallback = {}) const {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) return fallback;
        if (!v.isString()) fail(QString("'%1' is not a string").arg(key));
        return v.toString();
    }
    std::optional<double> optionalNumber(const QJsonObject& o, const char* key) const {
        if (o.value(key).isUndefined() || o.value(key).isNull()) return std::nullopt;
        return number(o, key, 0);
    }
    Vec3 vec3(const QJsonValue& v, const QString& what) const {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != 3) fail(what + " must be a list of 3 numbers");
        Vec3 out;
        for (int i = 0; i < 3; ++i) {
            if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) fail(what + " must be a list of 3 numbers");
            out[i] = a[i].toDouble();
        }
        return out;
    }
    const QString& source() const { return m_source; }

private:
    QString m_source;
};

inline QJsonArray vec3Json(Vec3 v) { return {v.x, v.y, v.z}; }

/// A float as the double of its shortest decimal form ("0.8", not 0.800000011920929), which reads
/// back as the same float.
inline double floatJson(float f) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, f).ptr;
    double d = f;
    std::from_chars(text, end, d);
    return d;
}

}  // namespace lucent::ui::session
