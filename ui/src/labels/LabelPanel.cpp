/// @brief Label panel: rows bound to the model's label table, brush and island tools, statistics.
#include "lucent/ui/LabelPanel.h"
#include "views/PanelScroll.h"

#include "labels/BrushRange.h"
#include "labels/SliceFillAction.h"
#include "SaveFile.h"

#include "lucent/core/LabelIslands.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QAction>
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace lucent::ui {

namespace {

QPixmap swatch(const std::array<std::uint8_t, 3>& rgb) {
    QPixmap p(16, 16);
    p.fill(QColor(rgb[0], rgb[1], rgb[2]));
    return p;
}

QTableWidgetItem* readOnly(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

LabelPanel::LabelPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent)
    : QDockWidget("Labels", parent), m_model(model), m_grid(grid), m_tools(new LabelToolActions(model, grid, this)) {
    setObjectName("labelPanel");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->addWidget(buildTable(), 1);
    layout->addWidget(buildTools());
    setScrollingBody(this, body);
    auto say = [this](const std::string& text) { emit message(QString::fromStdString(text)); };
    brush().refused = say;
    m_tools->pick().refused = say;
    brush().outlineMoved = [this] { m_grid->updateViews(); };  // the ball's cross-sections on the other views
    connect(m_tools, &LabelToolActions::taken, this, [this] {
        show();
        raise();
    });
    m_fill = new SliceFillAction(m_model, m_grid, this);
    connect(m_fill, &SliceFillAction::message, this, &LabelPanel::message);
    // Statistics take one pass over the volume: after edits settle, not at every brush move.
    m_statsTimer = new QTimer(this);
    m_statsTimer->setSingleShot(true);
    m_statsTimer->setInterval(250);
    connect(m_statsTimer, &QTimer::timeout, this, [this] {
        // Hidden, the pass over the volume waits until the panel is shown.
        if (isVisible())
            refreshStatistics();
        else
            m_statisticsStale = true;
    });
    connect(model, &ViewerModel::labelsChanged, m_statsTimer, qOverload<>(&QTimer::start));
    connect(model, &ViewerModel::volumeChanged, m_statsTimer, qOverload<>(&QTimer::start));
    connect(model, &ViewerModel::labelTableChanged, this, &LabelPanel::rebuildRows);
    connect(model, &ViewerModel::activeLabelChanged, this, &LabelPanel::selectActiveRow);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_statisticsStale) refreshStatistics();
    });
    // The brush's outline, on the view the mouse is over, while the brush is the views' tool.
    for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
        m_grid->view(o)->addOverlayLayer([this](const render::SliceViewGeometry& view, render::ViewOverlay& out) {
            if (m_tools->brushChosen()) brush().overlay(view, out);
        });
    rebuildRows();
}

QWidget* LabelPanel::buildTable() {
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget(0, ColumnCount, w);
    m_table->setObjectName("labelTable");
    m_table->setHorizontalHeaderLabels({"", "Name", "Show", "Lock", "Opacity %", "Voxels", "mL", "Mean", "SD"});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    m_table->setMinimumWidth(420);
    // Room for five rows whatever shares the dock area (the Segment panel stacked above it left
    // one and a half): names and colours must be read, not scrolled to.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              5 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (!m_syncing) applyRow(item->row());
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column == Colour) chooseColour(row);
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (!m_syncing && !rows.isEmpty()) m_model->setActiveLabel(valueOfRow(rows.front().row()));
    });
    layout->addWidget(m_table);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton("Add label", w);
    add->setObjectName("addLabelButton");
    auto* remove = new QPushButton("Remove label", w);
    remove->setObjectName("removeLabelButton");
    remove->setToolTip("Removes the active label and clears its voxels (undoable)");
    auto* exportCsv = new QPushButton("Export statistics...", w);
    exportCsv->setObjectName("exportStatisticsButton");
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    row->addWidget(exportCsv);
    layout->addLayout(row);
    connect(add, &QPushButton::clicked, this, [this] { addLabel(); });
    connect(remove, &QPushButton::clicked, this, [this] { m_model->removeLabel(m_model->activeLabel()); });
    connect(exportCsv, &QPushButton::clicked, this, &LabelPanel::askExportStatistics);
    return w;
}

