/// @brief The snake pages' step scrubber and Replay (StepScrubber.h).
#include "lucent/ui/StepScrubber.h"

#include "lucent/core/seg/RunSpeed.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>

#include <algorithm>

namespace lucent::ui {

StepScrubber::StepScrubber(const QString& name, QFormLayout* form, std::function<void(int)> show,
                           std::function<int()> count)
    : QObject(form->parentWidget()) {
    QWidget* page = form->parentWidget();
    m_slider = new QSlider(Qt::Horizontal, page);
    m_slider->setObjectName(name + "Scrubber");
    m_slider->setRange(0, 0);
    connect(m_slider, &QSlider::valueChanged, this,
            [show = std::move(show), count = std::move(count)](int i) { show(i >= count() - 1 ? -1 : i); });
    m_replay = new QPushButton("Replay", page);
    m_replay->setObjectName(name + "Replay");
    m_replay->setToolTip("Shows the run again from its first step, at the run's pace");
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_slider->value() >= m_slider->maximum()) return m_timer->stop();
        m_slider->setValue(m_slider->value() + 1);  // the last step follows the run again
    });
    connect(m_slider, &QSlider::sliderPressed, m_timer, &QTimer::stop);  // the user takes over
    auto* row = new QHBoxLayout;
    row->addWidget(m_slider, 1);
    row->addWidget(m_replay);
    form->addRow("Step", row);
}

void StepScrubber::setSteps(int count, int shown) {
    const QSignalBlocker showing(m_slider);
    m_slider->setRange(0, std::max(0, count - 1));
    m_slider->setValue(shown < 0 ? m_slider->maximum() : shown);
}

void StepScrubber::replay(Method method, int speed) {
    m_slider->setValue(0);
    m_timer->start(replayIntervalMs(method, speed));
}

int StepScrubber::replayIntervalMs(Method method, int speed) {
    const int pace = speed == kUnpaced ? watchableSpeed(method) : speed;
    return 1000 / std::max(1, pace);
}

}  // namespace lucent::ui
