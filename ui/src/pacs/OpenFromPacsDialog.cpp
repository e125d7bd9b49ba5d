/// @brief OpenFromPacsDialog: widgets bound to PacsQueryForm, PacsResultsModel and RetrieveJob.
#include "lucent/ui/OpenFromPacsDialog.h"

#include "Background.h"
#include "NodeChoice.h"

#include "lucent/core/Errors.h"
#include "lucent/ui/PacsQueryForm.h"
#include "lucent/ui/RetrieveJob.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <memory>

namespace lucent::ui {

namespace {

QTableView* table(QAbstractItemModel* model, const char* name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

}  // namespace

OpenFromPacsDialog::OpenFromPacsDialog(const PacsNodeList& nodes, PasswordAsker ask, std::string databasePath,
                                       std::string cacheFolder, QWidget* parent)
    : QDialog(parent),
      m_nodes(nodes),
      m_ask(std::move(ask)),
      m_databasePath(std::move(databasePath)),
      m_cacheFolder(std::move(cacheFolder)) {
    setWindowTitle("Open from PACS");
    setObjectName("openFromPacsDialog");
    buildQuery();
    m_studyView = table(&m_studies, "pacsStudies", this);
    m_seriesView = table(&m_series, "pacsSeries", this);
    m_seriesView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_retrieve = new QPushButton("&Retrieve and open", this);
    m_retrieve->setObjectName("pacsRetrieve");
    m_cancel = new QPushButton("&Cancel retrieve", this);
    m_cancel->setObjectName("pacsCancel");
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("pacsProgress");
    m_status = new QLabel(this);
    m_status->setObjectName("pacsStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_progress, 1);
    actions->addWidget(m_retrieve);
    actions->addWidget(m_cancel);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    layout->addWidget(new QLabel("Studies:", this));
    layout->addWidget(m_studyView, 2);
    layout->addWidget(new QLabel("Series of the chosen study (none chosen: all):", this));
    layout->addWidget(m_seriesView, 1);
    layout->addLayout(actions);
    layout->addWidget(m_status);
    layout->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_studyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { searchSeries(current.row()); });
    connect(m_retrieve, &QPushButton::clicked, this, &OpenFromPacsDialog::retrieve);
    connect(m_cancel, &QPushButton::clicked, this, &OpenFromPacsDialog::stopRetrieve);
    connect(this, &QDialog::rejected, this, &OpenFromPacsDialog::stopRetrieve);
    setBusy(false);
    if (m_nodes.rowCount() == 0) setStatus("No PACS node yet: add one in File > PACS nodes.", true);
    resize(900, 640);
}

OpenFromPacsDialog::~OpenFromPacsDialog() { stopRetrieve(); }

void OpenFromPacsDialog::buildQuery() {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_node = new QComboBox(this);
    m_node->setObjectName("pacsNode");
    followNodes(m_node, m_nodes);
    const auto edit = [this](const char* name, const QString& placeholder) {
        auto* e = new QLineEdit(this);
        e->setObjectName(name);
        e->setPlaceholderText(placeholder);
        connect(e, &QLineEdit::returnPressed, this, &OpenFromPacsDialog::search);
        return e;
    };
    m_patientName = edit("queryPatientName", "Doe* (wildcards * and ?)");
    m_patientId = edit("queryPatientId", {});
    m_studyDate = edit("queryStudyDate", "YYYYMMDD or YYYYMMDD-YYYYMMDD");
    m_modality = edit("queryModality", "MR, CT...");
    m_search = new QPushButton("&Search", this);
    m_search->setObjectName("pacsSearch");
    m_search->setAutoDefault(false);
    connect(m_search, &QPushButton::clicked, this, &OpenFromPacsDialog::search);
    form->addRow("&Node:", m_node);
    form->addRow("Patient &name:", m_patientName);
    form->addRow("Patient &ID:", m_patientId);
    form->addRow("Study &date:", m_studyDate);
    form->addRow("&Modality:", m_modality);
    form->addRow(QString(), m_search);
    layout->addLayout(form);
}

QString OpenFromPacsDialog::nodeName() const { return m_node->currentData().toString(); }

std::optional<pacs::PacsConnection> OpenFromPacsDialog::connection() {
    const int row = m_nodes.find(nodeName());
    if (row < 0) return setStatus("Choose a PACS node (File > PACS nodes adds one).", true), std::nullopt;
    try {
        return connectionFor(m_nodes.nodes()[std::size_t(row)], m_ask);
    } catch (const Cancelled&) {
        return std::nullopt;
    } catch (const std::exception& e) {
        setStatus(QString::fromUtf8(e.what()), true);
        return std::nullopt;
    }
}

void OpenFromPacsDialog::search() {
    QString error;
    const net::FindQuery query =
        PacsQueryForm{m_patientName->text(), m_patientId->text(), m_studyDate->text(), m_modality->text(), {}}
            .studyQuery(&error);
    if (!error.isEmpty()) return setStatus(error, true);
    std::optional<pacs::PacsConnection> c = connection();
    if (!c) return;
    const QString who = QString("PACS node '%1'").arg(nodeName());
    const int id = ++m_queries;
    auto found = std::make_shared<std::vector<net::FindRecord>>();
    setStatus(QString("Searching %1...").arg(who), false);
    m_series.setRecords({});
    runInBackground(
        this, who, [c = *c, query, found]() mutable { *found = c.find(query); },
        [this, who, id, found](const QString& failure) {
            if (id != m_queries) return;
            if (!failure.isEmpty()) return setStatus(failure, true);
            m_studies.setRecords(*found);
            setStatus(QString("%1 %2 found on %3.").arg(found->size()).arg(found->size() == 1 ? "study" : "studies", who),
                      false);
            if (!found->empty()) m_studyView->selectRow(0);
        });
}

void OpenFromPacsDialog::searchSeries(int studyRow) {
    if (studyRow < 0 || studyRow >= m_studies.rowCount()) return m_series.setRecords({});
    std::optional<pacs::PacsConnection> c = connection();
    if (!c) return;
    const QString who = QString("PACS node '%1'").arg(nodeName());
    const net::FindQuery query = PacsQueryForm::seriesQuery(QString::fromStdString(m_studies.record(studyRow).studyUid));
    const int id = ++m_queries;
    auto found = std::make_shared<std::vector<net::FindRecord>>();
    runInBackground(
        this, who, [c = *c, query, found]() mutable { *found = c.find(query); },
        [this, who, id, found](const QString& failure) {
            if (id != m_queries) return;
            if (!failure.isEmpty()) return setStatus(failure, true);
            m_series.setRecords(*found);
            setStatus(QString("%1 series in the study on %2.").arg(found->size()).arg(who), false);
        });
}

void OpenFromPacsDialog::retrieve() {
    const int studyRow = m_studyView->currentIndex().row();
    if (studyRow < 0) return setStatus("Search, then choose a study.", true);
    std::vector<std::string> uids;
    for (const QModelIndex& index : m_seriesView->selectionModel()->selectedRows())
        uids.push_back(m_series.record(index.row()).seriesUid);
    if (uids.empty())
        for (const net::FindRecord& r : m_series.records()) uids.push_back(r.seriesUid);
    if (uids.empty()) return setStatus("The study has no series to retrieve (yet: its series are being asked for).", true);
    std::optional<pacs::PacsConnection> c = connection();
    if (!c) return;
    const QString who = QString("PACS node '%1'").arg(nodeName());
    m_job = new RetrieveJob([c = *c](const net::RetrieveRequest& r) mutable { return c.retrieve(r); }, who,
                            m_databasePath, m_cacheFolder, this);
    connect(m_job, &RetrieveJob::progress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_job, &RetrieveJob::finished, this, [this, who](const QStringList& folders, const QStringList& uids) {
        setBusy(false);
        setStatus(QString("Retrieved %1 series from %2.").arg(folders.size()).arg(who), false);
        emit retrieved(folders.front(), uids.front());
    });
    connect(m_job, &RetrieveJob::failed, this, [this](const QString& message) {
        setBusy(false);
        setStatus(message, true);
    });
    connect(m_job, &RetrieveJob::cancelled, this, [this, who] {
        setBusy(false);
        setStatus(QString("Retrieve from %1 cancelled: nothing kept.").arg(who), true);
    });
    setBusy(true);
    setStatus(QString("Retrieving %1 series from %2...").arg(uids.size()).arg(who), false);
    m_job->start(m_studies.record(studyRow).studyUid, uids);
}

void OpenFromPacsDialog::stopRetrieve() {
    if (!m_job || !m_job->isRunning()) return;
    m_job->cancel();
    setStatus("Cancelling after the series in flight...", false);
    m_cancel->setEnabled(false);
    // The job outlives the dialog if it must: it cleans up its series and goes.
    RetrieveJob* job = m_job;
    job->setParent(nullptr);
    connect(job, &RetrieveJob::cancelled, job, &QObject::deleteLater);
    connect(job, &RetrieveJob::failed, job, &QObject::deleteLater);
    connect(job, &RetrieveJob::finished, job, &QObject::deleteLater);
}

bool OpenFromPacsDialog::retrieving() const { return m_busy; }

void OpenFromPacsDialog::setBusy(bool busy) {
    m_busy = busy;
    m_retrieve->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_search->setEnabled(!busy);
    m_progress->setTextVisible(busy);
    if (!busy) m_progress->setRange(0, 1), m_progress->setValue(0);
}

void OpenFromPacsDialog::setStatus(const QString& text, bool error) {
    m_status->setStyleSheet(error ? "color: #c0392b;" : QString());
    m_status->setText(text);
}

QString OpenFromPacsDialog::status() const { return m_status->text(); }

}  // namespace lucent::ui
