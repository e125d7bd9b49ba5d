/// @brief PacsNodesDialog: widgets bound to PacsNodeList; Echo through runInBackground.
#include "lucent/ui/PacsNodesDialog.h"

#include "Background.h"

#include "lucent/core/Errors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lucent::ui {

namespace {

QLineEdit* field(QWidget* parent, const char* name, const QString& placeholder = {}) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    return edit;
}

QPushButton* button(const QString& text, const char* name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAutoDefault(false);
    return b;
}

}  // namespace

PacsNodesDialog::PacsNodesDialog(PacsNodeList& nodes, PasswordAsker ask, QWidget* parent)
    : QDialog(parent), m_nodes(nodes), m_ask(std::move(ask)) {
    setWindowTitle("PACS nodes");
    setObjectName("pacsNodesDialog");
    m_list = new QListView(this);
    m_list->setObjectName("pacsNodeList");
    m_list->setModel(&m_nodes);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setMinimumWidth(300);
    buildForm();
    auto* add = button("&New", "pacsNodeNew", this);
    auto* remove = button("&Remove", "pacsNodeRemove", this);
    auto* apply = button("&Apply", "pacsNodeApply", this);
    auto* test = button("&Echo", "pacsNodeEcho", this);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add, remove, apply, test}) buttons->addWidget(b);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_status = new QLabel(this);
    m_status->setObjectName("pacsNodeStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* right = new QVBoxLayout;
    right->addWidget(m_pages->parentWidget());
    right->addLayout(buttons);
    right->addWidget(m_status);
    right->addStretch();
    auto* top = new QHBoxLayout;
    top->addWidget(m_list, 1);
    top->addLayout(right, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showEntry(current.row()); });
    connect(add, &QPushButton::clicked, this, [this] {
        m_list->clearSelection();
        showEntry(-1);
        m_name->setFocus();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_row < 0) return;
        const QString name = m_nodes.nodes()[std::size_t(m_row)].name;
        m_nodes.remove(m_row);
        saveAll();
        showEntry(-1);
        setStatus(QString("Removed PACS node '%1'.").arg(name), false);
    });
    connect(apply, &QPushButton::clicked, this, &PacsNodesDialog::apply);
    connect(test, &QPushButton::clicked, this, &PacsNodesDialog::echo);
    showEntry(m_nodes.rowCount() > 0 ? 0 : -1);
    if (m_row >= 0) m_list->setCurrentIndex(m_nodes.index(0));
    resize(760, 380);
}

void PacsNodesDialog::buildForm() {
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    m_name = field(box, "pacsNodeName", "a name of your choice");
    m_kind = new QComboBox(box);
    m_kind->setObjectName("pacsNodeKind");
    m_kind->addItems({"DIMSE (DICOM network)", "DICOMweb (HTTP)"});
    form->addRow("&Name:", m_name);
    form->addRow("&Kind:", m_kind);
    m_pages = new QStackedWidget(box);
    auto* dimse = new QWidget(m_pages);
    auto* dimseForm = new QFormLayout(dimse);
    dimseForm->setContentsMargins(0, 0, 0, 0);
    m_aet = field(dimse, "pacsNodeAet", "ORTHANC");
    m_host = field(dimse, "pacsNodeHost", "pacs.example.org");
    m_port = new QSpinBox(dimse);
    m_port->setObjectName("pacsNodePort");
    m_port->setRange(1, 65535);
    m_callingAet = field(dimse, "pacsNodeCallingAet");
    m_tls = new QCheckBox("DICOM over &TLS", dimse);
    m_tls->setObjectName("pacsNodeTls");
    dimseForm->addRow("AE &title:", m_aet);
    dimseForm->addRow("&Host:", m_host);
    dimseForm->addRow("&Port:", m_port);
    dimseForm->addRow("&Our AE title:", m_callingAet);
    dimseForm->addRow(QString(), m_tls);
    auto* web = new QWidget(m_pages);
    auto* webForm = new QFormLayout(web);
    webForm->setContentsMargins(0, 0, 0, 0);
    m_url = field(web, "pacsNodeUrl", "https://pacs.example.org/dicom-web");
    m_user = field(web, "pacsNodeUser", "password asked at use, or LUCENT_PACS_PASSWORD");
    m_tokenFile = field(web, "pacsNodeTokenFile", "a file holding a bearer token, or LUCENT_PACS_TOKEN");
    webForm->addRow("Base &URL:", m_url);
    webForm->addRow("&User:", m_user);
    webForm->addRow("Token &file:", m_tokenFile);
    m_pages->addWidget(dimse);
    m_pages->addWidget(web);
    form->addRow(m_pages);
    connect(m_kind, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);
}

