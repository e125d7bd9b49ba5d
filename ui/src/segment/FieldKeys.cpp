/// @brief Undo and redo keys pass through number fields (FieldKeys.h).
#include "FieldKeys.h"

#include <QAbstractSpinBox>
#include <QKeyEvent>
#include <QLineEdit>

namespace lucent::ui {

namespace {

/// Declines the shortcut override of undo and redo, so that the window's shortcut runs. Qt asks the
/// focused field first (ShortcutOverride); a line edit claims Ctrl+Z for its own text.
class HistoryKeys : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride) return QObject::eventFilter(watched, event);
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool redoKey = key->key() == Qt::Key_Z && key->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier);
        if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo) && !redoKey) return false;
        event->ignore();
        return true;
    }
};

}  // namespace

void letHistoryKeysThrough(QWidget* root) {
    auto* filter = new HistoryKeys(root);
    for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) {
        box->installEventFilter(filter);
        if (QLineEdit* edit = box->findChild<QLineEdit*>()) edit->installEventFilter(filter);
    }
}

}  // namespace lucent::ui
