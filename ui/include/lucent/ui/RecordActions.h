/// @brief Segment > Record this run...: the menu's way into the run's recording (RunRecording), which asks
/// where and how, then records the run now or arms itself for the next one.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace lucent::ui {

class RunRecording;

class RecordActions : public QObject {
    Q_OBJECT
public:
    explicit RecordActions(RunRecording* recording, QObject* parent = nullptr);

    /// Record this run...
    void addTo(QMenu* segment);

    QAction* record() const { return m_record; }

private:
    QAction* m_record;
};

}  // namespace lucent::ui
