/// @brief Undo and redo keys pass through number fields; Return stays in text fields (FieldKeys.h).
#include "FieldKeys.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QTextEdit>

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

/// Claims Return and Enter for the text field that has the focus in `window`: the field applies its value,
/// the window's Return shortcut (Accept) stays out. Qt asks the focused widget first (ShortcutOverride);
/// a line edit does not claim Return by itself.
class FieldReturn : public QObject {
public:
    FieldReturn(QWidget* window, QObject* parent) : QObject(parent), m_window(window) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride) return false;
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() != Qt::Key_Return && key->key() != Qt::Key_Enter) ||
            (key->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier)
            return false;
        auto* widget = qobject_cast<QWidget*>(watched);
        if (!widget || widget->window() != m_window || !isTextField(widget)) return false;
        event->accept();  // the key goes to the field as a key press
        return true;
    }

private:
    static bool isTextField(QWidget* w) {
        if (auto* combo = qobject_cast<QComboBox*>(w)) return combo->isEditable();
        // A spin box's or an editable combo box's own line edit may hold the focus.
        return qobject_cast<QLineEdit*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QTextEdit*>(w) ||
               qobject_cast<QPlainTextEdit*>(w);
    }
    QPointer<QWidget> m_window;
};

}  // namespace

void keepReturnInTextFields(QWidget* window) { qApp->installEventFilter(new FieldReturn(window, window)); }

void letHistoryKeysThrough(QWidget* root) {
    auto* filter = new HistoryKeys(root);
    for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) {
        box->installEventFilter(filter);
        if (QLineEdit* edit = box->findChild<QLineEdit*>()) edit->installEventFilter(filter);
    }
}

}  // namespace lucent::ui
