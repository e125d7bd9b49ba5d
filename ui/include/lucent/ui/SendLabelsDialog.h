/// @brief File > Send labels to PACS: the label layer written as a DICOM SEG of the open series and sent to a chosen
/// node (C-STORE or STOW-RS) off the GUI thread, with progress and a message naming the node.
#pragma once

#include "lucent/ui/PacsNodeList.h"

#include <QDialog>
#include <QTemporaryDir>

#include <functional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace lucent::ui {

class SendLabelsDialog : public QDialog {
    Q_OBJECT
public:
    /// Writes the SEG to the given path; false with the error.
    using SegWriter = std::function<bool(const QString& path, QString* error)>;

    SendLabelsDialog(const PacsNodeList& nodes, PasswordAsker ask, SegWriter writeSeg, QWidget* parent = nullptr);

    /// Writes the SEG and sends it to the chosen node.
    void send();
    QString status() const;
    bool sending() const { return m_sending; }

signals:
    /// The SEG arrived at `node` (its name).
    void sent(const QString& node);

private:
    void setStatus(const QString& text, bool error);
    void setSending(bool sending);

    const PacsNodeList& m_nodes;
    PasswordAsker m_ask;
    SegWriter m_writeSeg;
    QTemporaryDir m_folder;  // the SEG lives here while it is sent
    QComboBox* m_node = nullptr;
    QPushButton* m_send = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    bool m_sending = false;
};

}  // namespace lucent::ui
