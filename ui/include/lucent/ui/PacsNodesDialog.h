/// @brief The PACS nodes preferences: the node list, a form for the node chosen (DIMSE or DICOMweb), Add, Remove,
/// Apply, and Echo to test it off the GUI thread.
#pragma once

#include "lucent/ui/PacsNodeList.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QSpinBox;
class QStackedWidget;

namespace lucent::ui {

class PacsNodesDialog : public QDialog {
    Q_OBJECT
public:
    /// Edits `nodes` and writes them to QSettings on Apply and Remove. `ask` asks for a DICOMweb password.
    PacsNodesDialog(PacsNodeList& nodes, PasswordAsker ask, QWidget* parent = nullptr);

    /// The form as an entry (not yet in the list).
    PacsNodeEntry formEntry() const;
    /// The last outcome shown (Echo, Apply): what the tests read.
    QString status() const;

private:
    void buildForm();
    void showEntry(int row);
    void apply();
    void echo();
    void setStatus(const QString& text, bool error);
    void saveAll();

    PacsNodeList& m_nodes;
    PasswordAsker m_ask;
    QListView* m_list = nullptr;
    QLineEdit *m_name = nullptr, *m_aet = nullptr, *m_host = nullptr, *m_callingAet = nullptr;
    QLineEdit *m_url = nullptr, *m_user = nullptr, *m_tokenFile = nullptr;
    QSpinBox* m_port = nullptr;
    QCheckBox* m_tls = nullptr;
    QComboBox* m_kind = nullptr;
    QStackedWidget* m_pages = nullptr;
    QLabel* m_status = nullptr;
    int m_row = -1;  // the node the form edits; -1: a new one
};

}  // namespace lucent::ui
