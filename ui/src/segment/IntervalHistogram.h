/// @brief Region growing's interval drawn on the volume's histogram: drag a handle (Shift: fine), the
/// band between them, or press beside it; arrow keys move the last handle taken.
#pragma once

#include "lucent/core/ValueHistogram.h"
#include "lucent/ui/IntervalAxis.h"

#include <QWidget>

#include <optional>

namespace lucent::ui {

class IntervalHistogram : public QWidget {
    Q_OBJECT
public:
    explicit IntervalHistogram(QWidget* parent = nullptr);
    /// The counts to draw (none: the control waits for a seed) and the interval on them.
    void setHistogram(const ValueHistogram* histogram);
    void setInterval(double lower, double upper);
    std::pair<double, double> interval() const { return m_interval; }
    /// The axis as laid out now (tests press at its pixels).
    IntervalAxis axis() const;
    QSize sizeHint() const override;

signals:
    /// The user moved the interval (press, drag or key).
    void intervalEdited(double lower, double upper);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void edit(const IntervalAxis::Interval& interval);
    QRectF plotRect() const;

    const ValueHistogram* m_histogram = nullptr;
    IntervalAxis::Interval m_interval{0, 0};
    IntervalAxis::Part m_part = IntervalAxis::Part::Lower;  // the last part taken, for the keys
    std::optional<double> m_dragX;                         // the last pointer x of a drag
};

}  // namespace lucent::ui
