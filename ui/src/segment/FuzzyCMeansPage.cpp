/// @brief Fuzzy C-means's page: the clusters to accept, in the overlay's colours, and a
/// membership's heat (SegmentPages.h).
#include "SegmentPages.h"

#include "lucent/ui/ViewerModel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QSignalBlocker>

namespace lucent::ui {

FuzzyCMeansPage::FuzzyCMeansPage(SegmentationModel* model, LiveSegmentation* live, const ViewerModel* viewer,
                                 QWidget* parent)
    : SegmentPage(model, live, parent), m_viewer(viewer) {
    auto* form = new QFormLayout(this);
    form->addRow(pageNote("Segment > Fuzzy C-means... clusters the volume. Check the clusters to accept; each goes "
                          "into a label nothing uses yet, or all into the Accept as label. The background (the air "
                          "around the body) starts unchecked.", this));
    m_clusters = new QListWidget(this);
    m_clusters->setObjectName("fcmClusters");
    connect(m_clusters, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        m_model->setClusterChosen(m_clusters->row(item) + 1, item->checkState() == Qt::Checked);
    });
    form->addRow(m_clusters);
    m_into = new QComboBox(this);
    m_into->setObjectName("fcmAcceptInto");
    m_into->addItem("new labels, one a cluster", int(ClusterTarget::NewLabels));
    m_into->addItem("the Accept as label", int(ClusterTarget::OneLabel));
    connect(m_into, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_model->setClusterTarget(ClusterTarget(m_into->itemData(i).toInt())); });
    form->addRow("Accept into", m_into);
    m_heat = new QComboBox(this);
    m_heat->setObjectName("fcmHeat");
    m_heat->addItem("none");
    connect(m_heat, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (running(Method::FuzzyCMeans)) m_live->showSoftMap(i - 1);
    });
    form->addRow("Membership overlay", m_heat);
}

void FuzzyCMeansPage::fillClusters(int clusters) {
    const auto f = m_live->figures();
    const auto& chosen = m_model->clustersChosen();
    for (int c = 0; c < clusters; ++c) {
        auto* item = new QListWidgetItem(m_clusters);
        if (std::size_t(c) < f.centres.size()) item->setData(Qt::UserRole, f.centres[std::size_t(c)]);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = std::size_t(c) >= chosen.size() || chosen[std::size_t(c)];
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

void FuzzyCMeansPage::nameClusters() {
    // No clusters listed (no settled fuzzy C-means run): the labels they would go into are not asked
    // for, since finding the free ones reads the whole layer after every edit (a grow-from-seeds
    // stroke's frame waited for it).
    if (m_clusters->count() == 0) return;
    const ClusterLabels to = m_model->clusterLabelsFor(m_viewer->activeLabel());
    for (int row = 0; row < m_clusters->count(); ++row) {
        QListWidgetItem* item = m_clusters->item(row);
        const QVariant centre = item->data(Qt::UserRole);
        QString text = QString("cluster %1").arg(row + 1);
        if (centre.isValid()) text += QString(": centre %1").arg(centre.toDouble(), 0, 'f', 1);
        if (row + 1 == m_model->backgroundCluster()) text += " (background)";
        const std::uint8_t label = to.labelFor[std::size_t(row + 1)];
        if (label) text += QString::fromUtf8(" \u2192 %1").arg(QString::fromStdString(m_viewer->labelTable().nameOf(label)));
        if (item->text() != text) item->setText(text);
        // The legend: the colour the preview draws the cluster in, its target label's (grey: left out).
        const auto rgb = label ? m_viewer->labelTable().colourOf(label) : std::array<std::uint8_t, 3>{110, 110, 110};
        const QColor colour(rgb[0], rgb[1], rgb[2]);
        if (item->data(Qt::DecorationRole).value<QIcon>().isNull() || item->data(Qt::UserRole + 1).value<QColor>() != colour) {
            QPixmap swatch(14, 14);
            swatch.fill(colour);
            item->setIcon(QIcon(swatch));
            item->setData(Qt::UserRole + 1, colour);
        }
    }
}

void FuzzyCMeansPage::refresh() {
    const QSignalBlocker b1(m_clusters), b2(m_heat), b3(m_into);
    // The clusters to accept, once the run has settled.
    const bool settled = running(Method::FuzzyCMeans) && m_live->published().state == SessionState::Finished;
    const int clusters = m_live->request().fuzzyCMeans.clusters;
    if (!running(Method::FuzzyCMeans)) m_clusters->clear();
    if (settled && m_clusters->count() != clusters) {
        m_clusters->clear();
        m_model->clustersSettled(m_live->figures().centres);  // the air starts unticked
        fillClusters(clusters);
    }
    const auto& chosen = m_model->clustersChosen();
    for (int row = 0; row < m_clusters->count() && std::size_t(row) < chosen.size(); ++row)
        m_clusters->item(row)->setCheckState(chosen[std::size_t(row)] ? Qt::Checked : Qt::Unchecked);
    m_into->setCurrentIndex(m_into->findData(int(m_model->clusterTarget())));
    nameClusters();
    if (m_heat->count() != m_clusters->count() + 1) {
        m_heat->clear();
        m_heat->addItem("none");
        for (int c = 1; c <= m_clusters->count(); ++c) m_heat->addItem(QString("cluster %1").arg(c));
    }
}

}  // namespace lucent::ui