void PacsNodesDialog::showEntry(int row) {
    m_row = row >= 0 && row < m_nodes.rowCount() ? row : -1;
    const PacsNodeEntry e = m_row >= 0 ? m_nodes.nodes()[std::size_t(m_row)] : PacsNodeEntry{};
    m_name->setText(e.name);
    m_kind->setCurrentIndex(e.web ? 1 : 0);
    m_aet->setText(e.aeTitle);
    m_host->setText(e.host);
    m_port->setValue(e.port);
    m_callingAet->setText(e.callingAeTitle);
    m_tls->setChecked(e.tls);
    m_url->setText(e.url);
    m_user->setText(e.user);
    m_tokenFile->setText(e.tokenFile);
}

PacsNodeEntry PacsNodesDialog::formEntry() const {
    PacsNodeEntry e;
    e.name = m_name->text().trimmed();
    e.web = m_kind->currentIndex() == 1;
    e.aeTitle = m_aet->text().trimmed();
    e.host = m_host->text().trimmed();
    e.port = m_port->value();
    e.callingAeTitle = m_callingAet->text().trimmed();
    e.tls = m_tls->isChecked();
    e.url = m_url->text().trimmed();
    e.user = m_user->text().trimmed();
    e.tokenFile = m_tokenFile->text().trimmed();
    return e;
}

void PacsNodesDialog::apply() {
    const PacsNodeEntry e = formEntry();
    if (const QString why = e.problem(); !why.isEmpty()) return setStatus(why, true);
    const int same = m_nodes.find(e.name);
    if (same >= 0 && same != m_row) return setStatus(QString("There is already a PACS node named '%1'.").arg(e.name), true);
    m_row = m_nodes.put(e, m_row);
    m_list->setCurrentIndex(m_nodes.index(m_row));
    saveAll();
    setStatus(QString("Saved PACS node '%1' (%2).").arg(e.name, e.address()), false);
}

void PacsNodesDialog::echo() {
    const PacsNodeEntry e = formEntry();
    std::optional<pacs::PacsConnection> connection;
    try {
        connection.emplace(connectionFor(e, m_ask));
    } catch (const Cancelled&) {
        return;
    } catch (const std::exception& error) {
        return setStatus(QString::fromUtf8(error.what()), true);
    }
    const QString who = QString("PACS node '%1'").arg(e.name);
    setStatus(QString("Asking %1...").arg(who), false);
    runInBackground(this, who, [c = *connection]() mutable { c.echo(); }, [this, who, web = e.web](const QString& error) {
        if (error.isEmpty())
            setStatus(QString("%1 answered %2.").arg(who, web ? "QIDO-RS" : "C-ECHO"), false);
        else
            setStatus(error, true);
    });
}

void PacsNodesDialog::setStatus(const QString& text, bool error) {
    m_status->setStyleSheet(error ? "color: #c0392b;" : QString());
    m_status->setText(text);
}

QString PacsNodesDialog::status() const { return m_status->text(); }

void PacsNodesDialog::saveAll() {
    QSettings settings;
    m_nodes.save(settings);
}

}  // namespace lucent::ui
