/// @brief The session file's records (SessionRecords.h).
#include "SessionRecords.h"

namespace lucent::ui::session {

namespace {

QString colourText(const std::array<std::uint8_t, 3>& rgb) {
    return QString("#%1%2%3")
        .arg(rgb[0], 2, 16, QChar('0'))
        .arg(rgb[1], 2, 16, QChar('0'))
        .arg(rgb[2], 2, 16, QChar('0'));
}

}  // namespace

QJsonObject gridJson(const Geometry& g) {
    return {{"dims", QJsonArray{g.dims[0], g.dims[1], g.dims[2]}},
            {"spacing", vec3Json(g.spacing)},
            {"origin", vec3Json(g.origin)},
            {"directionColumns",
             QJsonArray{vec3Json(g.direction.col[0]), vec3Json(g.direction.col[1]), vec3Json(g.direction.col[2])}}};
}

Geometry readGrid(const Reader& r, const QJsonObject& o) {
    Geometry g;
    const QJsonArray dims = r.array(o, "dims");
    if (dims.size() != 3) r.fail("the grid's 'dims' must be 3 whole numbers");
    for (int a = 0; a < 3; ++a) {
        const double d = dims[a].toDouble(-1);
        if (d != std::floor(d) || d < 1 || d > 1e6) r.fail("the grid's 'dims' must be 3 whole numbers");
        g.dims[std::size_t(a)] = int(d);
    }
    g.spacing = r.vec3(o.value("spacing"), "the grid's 'spacing'");
    if (g.spacing.x <= 0 || g.spacing.y <= 0 || g.spacing.z <= 0) r.fail("the grid's spacing must be positive");
    g.origin = r.vec3(o.value("origin"), "the grid's 'origin'");
    const QJsonArray cols = r.array(o, "directionColumns");
    if (cols.size() != 3) r.fail("the grid's 'directionColumns' must be 3 vectors");
    for (int c = 0; c < 3; ++c) g.direction.col[std::size_t(c)] = r.vec3(cols[c], "a direction column");
    return g;
}



QJsonObject labelTableEntry(const LabelInfo& l) {
    return {{"value", l.value},
            {"name", QString::fromStdString(l.name)},
            {"colour", colourText(l.rgb)},
            {"opacity", floatJson(l.opacity)},
            {"visible", l.visible},
            {"locked", l.locked}};
}

LabelInfo readLabelInfo(const Reader& r, const QJsonValue& v) {
    if (!v.isObject()) r.fail("a label table entry is not an object");
    const QJsonObject o = v.toObject();
    LabelInfo l;
    l.value = std::uint8_t(r.integer(o, "value", -1, 1, 255));
    l.name = r.text(o, "name", QString::fromStdString(LabelTable::defaultName(l.value))).toStdString();
    const QString colour = r.text(o, "colour", colourText(LabelTable::defaultColour(l.value)));
    bool ok = false;
    const uint rgb = colour.mid(1).toUInt(&ok, 16);
    if (!ok || colour.size() != 7 || !colour.startsWith('#') || colour.contains('+') || colour.contains('-'))
        r.fail(QString("label %1: colour '%2' is not #rrggbb").arg(l.value).arg(colour));
    l.rgb = {std::uint8_t(rgb >> 16), std::uint8_t(rgb >> 8), std::uint8_t(rgb)};
    l.opacity = float(r.number(o, "opacity", 1.0));
    if (l.opacity < 0 || l.opacity > 1) r.fail(QString("label %1: opacity must be from 0 to 1").arg(l.value));
    l.visible = r.boolean(o, "visible", true);
    l.locked = r.boolean(o, "locked", false);
    return l;
}

QJsonObject measurementJson(const Measurement& m) {
    QJsonArray points;
    for (const Vec3& p : m.points) points.append(vec3Json(p));
    // The value is for a reader of the file; loading recomputes it from the points and voxels.
    return {{"kind", measurementKindName(m.kind)},    {"axis", m.axis},   {"slice", m.slice},
            {"view", QString::fromStdString(m.view)}, {"points", points}, {"value", m.value}};
}

Measurement readMeasurement(const Reader& r, const QJsonValue& v, const Geometry& grid) {
    if (!v.isObject()) r.fail("a measurement is not an object");
    const QJsonObject o = v.toObject();
    Measurement m;
    const QString kind = r.text(o, "kind");
    bool known = false;
    for (MeasurementKind k :
         {MeasurementKind::Ruler, MeasurementKind::Angle, MeasurementKind::Ellipse, MeasurementKind::Rectangle})
        if (kind == measurementKindName(k)) m.kind = k, known = true;
    if (!known) r.fail(QString("unknown measurement kind '%1' (ruler, angle, ellipse, rectangle)").arg(kind));
    m.axis = r.integer(o, "axis", 2, 0, 2);
    m.slice = r.integer(o, "slice", 0, 0, grid.dims[std::size_t(m.axis)] - 1);
    m.view = r.text(o, "view").toStdString();
    const QJsonArray points = r.array(o, "points");
    if (int(points.size()) != measurementPointCount(m.kind))
        r.fail(QString("a %1 needs %2 points, the file gives %3")
                   .arg(kind)
                   .arg(measurementPointCount(m.kind))
                   .arg(points.size()));
    for (const QJsonValue& p : points) m.points.push_back(r.vec3(p, "a measurement point"));
    return m;
}

}  // namespace lucent::ui::session
