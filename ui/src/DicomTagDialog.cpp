/// @brief Tag table with a filter box.
#include "lucent/ui/DicomTagDialog.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lucent::ui {

DicomTagDialog::DicomTagDialog(const QString& file, const std::vector<io::DicomTag>& tags, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle("DICOM tags - " + file);
    resize(900, 640);
    auto* filter = new QLineEdit(this);
    filter->setPlaceholderText("Filter by tag, name or value");
    auto* table = new QTableWidget(int(tags.size()), 4, this);
    table->setObjectName("tagTable");
    table->setHorizontalHeaderLabels({"Tag", "VR", "Name", "Value"});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < int(tags.size()); ++r) {
        const auto& t = tags[r];
        table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(t.tag)));
        table->setItem(r, 1, new QTableWidgetItem(QString::fromStdString(t.vr)));
        table->setItem(r, 2, new QTableWidgetItem(QString::fromStdString(t.name)));
        table->setItem(r, 3, new QTableWidgetItem(QString::fromStdString(t.value)));
    }
    table->resizeColumnsToContents();
    connect(filter, &QLineEdit::textChanged, table, [table](const QString& text) {
        for (int r = 0; r < table->rowCount(); ++r) {
            bool match = text.isEmpty();
            for (int c = 0; c < 4 && !match; ++c) match = table->item(r, c)->text().contains(text, Qt::CaseInsensitive);
            table->setRowHidden(r, !match);
        }
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(file, this));
    layout->addWidget(filter);
    layout->addWidget(table);
}

}  // namespace lucent::ui
