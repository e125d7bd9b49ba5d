/// @brief What the Segment panel's Accept writes (SegmentationModel.h): fuzzy C-means' chosen clusters and the
/// labels they go into, the colours the preview is drawn in, and the accept itself (one undo step,
/// locked labels refused).
#include "lucent/ui/SegmentationModel.h"

#include "lucent/core/seg/BackgroundCluster.h"


#include "lucent/core/ValuePrecision.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <tuple>
#include <cmath>

namespace lucent::ui {

namespace {

/// "Accept region growing": the undo entry of an accepted run.
QString acceptDescription(Method method) {
    const std::string_view name = methodInfo(method).lowerTitle;
    return "Accept " + QString::fromUtf8(name.data(), qsizetype(name.size()));
}

}  // namespace

void SegmentationModel::resetClusters() {
    m_clustersChosen.assign(std::size_t(std::max(0, m_fcm.clusters)), true);
    m_clustersSettled = false;
    m_backgroundCluster = 0;
    m_runner->showOnlyValues({});
    emit clustersChanged();
}

void SegmentationModel::clustersSettled(const std::vector<double>& centres) {
    if (m_clustersSettled || !m_runner->active() || m_runner->method() != Method::FuzzyCMeans || !m_viewer->hasVolume())
        return;
    m_clustersSettled = true;
    if (m_runner->request().mask) return;
    const std::optional<int> background = lucent::backgroundCluster(*m_viewer->volume(), centres);
    if (!background || std::size_t(*background) > m_clustersChosen.size()) return;
    m_backgroundCluster = *background;
    setClusterChosen(*background, false);
}

void SegmentationModel::setClusterChosen(int cluster, bool chosen) {
    if (cluster < 1) return;
    m_clustersSettled = true;  // the user's ticks stand
    if (std::size_t(cluster) > m_clustersChosen.size()) m_clustersChosen.resize(std::size_t(cluster), true);
    if (m_clustersChosen[std::size_t(cluster - 1)] == chosen) return;
    m_clustersChosen[std::size_t(cluster - 1)] = chosen;
    m_runner->showOnlyValues(m_clustersChosen);  // an unticked cluster leaves the preview
    emit clustersChanged();
}

void SegmentationModel::setClusterTarget(ClusterTarget target) {
    if (m_clusterTarget == target) return;
    m_clusterTarget = target;
    emit clustersChanged();
}

const TakenLabels& SegmentationModel::takenLabels() const {
    const std::pair<int, int> key{m_viewer->labelGeneration(), m_viewer->labelTableGeneration()};
    if (key == m_takenKey) return m_taken;
    m_taken = m_viewer->valuesInLayer();
    m_taken[0] = true;
    // A label named by the user is in use before it has voxels (a "Tumour" still to paint).
    for (const LabelInfo& l : m_viewer->labelTable().labels())
        if (l.name != LabelTable::defaultName(l.value)) m_taken[l.value] = true;
    m_takenKey = key;
    return m_taken;
}

ClusterLabels SegmentationModel::clusterLabelsFor(std::uint8_t acceptLabel) const {
    const int clusters = m_runner->active() ? m_runner->request().fuzzyCMeans.clusters : m_fcm.clusters;
    return clusterLabels(m_clustersChosen, clusters, m_clusterTarget, acceptLabel, takenLabels());
}

std::array<std::uint8_t, 256> SegmentationModel::previewTargets(std::uint8_t acceptLabel) const {
    std::array<std::uint8_t, 256> to{};
    for (int v = 0; v < 256; ++v) to[std::size_t(v)] = std::uint8_t(v);
    if (!m_runner->active()) return to;
    if (m_runner->method() == Method::GrowCut) return to;  // each grown label is its seeds' label
    if (m_runner->method() != Method::FuzzyCMeans) {
        to[1] = acceptLabel ? acceptLabel : std::uint8_t(1);
        return to;
    }
    const ClusterLabels clusters = clusterLabelsFor(acceptLabel);
    for (int v = 1; v < 256; ++v)
        if (clusters.labelFor[std::size_t(v)]) to[std::size_t(v)] = clusters.labelFor[std::size_t(v)];
    return to;
}

bool SegmentationModel::canAccept() const {
    // Accepting nothing would end the run and use up its seeds for no label: not offered.
    if (!m_runner->active() || m_runner->voxels() == 0) return false;
    if (m_runner->method() != Method::FuzzyCMeans) return true;
    return std::any_of(m_clustersChosen.begin(), m_clustersChosen.end(), [](bool c) { return c; }) ||
           m_clustersChosen.size() < std::size_t(m_runner->request().fuzzyCMeans.clusters);
}

bool SegmentationModel::refuseLocked(std::uint8_t label) {
    const LabelInfo* info = m_viewer->labelTable().find(label);
    if (!info || !info->locked) return false;
    fail(QString::fromStdString(info->name) + " is locked: unlock it or choose another label to accept into.");
    return true;
}

bool SegmentationModel::accept(std::uint8_t label) {
    if (!canAccept()) return false;
    const Method method = m_runner->method();
    // Grow from seeds writes every label at once, each into its seeds' label (locked ones left alone).
    const bool intoOne = method != Method::GrowCut && (method != Method::FuzzyCMeans || m_clusterTarget == ClusterTarget::OneLabel);
    if (intoOne && refuseLocked(label)) return false;
    bool changed = false;
    if (method == Method::FuzzyCMeans) {
        const ClusterLabels to = clusterLabelsFor(label);
        if (to.missing) {
            fail(QString("No free label value is left for %1 of the checked clusters: accept them into one label, or "
                         "remove unused labels.")
                     .arg(to.missing));
            return false;
        }
        changed = m_runner->accept(to.labelFor, "Accept fuzzy C-means clusters");
    } else if (method == Method::GrowCut) {
        changed = m_runner->accept(GrowCutSeeds::sameLabels(), acceptDescription(method));
    } else {
        changed = m_runner->accept(label, acceptDescription(method));
    }
    if (intoOne) m_viewer->setActiveLabel(label);
    if (changed) m_viewer->addEntriesForLayerValues();  // new labels get names and colours
    if (method == Method::RegionGrowing || method == Method::FuzzyConnectedness) {
        m_seedTool.clear();
        emit seedsChanged();
    }
    if (method == Method::Snake3d) m_snake3dTool.clear();  // its start is used up, as seeds are
    // The result is in: the next click on a view is for looking, not another run (issue 43
    // item 7). Choosing the method again (menu, key, page) arms the tool.
    if (m_armed) {
        m_armed = false;
        emit toolChanged();
    }
    return changed;
}

}  // namespace lucent::ui