QWidget* LabelPanel::buildTools() {
    auto* w = new QWidget(this);
    auto* form = new QFormLayout(w);
    auto* tools = new QHBoxLayout;
    for (QAction* a : m_tools->actions()) {
        auto* b = new QToolButton(w);
        b->setDefaultAction(a);
        tools->addWidget(b);
    }
    form->addRow(tools);
    m_shape = new QComboBox(w);
    m_shape->setObjectName("brushShape");
    m_shape->addItems({"2D disc (in the view's plane)", "3D ball"});
    connect(m_shape, &QComboBox::currentIndexChanged, this,
            [this](int i) { brush().setShape(i == 1 ? BrushShape::Ball : BrushShape::Disc); });
    form->addRow("Brush", m_shape);
    // ITK-SNAP's "draw over": which voxels the brush and the eraser may change.
    m_over = new QComboBox(w);
    m_over->setObjectName("paintOver");
    m_over->setToolTip(
        "Which voxels the brush and the eraser change: any unlocked label, only clear voxels, "
        "or only one label's (the eraser: the active label's unless it clears every label)");
    connect(m_over, &QComboBox::currentIndexChanged, this, [this](int) { applyPaintOver(); });
    form->addRow("Paint over", m_over);
    // Erasing a stroke must not take the label underneath with it: the active label only, unless asked.
    auto* eraseAll = new QCheckBox("Eraser clears every unlocked label", w);
    eraseAll->setObjectName("eraseAllLabels");
    eraseAll->setToolTip(
        "Off: the eraser clears only the active label (the selected row); "
        "a \"Paint over\" label narrows it to that label");
    connect(eraseAll, &QCheckBox::toggled, this,
            [this](bool all) { brush().setEraseScope(all ? EraseScope::AllLabels : EraseScope::ActiveLabel); });
    form->addRow(eraseAll);
    m_diameter = new QDoubleSpinBox(w);
    m_diameter->setObjectName("brushDiameter");
    m_diameter->setRange(0.1, 200.0);
    m_diameter->setDecimals(1);
    m_diameter->setSuffix(" mm");
    m_diameter->setValue(brush().diameterMm());
    connect(m_diameter, &QDoubleSpinBox::valueChanged, this, [this](double mm) {
        brush().setDiameterMm(mm);
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->update();  // the outline takes the new size
    });
    form->addRow("Diameter", m_diameter);
    m_range = new BrushRange(m_model, &brush(), w);
    connect(m_range, &BrushRange::message, this, &LabelPanel::message);
    form->addRow(m_range->widget());
    auto* islands = new QHBoxLayout;
    auto* largest = new QPushButton("Keep largest island", w);
    largest->setObjectName("keepLargestButton");
    auto* small = new QPushButton("Remove islands under", w);
    small->setObjectName("removeSmallButton");
    m_minVoxels = new QSpinBox(w);
    m_minVoxels->setObjectName("minIslandVoxels");
    m_minVoxels->setRange(1, 100000000);
    m_minVoxels->setValue(100);
    m_minVoxels->setSuffix(" voxels");
    islands->addWidget(largest);
    islands->addWidget(small);
    islands->addWidget(m_minVoxels);
    form->addRow(islands);
    connect(largest, &QPushButton::clicked, this, [this] { keepLargest(); });
    connect(small, &QPushButton::clicked, this, [this] { removeSmall(m_minVoxels->value()); });
    return w;
}

std::uint8_t LabelPanel::valueOfRow(int row) const {
    const QTableWidgetItem* item = m_table->item(row, Name);
    return item ? std::uint8_t(item->data(Qt::UserRole).toInt()) : 0;
}

void LabelPanel::rebuildRows() {
    m_syncing = true;
    const auto& labels = m_model->labelTable().labels();
    m_table->setRowCount(int(labels.size()));
    int activeRow = -1;
    for (int row = 0; row < int(labels.size()); ++row) {
        const LabelInfo& l = labels[std::size_t(row)];
        auto* colour = new QTableWidgetItem(QIcon(swatch(l.rgb)), QString());
        colour->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        colour->setData(Qt::UserRole, QColor(l.rgb[0], l.rgb[1], l.rgb[2]));
        colour->setToolTip("Double-click to choose the colour");
        m_table->setItem(row, Colour, colour);
        auto* name = new QTableWidgetItem(QString::fromStdString(l.name));
        name->setData(Qt::UserRole, int(l.value));
        name->setToolTip(QString("Value %1").arg(l.value));
        m_table->setItem(row, Name, name);
        for (auto [column, on] : {std::pair{Visible, l.visible}, std::pair{Locked, l.locked}}) {
            auto* check = new QTableWidgetItem;
            check->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            check->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            m_table->setItem(row, column, check);
        }
        auto* opacity = new QTableWidgetItem(QString::number(int(std::lround(l.opacity * 100))));
        opacity->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, Opacity, opacity);
        if (l.value == m_model->activeLabel()) activeRow = row;
    }
    fillStatistics();
    if (activeRow >= 0) m_table->selectRow(activeRow);
    fillPaintOver();
    m_syncing = false;
}

void LabelPanel::fillPaintOver() {
    const int chosen = m_over->count() ? m_over->currentData().toInt() : -1;
    {
        const QSignalBlocker quiet(m_over);
        m_over->clear();
        m_over->addItem("All unlocked labels", -1);
        m_over->addItem("Clear voxels only", 0);
        for (const LabelInfo& l : m_model->labelTable().labels())
            m_over->addItem(QIcon(swatch(l.rgb)), QString::fromStdString(l.name) + " only", int(l.value));
        const int at = m_over->findData(chosen);
        m_over->setCurrentIndex(at >= 0 ? at : 0);  // a removed label's choice falls back to all
    }
    applyPaintOver();
}

void LabelPanel::applyPaintOver() {
    const int value = m_over->currentData().toInt();  // -1: any unlocked label
    brush().setPaintOver(value < 0 ? std::nullopt : std::optional<std::uint8_t>(std::uint8_t(value)));
}

