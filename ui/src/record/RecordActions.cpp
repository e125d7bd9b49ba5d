/// @brief Segment > Record this run... (RecordActions.h).
#include "lucent/ui/RecordActions.h"

#include "ActionBinding.h"

#include "lucent/ui/RunRecording.h"

#include <QMenu>

namespace lucent::ui {

RecordActions::RecordActions(RunRecording* recording, QObject* parent) : QObject(parent) {
    m_record = makeAction(this, "Record this r&un...", {}, "recordRunAction");
    connect(m_record, &QAction::triggered, recording, &RunRecording::ask);
}

void RecordActions::addTo(QMenu* segment) { segment->addAction(m_record); }

}  // namespace lucent::ui
