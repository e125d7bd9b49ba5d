/// @brief Parameter dialogs of the two menu methods: fuzzy C-means (clusters, fuzziness, epsilon,
/// optional mask) and fuzzy connectedness (threshold and the object's statistics, estimated
/// around the seeds and editable).
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace lucent::ui {

class FcmDialog : public QDialog {
    Q_OBJECT
public:
    explicit FcmDialog(const FuzzyCMeansParams& initial, bool haveLayer, QWidget* parent = nullptr);
    FuzzyCMeansParams params() const;
    /// Cluster only the voxels of the label layer (a brain mask, say).
    bool maskedByLayer() const;

private:
    QSpinBox* m_clusters;
    QDoubleSpinBox *m_fuzziness, *m_epsilon;
    QSpinBox* m_iterations;
    QCheckBox* m_mask;
};

class FcDialog : public QDialog {
    Q_OBJECT
public:
    /// `estimated`: M, S, D from the voxels around `seeds` (shown, editable). The dialog names
    /// every seed the run will use: seeds placed earlier, on other slices too, are not a surprise.
    FcDialog(const FuzzyConnectednessParams& initial, double mean, double objectSigma, double diffSigma,
             const QStringList& seeds, QWidget* parent = nullptr);
    FuzzyConnectednessParams params() const;

private:
    QDoubleSpinBox *m_threshold, *m_mean, *m_sigma, *m_diff;
};

}  // namespace lucent::ui
