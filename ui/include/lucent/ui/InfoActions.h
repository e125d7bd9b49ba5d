/// @brief What tells the user about the data and the program: File > DICOM tags (of the cursor's slice),
/// Help > Keyboard shortcuts (F1) and About Lucent.
#pragma once

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace lucent::ui {

class ViewerModel;

class InfoActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs; the shortcut overview lists its actions.
    InfoActions(ViewerModel* model, QMainWindow* window, QObject* parent = nullptr);

    /// DICOM tags...
    void addTagsTo(QMenu* file);
    /// Keyboard shortcuts, About Lucent.
    void addHelpTo(QMenu* help);

    QAction* tags() const { return m_tags; }

private:
    void showTags();
    void showAbout();

    ViewerModel* m_model;
    QMainWindow* m_window;
    QAction *m_tags, *m_shortcuts, *m_about;
};

}  // namespace lucent::ui
