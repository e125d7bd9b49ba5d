/// @brief StudyBrowserDialog: a search field and a sortable table over StudyBrowserModel; Open and Remove bound to it.
#include "lucent/ui/StudyBrowserDialog.h"

#include "lucent/pacs/StudyDatabase.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace lucent::ui {

StudyBrowserDialog::StudyBrowserDialog(pacs::StudyDatabase& db, QWidget* parent)
    : QDialog(parent), m_db(db), m_model(db) {
    setWindowTitle("DICOM browser");
    setObjectName("studyBrowserDialog");
    m_search = new QLineEdit(this);
    m_search->setObjectName("browserSearch");
    m_search->setPlaceholderText("Search patient name or ID, description, modality");
    m_search->setClearButtonEnabled(true);
    m_table = new QTableView(this);
    m_table->setObjectName("browserTable");
    m_table->setModel(&m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(StudyBrowserModel::PatientName, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_open = new QPushButton("&Open series", this);
    m_open->setObjectName("browserOpen");
    m_remove = new QPushButton("&Remove study...", this);
    m_remove->setObjectName("browserRemove");
    m_count = new QLabel(this);
    m_count->setObjectName("browserCount");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_count, 1);
    buttons->addWidget(m_open);
    buttons->addWidget(m_remove);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_model.setSearch(text);
        updateCount();
    });
    connect(m_open, &QPushButton::clicked, this, &StudyBrowserDialog::openCurrent);
    connect(m_table, &QTableView::doubleClicked, this, &StudyBrowserDialog::openCurrent);
    connect(m_remove, &QPushButton::clicked, this, &StudyBrowserDialog::removeCurrent);
    connect(&m_model, &QAbstractItemModel::rowsInserted, this, &StudyBrowserDialog::updateCount);
    updateCount();
    resize(980, 560);
}

void StudyBrowserDialog::updateCount() {
    const int rows = m_model.rowCount();
    m_count->setText(QString("%1%2 series%3")
                         .arg(rows)
                         .arg(m_model.canFetchMore() ? "+" : "")
                         .arg(m_model.search().isEmpty() ? QString() : " matching '" + m_model.search() + "'"));
    if (rows > 0 && !m_table->currentIndex().isValid()) m_table->selectRow(0);
    m_open->setEnabled(rows > 0);
    m_remove->setEnabled(rows > 0);
}

void StudyBrowserDialog::openCurrent() {
    const int row = m_table->currentIndex().row();
    if (row < 0) return;
    emit openSeries(m_model.folder(row), m_model.seriesUid(row));
}

void StudyBrowserDialog::removeCurrent() {
    const int row = m_table->currentIndex().row();
    if (row < 0) return;
    const QString study = m_model.studyUid(row);
    const QString patient = m_model.index(row, StudyBrowserModel::PatientName).data().toString();
    const QString date = m_model.index(row, StudyBrowserModel::StudyDate).data().toString();
    QMessageBox ask(QMessageBox::Question, "Remove study",
                    QString("Remove the study of %1 (%2) from the database? Its files retrieved from a PACS are "
                            "deleted; files opened from elsewhere stay where they are.")
                        .arg(patient, date.isEmpty() ? study : date),
                    QMessageBox::Yes | QMessageBox::Cancel, this);
    ask.setObjectName("browserRemoveQuestion");
    ask.setDefaultButton(QMessageBox::Cancel);
    if (ask.exec() != QMessageBox::Yes) return;
    try {
        m_db.removeStudy(study.toStdString());
    } catch (const std::exception& e) {
        QMessageBox::warning(this, "Cannot remove the study", QString::fromUtf8(e.what()));
    }
    m_model.refresh();
    updateCount();
}

}  // namespace lucent::ui
