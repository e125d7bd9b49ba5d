/// @brief Series table: description, modality, size, images, warnings.
#include "lucent/ui/SeriesChooser.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lucent::ui {

SeriesChooser::SeriesChooser(const std::vector<SeriesInfo>& series, QWidget* parent) : QDialog(parent) {
    setWindowTitle("Choose a series");
    resize(860, 320);
    m_table = new QTableWidget(int(series.size()), 5, this);
    m_table->setHorizontalHeaderLabels({"Description", "Modality", "Size", "Images", "Warnings"});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < int(series.size()); ++r) {
        const auto& s = series[r];
        const auto& d = s.geometry.dims;
        QStringList warnings;
        for (const auto& w : s.warnings) warnings << QString::fromStdString(w);
        const QString description = s.description.empty() ? QString::fromStdString(s.id) : QString::fromStdString(s.description);
        const QStringList cells = {description, QString::fromStdString(s.modality),
                                   QString("%1 x %2 x %3").arg(d[0]).arg(d[1]).arg(d[2]), QString::number(s.frames),
                                   warnings.join("; ")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 4 ? warnings.join("\n") : QString::fromStdString(s.id));
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->selectRow(0);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
}

int SeriesChooser::chosen() const { return m_table->currentRow(); }

}  // namespace lucent::ui
