/// @brief Measurement panel: the list bound to the measurement set, delete and CSV export, the
/// Tools > Measure menu, and the measurements drawn on every view.
#include "lucent/ui/MeasurementPanel.h"
#include "views/PanelScroll.h"

#include "SaveFile.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace lucent::ui {

namespace {

constexpr render::Orientation kOrientations[] = {render::Orientation::Axial, render::Orientation::Coronal,
                                                 render::Orientation::Sagittal};

QTableWidgetItem* cell(const QString& text, int id) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setData(Qt::UserRole, id);
    return item;
}

}  // namespace

MeasurementPanel::MeasurementPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QDockWidget("Measurements", parent), m_model(model), m_grid(grid) {
    setObjectName("measurementPanel");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    m_table = new QTableWidget(0, ColumnCount, body);
    m_table->setObjectName("measurementTable");
    m_table->setHorizontalHeaderLabels({"#", "Type", "Value", "Slice"});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(Value, QHeaderView::Stretch);
    m_table->setMinimumWidth(320);  // room for an ROI's figures
    layout->addWidget(m_table, 1);
    auto* buttons = new QHBoxLayout;
    auto* removeButton = new QPushButton("Delete", body);
    removeButton->setObjectName("deleteMeasurementButton");
    auto* exportButton = new QPushButton("Export CSV...", body);
    exportButton->setObjectName("exportMeasurementsButton");
    buttons->addWidget(removeButton);
    buttons->addWidget(exportButton);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    setScrollingBody(this, body);

    // Delete in the list removes the selected measurement (the views keep their own keys).
    auto* del = new QAction("Delete measurement", m_table);
    del->setObjectName("deleteMeasurementAction");
    del->setShortcut(QKeySequence::Delete);
    del->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(del);
    auto deleteSelected = [this] {
        if (const int id = selectedId()) remove(id);
    };
    connect(del, &QAction::triggered, this, deleteSelected);
    connect(removeButton, &QPushButton::clicked, this, deleteSelected);
    connect(exportButton, &QPushButton::clicked, this, &MeasurementPanel::askExportCsv);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &MeasurementPanel::repaintViews);
    // Double-click: go to the measurement's slice.
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const Measurement* m = m_set.find(m_table->item(row, Id)->data(Qt::UserRole).toInt());
        if (!m || !m_model->hasVolume()) return;
        Vec3 c = m_model->cursor();
        c[m->axis] = m->slice;
        // One drawn on a resliced plane lies off its voxel plane: go to its first point instead.
        const Vec3 first = m->points.empty() ? c : m_model->volume()->geometry().patientToVoxel(m->points[0]);
        if (std::abs(first[m->axis] - m->slice) > 1e-6) c = first;
        m_model->setCursor(c);
    });

    m_tool.changed = [this] { refresh(m_tool.lastId()); };
    m_tool.refused = [this](const std::string& why) { emit message(QString::fromStdString(why)); };
    connect(model, &ViewerModel::volumeChanged, this, [this] {
        m_tool.cancel();
        m_set.setVolume(m_model->volume());
        m_shownRevision = m_set.revision();  // another volume's empty set is no change of the work
        refresh();
    });
    for (auto o : kOrientations)
        m_grid->view(o)->addOverlayLayer([this](const render::SliceViewGeometry& view, render::ViewOverlay& out) {
            if (!m_set.volume()) return;
            drawMeasurements(view, m_set, selectedId(), unit(), out);
            m_tool.overlay(view, out);
        });
}

std::string MeasurementPanel::unit() const {
    return m_set.volume() && m_set.volume()->metadata().modality == "CT" ? "HU" : "";
}

int MeasurementPanel::selectedId() const {
    const auto rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? 0 : m_table->item(rows.front().row(), Id)->data(Qt::UserRole).toInt();
}

int MeasurementPanel::add(Measurement m) {
    const int id = m_set.add(std::move(m));
    refresh();
    return id;
}

bool MeasurementPanel::remove(int id) {
    if (!m_set.remove(id)) return false;
    refresh();
    return true;
}

void MeasurementPanel::refresh(int select) {
    if (m_set.revision() != m_shownRevision) {
        m_shownRevision = m_set.revision();
        emit changed();
    }
    const int keep = select ? select : selectedId();
    const QSignalBlocker block(m_table);
    m_table->setRowCount(int(m_set.all().size()));
    const std::string u = unit();
    int row = 0, selectRow = -1;
    for (const Measurement& m : m_set.all()) {
        // An ROI's label keeps its three lines (the rows grow to fit): one line would be cut off in a dock.
        const QString value = QString::fromStdString(measurementLabel(m, u));
        const int count = m_set.volume() ? m_set.volume()->geometry().dims[m.axis] : 0;
        m_table->setItem(row, Id, cell(QString::number(m.id), m.id));
        m_table->setItem(row, Type, cell(measurementKindName(m.kind), m.id));
        m_table->setItem(row, Value, cell(value, m.id));
        m_table->item(row, Value)->setToolTip(value);
        m_table->setItem(row, Slice, cell(QString("%1 %2/%3").arg(QString::fromStdString(m.view)).arg(m.slice + 1).arg(count), m.id));
        if (m.id == keep) selectRow = row;
        ++row;
    }
    m_table->clearSelection();
    if (selectRow >= 0) m_table->selectRow(selectRow);
    m_table->resizeColumnToContents(Id);
    m_table->resizeColumnToContents(Type);
    m_table->resizeColumnToContents(Slice);
    m_table->resizeRowsToContents();
    repaintViews();
}

void MeasurementPanel::repaintViews() {
    for (auto o : kOrientations) m_grid->view(o)->update();
}

bool MeasurementPanel::exportCsv(const QString& path, QString* error) {
    return saveFile(path, measurementsCsv(m_set.all(), unit()), error);
}

void MeasurementPanel::askExportCsv() {
    const QString path = QFileDialog::getSaveFileName(this, "Export measurements", "measurements.csv", "CSV (*.csv)");
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error)) emit message(error);
}

}  // namespace lucent::ui
