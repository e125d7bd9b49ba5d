/// @brief Keys in the panels' number fields that belong to the window: Ctrl+Z / Ctrl+Shift+Z (and
/// the platform's undo and redo) undo and redo the label history, not the text of the field whose
/// value was already applied.
#pragma once

class QWidget;

namespace lucent::ui {

/// Lets the window's undo and redo shortcuts through every number field under `root` (those there
/// now). The fields' own text undo is given up: a field's value is applied as it is entered.
void letHistoryKeysThrough(QWidget* root);

}  // namespace lucent::ui
