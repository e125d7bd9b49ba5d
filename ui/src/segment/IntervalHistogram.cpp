/// @brief IntervalHistogram: log-scaled bars, the interval's band and handles, and the drags.
#include "IntervalHistogram.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace lucent::ui {

namespace {
const QColor kBand(40, 190, 255, 70);
const QColor kHandle(40, 190, 255);
constexpr int kTextHeight = 14;  // the axis' end values under the bars
}  // namespace

IntervalHistogram::IntervalHistogram(QWidget* parent) : QWidget(parent) {
    setObjectName("srgHistogram");
    setFocusPolicy(Qt::StrongFocus);
    setMinimumHeight(70);
    setToolTip("Drag a handle or the band to move the interval; Shift drags finely. Arrow keys move "
               "the last handle by one value (Shift: ten).");
}

QSize IntervalHistogram::sizeHint() const { return {240, 90}; }

void IntervalHistogram::setHistogram(const ValueHistogram* histogram) {
    m_histogram = histogram;
    update();
}

void IntervalHistogram::setInterval(double lower, double upper) {
    if (m_dragX) return;  // the drag owns the unrounded interval until release
    m_interval = {lower, upper};
    update();
}

QRectF IntervalHistogram::plotRect() const {
    return QRectF(rect()).adjusted(1, 1, -1, -1 - kTextHeight);
}

IntervalAxis IntervalHistogram::axis() const {
    const double lo = m_histogram ? m_histogram->lo : 0, hi = m_histogram ? m_histogram->hi : 1;
    return IntervalAxis(lo, hi, plotRect().width());
}

void IntervalHistogram::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRectF plot = plotRect();
    if (!m_histogram || m_histogram->counts.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, "Click a seed: the interval is drawn\non the volume's histogram");
        return;
    }
    const auto& counts = m_histogram->counts;
    const double top = std::log1p(double(*std::max_element(counts.begin(), counts.end())));
    const double barWidth = plot.width() / double(counts.size());
    for (std::size_t b = 0; b < counts.size(); ++b) {
        const double h = top > 0 ? plot.height() * std::log1p(double(counts[b])) / top : 0;
        p.fillRect(QRectF(plot.left() + barWidth * double(b), plot.bottom() - h, std::max(1.0, barWidth), h),
                   palette().color(QPalette::Mid));
    }
    const IntervalAxis ax = axis();
    const double xl = plot.left() + ax.xOf(m_interval.first), xu = plot.left() + ax.xOf(m_interval.second);
    p.fillRect(QRectF(xl, plot.top(), std::max(1.0, xu - xl), plot.height()), kBand);
    p.setPen(QPen(kHandle, 2));
    for (double x : {xl, xu}) p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    p.setPen(palette().color(QPalette::Text));
    const QRectF text(plot.left(), plot.bottom() + 1, plot.width(), kTextHeight);
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, QString::number(m_histogram->lo, 'g', 6));
    p.drawText(text, Qt::AlignRight | Qt::AlignVCenter, QString::number(m_histogram->hi, 'g', 6));
}

void IntervalHistogram::edit(const IntervalAxis::Interval& interval) {
    if (interval == m_interval) return;
    m_interval = interval;
    update();
    emit intervalEdited(interval.first, interval.second);
}

void IntervalHistogram::mousePressEvent(QMouseEvent* event) {
    if (!m_histogram || event->button() != Qt::LeftButton) return;
    const double x = event->position().x() - plotRect().left();
    const IntervalAxis ax = axis();
    m_part = ax.partAt(x, m_interval);
    edit(ax.press(x, m_interval));
    m_dragX = event->position().x();
}

void IntervalHistogram::mouseMoveEvent(QMouseEvent* event) {
    if (!m_dragX) return;
    const double dx = event->position().x() - *m_dragX;
    m_dragX = event->position().x();
    edit(axis().drag(m_part, dx, event->modifiers() & Qt::ShiftModifier, m_interval));
}

void IntervalHistogram::mouseReleaseEvent(QMouseEvent*) { m_dragX.reset(); }

void IntervalHistogram::keyPressEvent(QKeyEvent* event) {
    const int sign = event->key() == Qt::Key_Right ? 1 : event->key() == Qt::Key_Left ? -1 : 0;
    if (!m_histogram || sign == 0 || m_part == IntervalAxis::Part::Band) return QWidget::keyPressEvent(event);
    const double step = sign * (event->modifiers() & Qt::ShiftModifier ? 10.0 : 1.0);
    auto [lower, upper] = m_interval;
    if (m_part == IntervalAxis::Part::Lower) lower = std::min(lower + step, upper);
    else upper = std::max(upper + step, lower);
    edit({lower, upper});
}

}  // namespace lucent::ui