void LabelPanel::selectActiveRow() {
    m_syncing = true;
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (valueOfRow(row) == m_model->activeLabel()) m_table->selectRow(row);
    m_syncing = false;
}

void LabelPanel::fillStatistics() {
    const bool wasSyncing = m_syncing;
    m_syncing = true;
    const double ml = m_model->hasVolume() ? m_model->volume()->geometry().voxelVolumeMl() : 0.0;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const std::uint8_t value = valueOfRow(row);
        LabelStatistics s;
        for (const auto& candidate : m_statistics)
            if (candidate.value == value) s = candidate;
        const bool any = s.voxels > 0;
        m_table->setItem(row, Voxels, readOnly(QString::number(qulonglong(s.voxels))));
        m_table->setItem(row, Millilitres, readOnly(QString::number(double(s.voxels) * ml, 'f', 2)));
        m_table->setItem(row, Mean, readOnly(any ? QString::number(s.mean, 'f', 1) : QString("-")));
        m_table->setItem(row, StdDev, readOnly(any ? QString::number(s.stddev, 'f', 1) : QString("-")));
    }
    m_syncing = wasSyncing;
}

void LabelPanel::refreshStatistics() {
    m_statsTimer->stop();
    m_statisticsStale = false;
    m_statistics.clear();
    if (m_model->hasVolume() && m_model->labels())
        m_statistics = computeLabelStatistics(*m_model->volume(), *m_model->labels());
    fillStatistics();
}

void LabelPanel::applyRow(int row) {
    const std::uint8_t value = valueOfRow(row);
    const LabelInfo* current = m_model->labelTable().find(value);
    if (!current) return;
    LabelInfo info = *current;
    info.name = m_table->item(row, Name)->text().toStdString();
    info.visible = m_table->item(row, Visible)->checkState() == Qt::Checked;
    info.locked = m_table->item(row, Locked)->checkState() == Qt::Checked;
    bool ok = false;
    const int percent = m_table->item(row, Opacity)->text().toInt(&ok);
    if (ok) info.opacity = float(std::clamp(percent, 0, 100)) / 100.0f;
    const QColor c = m_table->item(row, Colour)->data(Qt::UserRole).value<QColor>();
    if (c.isValid()) info.rgb = {std::uint8_t(c.red()), std::uint8_t(c.green()), std::uint8_t(c.blue())};
    // Rebuilt from the model afterwards (deferred: this runs inside the table's own signal).
    QTimer::singleShot(0, this, [this, info] { m_model->setLabelInfo(info); });
}

void LabelPanel::chooseColour(int row) {
    const QColor now = m_table->item(row, Colour)->data(Qt::UserRole).value<QColor>();
    const QColor chosen = QColorDialog::getColor(now, this, "Label colour");
    if (!chosen.isValid()) return;
    m_table->item(row, Colour)->setData(Qt::UserRole, chosen);  // itemChanged applies it
}

std::uint8_t LabelPanel::addLabel() {
    const std::uint8_t value = m_model->labelTable().nextFreeValue();
    if (!value) {
        emit message("All 255 label values are in use");
        return 0;
    }
    m_model->setActiveLabel(value);  // made with its default name and colour
    show();
    raise();
    return value;
}

bool LabelPanel::activeLabelEditable() {
    if (!m_model->hasVolume()) return false;
    const LabelInfo* info = m_model->labelTable().find(m_model->activeLabel());
    if (info && info->locked) {
        emit message(QString::fromStdString(info->name) + " is locked: unlock it to edit its islands");
        return false;
    }
    return true;
}

SliceFillModel* LabelPanel::sliceFill() { return &m_fill->model(); }

QAction* LabelPanel::fillAction() const { return m_fill->action(); }

QAction* LabelPanel::pickRangeAction() const { return m_range->pickAction(); }

int LabelPanel::minIslandVoxels() const { return m_minVoxels->value(); }

bool LabelPanel::keepLargest() {
    if (!activeLabelEditable()) return false;
    const std::uint8_t value = m_model->activeLabel();
    return m_model->editLabels([value](LabelMap& layer) { keepLargestIsland(layer, value); }, "Keep largest island");
}

bool LabelPanel::removeSmall(int minVoxels) {
    if (!activeLabelEditable()) return false;
    const std::uint8_t value = m_model->activeLabel();
    return m_model->editLabels(
        [value, minVoxels](LabelMap& layer) { removeSmallIslands(layer, value, std::size_t(minVoxels)); },
        QString("Remove islands under %1 voxels").arg(minVoxels).toStdString());
}

void LabelPanel::askExportStatistics() {
    const QString path = QFileDialog::getSaveFileName(this, "Export label statistics", "labels.csv", "CSV (*.csv)");
    QString error;
    if (!path.isEmpty() && !exportStatistics(path, &error)) emit message(error);
}

bool LabelPanel::exportStatistics(const QString& path, QString* error) {
    refreshStatistics();  // what the layer holds now, not what the last pause saw
    return saveFile(path, labelStatisticsCsv(m_statistics, m_model->labelTable()), error);
}

}  // namespace lucent::ui
