/// @brief The Labels menu: the label panel (L), the label tools (LabelToolActions.h), pick the brush range,
/// the island tools on the active label, fill between slices, add a label and export the statistics.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace lucent::ui {

class LabelPanel;

class LabelActions : public QObject {
    Q_OBJECT
public:
    explicit LabelActions(LabelPanel* panel, QObject* parent = nullptr);

    /// The whole Labels menu.
    void addTo(QMenu* labels);

    QAction* keepLargest() const { return m_keepLargest; }
    QAction* removeSmall() const { return m_removeSmall; }
    QAction* addLabel() const { return m_addLabel; }

private:
    LabelPanel* m_panel;
    QAction *m_keepLargest, *m_removeSmall, *m_addLabel, *m_exportStatistics;
};

}  // namespace lucent::ui
