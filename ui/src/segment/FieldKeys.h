/// @brief Keys in the panels' number fields that belong to the window: Ctrl+Z / Ctrl+Shift+Z (and
/// the platform's undo and redo) undo and redo the label history, not the text of the field whose
/// value was already applied. And the one that does not: Return in a text field applies the field.
#pragma once

class QWidget;

namespace lucent::ui {

/// Lets the window's undo and redo shortcuts through every number field under `root` (those there
/// now). The fields' own text undo is given up: a field's value is applied as it is entered.
void letHistoryKeysThrough(QWidget* root);
/// Return and Enter in any text field of `window` (a line edit, a spin box, an editable combo box, a
/// text edit) go to the field, not to the window's shortcut for them (Segment > Accept): the field's
/// value is applied, never the run accepted. Elsewhere in the window they are the shortcut.
void keepReturnInTextFields(QWidget* window);

}  // namespace lucent::ui
