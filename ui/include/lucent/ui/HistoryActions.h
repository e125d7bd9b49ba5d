/// @brief Edit > Undo and Redo of the label layer's history, bound to the model: enabled while there is a
/// step to take, each naming its step ("Undo Region growing").
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace lucent::ui {

class ViewerModel;

class HistoryActions : public QObject {
    Q_OBJECT
public:
    explicit HistoryActions(ViewerModel* model, QObject* parent = nullptr);

    /// Undo, Redo.
    void addTo(QMenu* edit);

    QAction* undo() const { return m_undo; }
    QAction* redo() const { return m_redo; }

private:
    void follow();

    ViewerModel* m_model;
    QAction *m_undo, *m_redo;
};

}  // namespace lucent::ui
