/// @brief The session file's segmentation block (SessionSegmentation.h). Each method's parameters are
/// the rows of its table (MethodParameters.h), under the table's session keys, checked by its limits.
#include "SessionSegmentation.h"

#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/Snake3dStart.h"

namespace lucent::ui::session {

namespace {

QString qtext(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

/// A method's rows as one JSON object: a number, a whole number, a boolean, a pair [lower, upper] for a
/// range, or null for an absent optional number or range.
QJsonObject parametersJson(Method method, const SegmentationRequest& q) {
    QJsonObject o;
    for (const Parameter* p : parametersOf(method)) {
        if (p->kind == ParameterKind::OptionalRange) {
            const auto range = p->getRange(q);
            o.insert(qtext(p->sessionKey), range ? QJsonValue(QJsonArray{range->lower, range->upper}) : QJsonValue());
            continue;
        }
        const auto v = p->get(q);
        QJsonValue j(QJsonValue::Null);
        if (v && p->kind == ParameterKind::Flag) j = *v != 0;
        else if (v && p->kind == ParameterKind::Integer) j = qint64(*v);
        else if (v) j = *v;
        o.insert(qtext(p->sessionKey), j);
    }
    return o;
}

/// A range row's pair [lower, upper] (null: none), as the row allows it.
std::optional<ValueRange> readRange(const Reader& r, const QJsonObject& block, Method method, const Parameter& p) {
    const QJsonValue v = block.value(qtext(p.sessionKey));
    if (v.isNull()) return std::nullopt;
    const QJsonArray a = v.toArray();
    const ValueRange range{a.size() == 2 ? a[0].toDouble(NAN) : NAN, a.size() == 2 ? a[1].toDouble(NAN) : NAN};
    if (!v.isArray() || !p.allowsRange(range))
        r.fail(QString("%1: '%2' must be %3, as [lower, upper]")
                   .arg(qtext(methodInfo(method).lowerTitle), qtext(p.sessionKey),
                        QString::fromStdString(p.requirement())));
    return range;
}

/// A missing key keeps the request's default; a present one must be what the row allows.
void readParameters(const Reader& r, const QJsonObject& block, Method method, SegmentationRequest& q) {
    for (const Parameter* p : parametersOf(method)) {
        const QString key = qtext(p->sessionKey);
        const QByteArray name = key.toUtf8();
        if (!block.contains(key)) continue;
        if (p->kind == ParameterKind::OptionalRange) {
            p->setRange(q, readRange(r, block, method, *p));
            continue;
        }
        std::optional<double> v;
        if (p->kind == ParameterKind::Flag) v = r.boolean(block, name.constData(), false) ? 1.0 : 0.0;
        else if (p->kind == ParameterKind::OptionalNumber) v = r.optionalNumber(block, name.constData());
        else v = r.number(block, name.constData(), 0);
        if (v && !p->allows(*v))
            r.fail(QString("%1: '%2' must be %3")
                       .arg(qtext(methodInfo(method).lowerTitle), key, QString::fromStdString(p->requirement())));
        p->set(q, v);
    }
}

void readSeeds(const Reader& r, const QJsonObject& o, SegmentationRequest& q) {
    constexpr int kBig = kNoIntLimit;
    for (const QJsonValue& v : r.array(o, "seeds")) {
        const Vec3 p = r.vec3(v, "a seed");
        if (p.x != std::floor(p.x) || p.y != std::floor(p.y) || p.z != std::floor(p.z) || std::abs(p.x) > kBig ||
            std::abs(p.y) > kBig || std::abs(p.z) > kBig)
            r.fail("a seed must be 3 whole voxel indices");
        q.seeds.push_back({int(p.x), int(p.y), int(p.z)});
    }
}

/// The 2D snake's structure beside its rows: the slice, the start rectangle and the domain's margin.
void readSnakeStart(const Reader& r, const QJsonObject& sn, SegmentSettings& s) {
    constexpr int kBig = kNoIntLimit;
    SnakeParams& snake = s.request.snake;
    snake.slice = r.integer(sn, "slice", Limit<int>{0, 0, kBig});
    const QJsonArray rect = r.array(sn, "rect");
    if (!rect.isEmpty() && rect.size() != 4) r.fail("the snake's 'rect' must be 4 whole numbers");
    for (int i = 0; i < int(rect.size()); ++i) {
        const double d = rect[i].toDouble(0.5);
        if (d != std::floor(d) || std::abs(d) > kBig) r.fail("the snake's 'rect' must be 4 whole numbers");
        snake.rect[std::size_t(i)] = int(d);
    }
    s.snakeDomainMargin = r.integer(sn, "domainMarginPercent", kSnakeDomainMargin);
}

/// The 3D snake's structure beside its rows: the box, the bubbles (centre and radius in mm), the depth of
/// the next box, the radius of the next bubble and whether a run takes the window as its clip.
void writeSnake3dStart(const SegmentSettings& s, QJsonObject& o) {
    const Snake3dParams& p = s.request.snake3d;
    QJsonArray bubbles;
    for (std::size_t n = 0; n < s.snake3dSeeds.size(); ++n) {
        const VoxelIndex& c = s.snake3dSeeds[n];
        bubbles.append(QJsonArray{c.i, c.j, c.k, snake3dRadius(p, n)});
    }
    o.insert("bubbles", bubbles);
    if (const auto& b = p.box) o.insert("box", QJsonArray{b->lo[0], b->lo[1], b->lo[2], b->hi[0], b->hi[1], b->hi[2]});
    o.insert("depth", s.snake3dDepth);
    o.insert("radiusMm", s.snake3dRadius);
    o.insert("clipToWindow", s.snake3dClipToWindow);  // the range the last run used is the row "clip"
}

/// Whole numbers of a JSON array: `count` of them or none; `what` names it in the message.
std::vector<int> wholeNumbers(const Reader& r, const QJsonArray& a, int count, const QString& what) {
    std::vector<int> out;
    const QString rule = QString("%1 must be %2 whole numbers").arg(what).arg(count);
    if (!a.isEmpty() && a.size() != count) r.fail(rule);
    for (const QJsonValue& v : a) {
        const double d = v.toDouble(0.5);
        if (d != std::floor(d) || std::abs(d) > kNoIntLimit) r.fail(rule);
        out.push_back(int(d));
    }
    return out;
}

void readSnake3dStart(const Reader& r, const QJsonObject& o, SegmentSettings& s) {
    Snake3dParams& p = s.request.snake3d;
    if (const auto b = wholeNumbers(r, r.array(o, "box"), 6, "the 3D snake's 'box'"); !b.empty())
        p.box = VoxelBox{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
    for (const QJsonValue& v : r.array(o, "bubbles")) {
        const QJsonArray a = v.toArray();
        if (a.size() != 4) r.fail("a 3D snake bubble must be i, j, k and a radius in mm");
        const auto c = wholeNumbers(r, QJsonArray{a[0], a[1], a[2]}, 3, "a 3D snake bubble's centre");
        const double radius = a[3].toDouble(-1);
        if (!kSnake3dLimits.radiusMm.allows(radius)) r.fail("a 3D snake bubble's radius must be more than 0 mm");
        s.snake3dSeeds.push_back({c[0], c[1], c[2]});
        p.radiiMm.push_back(radius);
    }
    s.snake3dDepth = r.integer(o, "depth", kSnake3dDepth);
    s.snake3dRadius = r.bounded(o, "radiusMm", kSnake3dLimits.radiusMm);
    s.snake3dClipToWindow = r.boolean(o, "clipToWindow", s.snake3dClipToWindow);
}

/// The methods whose blocks the file holds: those with a page in the Segment panel.
constexpr Method kSessionMethods[] = {Method::RegionGrowing, Method::FuzzyConnectedness, Method::FuzzyCMeans,
                                      Method::Snake, Method::Snake3d};

}  // namespace

QJsonObject segmentationJson(const SegmentSettings& s) {
    const SegmentationRequest& q = s.request;
    QJsonArray seeds;
    for (const VoxelIndex& v : q.seeds) seeds.append(QJsonArray{v.i, v.j, v.k});
    QJsonObject o{{"mode", s.mode ? QString(methodName(*s.mode)) : QString()},
                  {"backend", s.backend},
                  {"stepsPerFrame", s.stepsPerFrame},
                  {"seeds", seeds}};
    for (Method m : kSessionMethods) o.insert(qtext(sessionBlock(m)), parametersJson(m, q));
    QJsonObject sn = o.value(qtext(sessionBlock(Method::Snake))).toObject();
    sn.insert("slice", q.snake.slice);
    sn.insert("rect", QJsonArray{q.snake.rect[0], q.snake.rect[1], q.snake.rect[2], q.snake.rect[3]});
    sn.insert("domainMarginPercent", s.snakeDomainMargin);
    o.insert(qtext(sessionBlock(Method::Snake)), sn);
    QJsonObject s3 = o.value(qtext(sessionBlock(Method::Snake3d))).toObject();
    writeSnake3dStart(s, s3);
    o.insert(qtext(sessionBlock(Method::Snake3d)), s3);
    return o;
}

SegmentSettings readSegmentation(const Reader& r, const QJsonObject& o) {
    SegmentSettings s;
    const QString mode = r.text(o, "mode");
    if (!mode.isEmpty()) {
        s.mode = methodFromKey(mode.toStdString());
        if (!s.mode)
            r.fail(QString("unknown segmentation method '%1' (%2)").arg(mode, QString::fromStdString(methodKeyList())));
        // Grow from seeds keeps nothing here: its seeds are the label layer's strokes, which the session
        // keeps as the layer (as Slicer keeps them in the segments); its mode comes back, the run does not.
    }
    s.backend = r.text(o, "backend", s.backend);
    if (!backendFromKey(s.backend.toStdString())) r.fail(QString("unknown backend '%1'").arg(s.backend));
    s.stepsPerFrame = r.integer(o, "stepsPerFrame", kStepsPerFrame);
    readSeeds(r, o, s.request);
    for (Method m : kSessionMethods) {
        const QByteArray block = qtext(sessionBlock(m)).toUtf8();
        readParameters(r, r.object(o, block.constData()), m, s.request);
    }
    readSnakeStart(r, r.object(o, "snake"), s);
    readSnake3dStart(r, r.object(o, qtext(sessionBlock(Method::Snake3d)).toUtf8().constData()), s);
    return s;
}

}  // namespace lucent::ui::session
