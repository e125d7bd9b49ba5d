/// @brief SendLabelsDialog: the SEG written into a temporary folder on the GUI thread, stored from a pool thread.
#include "lucent/ui/SendLabelsDialog.h"

#include "Background.h"
#include "NodeChoice.h"

#include "lucent/core/Errors.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace lucent::ui {

SendLabelsDialog::SendLabelsDialog(const PacsNodeList& nodes, PasswordAsker ask, SegWriter writeSeg, QWidget* parent)
    : QDialog(parent), m_nodes(nodes), m_ask(std::move(ask)), m_writeSeg(std::move(writeSeg)) {
    setWindowTitle("Send labels to PACS");
    setObjectName("sendLabelsDialog");
    m_node = new QComboBox(this);
    m_node->setObjectName("sendNode");
    followNodes(m_node, m_nodes);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("sendProgress");
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel("The label layer is sent as a DICOM SEG that references the open series.", this);
    m_status->setObjectName("sendStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_send = buttons->addButton("&Send", QDialogButtonBox::ActionRole);
    m_send->setObjectName("sendButton");
    auto* form = new QFormLayout;
    form->addRow("&Node:", m_node);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_send, &QPushButton::clicked, this, &SendLabelsDialog::send);
    if (m_nodes.rowCount() == 0) setStatus("No PACS node yet: add one in File > PACS nodes.", true);
    resize(560, 200);
}

void SendLabelsDialog::send() {
    const QString name = m_node->currentData().toString();
    const int row = m_nodes.find(name);
    if (m_sending) return;
    if (row < 0) return setStatus("Choose a PACS node (File > PACS nodes adds one).", true);
    const QString who = QString("PACS node '%1'").arg(name);
    std::optional<pacs::PacsConnection> connection;
    try {
        connection.emplace(connectionFor(m_nodes.nodes()[std::size_t(row)], m_ask));
    } catch (const Cancelled&) {
        return;
    } catch (const std::exception& e) {
        return setStatus(QString::fromUtf8(e.what()), true);
    }
    const QString path = m_folder.filePath("labels-seg.dcm");
    QString error;
    if (!m_folder.isValid() || !m_writeSeg(path, &error))
        return setStatus("Cannot write the DICOM SEG to send: " + (error.isEmpty() ? m_folder.errorString() : error), true);
    setSending(true);
    setStatus(QString("Sending the DICOM SEG to %1...").arg(who), false);
    runInBackground(
        this, who, [c = *connection, file = path.toStdString()]() mutable { c.store({file}); },
        [this, who, name](const QString& failure) {
            setSending(false);
            if (!failure.isEmpty()) return setStatus("Cannot send the labels: " + failure, true);
            m_progress->setValue(1);
            setStatus(QString("Sent the labels as a DICOM SEG to %1.").arg(who), false);
            emit sent(name);
        });
}

void SendLabelsDialog::setSending(bool sending) {
    m_sending = sending;
    m_send->setEnabled(!sending);
    m_node->setEnabled(!sending);
    m_progress->setRange(0, sending ? 0 : 1);  // busy while the one request lasts
}

void SendLabelsDialog::setStatus(const QString& text, bool error) {
    m_status->setStyleSheet(error ? "color: #c0392b;" : QString());
    m_status->setText(text);
}

QString SendLabelsDialog::status() const { return m_status->text(); }

}  // namespace lucent::ui
